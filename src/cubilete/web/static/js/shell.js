// Every page: registers the service worker (it keeps the app's shell, so the app opens without a
// connection), and says under the top bar when there is no connection, which playing needs.

import { ApiError } from "./api.js";
import { t } from "./i18n.js";

let notice = null;
let reloadWhenOnline = false;

function showNotice() {
  if (notice === null) {
    notice = document.createElement("p");
    notice.className = "connection";
    notice.dataset.offline = "";
    notice.setAttribute("role", "status");
    notice.textContent = t("No connection to the server: playing needs one.");
    const bar = document.querySelector("header.bar");
    if (bar) bar.after(notice);
    else document.body.prepend(notice);
  }
  notice.hidden = false;
}

// For a page's first request (`.catch(needsConnection)`): with no answer from the server, the page
// says so, hides what needs the server ([data-needs-connection]), and stops there (the promise never
// settles); it loads again once the browser is back online.
export function needsConnection(error) {
  if (!(error instanceof ApiError) || error.status !== 0) throw error;
  showNotice();
  for (const element of document.querySelectorAll("[data-needs-connection]")) element.hidden = true;
  reloadWhenOnline = true;
  return new Promise(() => {});
}

addEventListener("offline", showNotice);
addEventListener("online", () => {
  if (reloadWhenOnline) location.reload();
  else if (notice) notice.hidden = true;
});
if (!navigator.onLine) showNotice();

// Without a worker (an old browser, a private window) the app works as before, online only.
navigator.serviceWorker?.register("/sw.js").catch(() => {});
