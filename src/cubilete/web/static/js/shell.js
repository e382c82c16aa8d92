// Every page: registers the service worker (it keeps the app's shell, so the app opens without a
// connection), and says under the top bar when there is no connection, which playing needs.

import { ApiError } from "./api.js";
import { t } from "./i18n.js";

let notice = null;

// A page with a connection line of its own (the game's, which its live socket keeps) says it there alone.
const ownConnectionLine = () => document.querySelector("[data-connection]") !== null;

function showNotice(shown) {
  if (ownConnectionLine()) return;
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
const RETRY_SECONDS = 3; // online, but the server does not answer (restarting, say): ask again this often
const pause = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
// Without a connection the worker answers any page it has no copy of with the home page.
const standIn = () => document.body.classList.contains("home-page") && location.pathname !== "/";

// Loads the page a stand-in stands for, once the server answers. Just back online, the worker may
// not reach the server for a moment yet and stand in again: the new stand-in tries again a second
// later, a few times at most (counted for the tab until a page that is no stand-in opens), never in
// a loop.
const RELOADS = "cubilete.stand-in-reloads";
const MOST_RELOADS = 3;

function loadStoodInPage(afterWaiting) {
  let reloads;
  try {
    reloads = Number(sessionStorage.getItem(RELOADS) ?? 0);
    sessionStorage.setItem(RELOADS, String(reloads + 1));
  } catch {
    reloads = afterWaiting ? 0 : MOST_RELOADS; // storage refused: only once the page waited for the connection
  }
  if (reloads >= MOST_RELOADS) return false;
  setTimeout(() => location.reload(), reloads === 0 ? 0 : 1000);
  return true;
}

if (!standIn()) {
  try {
    sessionStorage.removeItem(RELOADS);
  } catch {
    // nothing was counted
  }
}

// A page's first request (`await withConnection(() => getJson(...))`). While the server does not
// answer, the page says so and hides what needs the server ([data-needs-connection]); the request is
// asked again each time the browser is back online (every few seconds while it is online), and the
// page goes on once it is answered (or, if the page stands in for another, that page loads).
export async function withConnection(request) {
  const needing = document.querySelectorAll("[data-needs-connection]");
  for (let attempt = 0; ; attempt += 1) {
    try {
      const answer = await request();
      if (standIn() && loadStoodInPage(attempt > 0)) return new Promise(() => {});
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
    await (navigator.onLine ? pause(RETRY_SECONDS) : backOnline());
  }
}

addEventListener("offline", () => showNotice(true));
addEventListener("online", () => showNotice(false));
if (!navigator.onLine) showNotice(true);

// Without a worker (an old browser, a private window) the app works as before, online only.
navigator.serviceWorker?.register("/sw.js").catch(() => {});
