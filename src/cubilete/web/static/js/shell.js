// Every page: registers the service worker (it keeps the app's shell, so the app opens without a
// connection), and says under the top bar when there is no connection, which playing needs.

import { ApiError } from "./api.js";
import { t } from "./i18n.js";

let notice = null;

function showNotice(shown) {
  if (notice === null && shown) {
    notice = document.createElement("p");
    notice.className = "connection";
    notice.dataset.offline = "";
    notice.setAttribute("role", "status");
    notice.textContent = t("No connection to the server: playing needs one.");
    const bar = document.querySelector("header.bar");
    if (bar) bar.after(notice);
    else document.body.prepend(notice);
  }
  if (notice) notice.hidden = !shown;
}

const backOnline = () => new Promise((resolve) => addEventListener("online", resolve, { once: true }));
// Without a connection the worker answers any page it has no copy of with the home page.
const standIn = () => document.body.classList.contains("home-page") && location.pathname !== "/";

// A page's first request (`await withConnection(() => getJson(...))`). While the server does not
// answer, the page says so and hides what needs the server ([data-needs-connection]); the request is
// asked again each time the browser is back online, and the page goes on once it is answered (or,
// if the page stands in for another, that page loads).
export async function withConnection(request) {
  const needing = document.querySelectorAll("[data-needs-connection]");
  for (let attempt = 0; ; attempt += 1) {
    try {
      const answer = await request();
      if (attempt > 0 && standIn()) {
        location.reload();
        return new Promise(() => {});
      }
      if (attempt > 0) {
        for (const element of needing) element.hidden = false;
        showNotice(!navigator.onLine);
      }
      return answer;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 0) throw error;
    }
    showNotice(true);
    for (const element of needing) element.hidden = true;
    await backOnline();
  }
}

addEventListener("offline", () => showNotice(true));
addEventListener("online", () => showNotice(false));
if (!navigator.onLine) showNotice(true);

// Without a worker (an old browser, a private window) the app works as before, online only.
navigator.serviceWorker?.register("/sw.js").catch(() => {});
