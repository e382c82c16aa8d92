// A game followed live: a WebSocket the server pushes every step to. It reconnects by itself with
// a growing delay after a drop, and catches up when the page wakes or the network comes back.

import { lang } from "./i18n.js";

const FIRST_DELAY_MS = 500;
const LONGEST_DELAY_MS = 10_000;
const ANSWER_WITHIN_MS = 4_000; // a socket that does not answer a catch-up by then is dead

// seen(): the number of events this page has; onView(view): a view with the steps since then;
// onConnected(boolean): whether pushes arrive now; playing(): the seats this page plays ({ seat: token }),
// said on each connection: while it lasts, the others see those seats present. A page playing seats
// also says when it is hidden or shown again: the server sends no "your turn" push while it is in sight.
// onReaction({ seat, key }): a seat's reaction to the table (js/reactions.js), which changes no view;
// onAway(away): the human seats no page is connected for, when only they changed (a view lists them too).
// Each message says its type both ways (web/live.py); the page ignores a type it does not know (a server
// of a later release), so that it keeps following the game.
export function followGame(gameId, seen, onView, onConnected, playing, onReaction, onAway) {
  let socket = null;
  let delay = FIRST_DELAY_MS;
  let retry = null;
  let deadline = null;

  function address() {
    const url = new URL(`/api/games/${gameId}/live`, location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("since", String(seen()));
    url.searchParams.set("lang", lang);
    return url;
  }

  function connect() {
    clearTimeout(retry);
    retry = null;
    const current = new WebSocket(address());
    socket = current;
    current.onopen = () => {
      delay = FIRST_DELAY_MS;
      onConnected(true);
      const seats = playing();
      if (Object.keys(seats).length > 0) {
        current.send(JSON.stringify({ type: "seats", seats }));
        if (document.visibilityState !== "visible") sayVisibility();
      }
    };
    current.onmessage = (message) => {
      clearTimeout(deadline);
      onConnected(true);
      const pushed = JSON.parse(message.data);
      if (pushed.type === "view") onView(pushed);
      else if (pushed.type === "reaction") onReaction(pushed.reaction);
      else if (pushed.type === "away") onAway(pushed.away);
    };
    current.onclose = (event) => {
      if (socket !== current) return; // replaced already
      socket = null;
      clearTimeout(deadline);
      if (event.code === 4404) return; // the game is gone: nothing to follow
      onConnected(false);
      retry = setTimeout(connect, delay);
      delay = Math.min(delay * 2, LONGEST_DELAY_MS);
    };
  }

  // Drop a socket that may be dead (the phone slept, the network changed) and open a new one.
  function restart() {
    const old = socket;
    socket = null;
    old?.close();
    connect();
  }

  function catchUp() {
    if (socket?.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "since", since: seen() }));
      clearTimeout(deadline);
      deadline = setTimeout(restart, ANSWER_WITHIN_MS);
    } else if (socket === null) {
      connect();
    }
  }

  function sayVisibility() {
    if (socket?.readyState === WebSocket.OPEN && Object.keys(playing()).length > 0) {
      socket.send(JSON.stringify({ type: "visible", visible: document.visibilityState === "visible" }));
    }
  }

  document.addEventListener("visibilitychange", () => {
    sayVisibility();
    if (document.visibilityState === "visible") catchUp();
  });
  window.addEventListener("online", catchUp);
  window.addEventListener("offline", () => onConnected(false));
  connect();
}
