// The ⚙ dialog's switch "Tell me when it is my turn", for this device: it asks the browser's permission
// to notify, subscribes to its push service with the server's key, and gives the subscription to the
// server for each seat this browser plays (the server then pushes your turn, a friend joining, the end
// of the game). Turning it off takes it back. A device that said yes gives it again on each game page
// it plays (a new game, a rematch). On a device signed in to a profile the subscription is the profile's
// too: the server then pushes the news of every seat the profile holds, games started later included
// (web/push/routes.py). iPhone and iPad push only to the app added to the Home Screen; where no push
// can be had, the switch says what would make it work, and the home page counts the games waiting
// (waiting_games.js). A failure is said in our words; the browser's own text goes to the console.

import { ApiError, deleteJson, getJson, postJson, seatTokens, signedInProfile } from "./api.js";
import { lang, page, t } from "./i18n.js";

const SETTING = "cubilete-push"; // "on" once this device said yes
const gameId = page.id;

// "ok", "install" (iPhone or iPad, in Safari rather than the app on the Home Screen), "insecure" (a plain
// http:// address other than localhost: no browser pushes there), or "none".
export function pushSupport() {
  const apple = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  const installed = navigator.standalone === true || matchMedia("(display-mode: standalone)").matches;
  if (!window.isSecureContext) return "insecure";
  if (apple && !installed) return "install";
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) return "none";
  return "ok";
}

// What would make push work on this device, by pushSupport()'s answer.
const UNSUPPORTED = {
  install: () => t("On iPhone and iPad, notifications need the app on the Home Screen: tap Share, then Add to Home Screen, and open it from there."),
  insecure: () => t("Notifications need the app's secure address (https://): ask the server's host for it."),
  none: () => t("This browser cannot show notifications: a recent Chrome, Edge, Firefox or Safari can."),
};

// A push subscription's DOMException, by its name (the browser's text, such as "Registration failed -
// permission denied", is English).
const SUBSCRIBE_FAILURES = {
  NotAllowedError: () => t("this browser refused notifications for this site: allow them in its settings"),
  // Chromium's answer, "Registration failed - permission denied", where its push service is off or unreachable
  AbortError: () =>
    t("this browser's push service did not take the subscription (switched off, a private window, or out of reach): try again later, or in another browser"),
  NotSupportedError: () => t("this browser has no push service"),
};

// A reason of ours, already in the reader's language: notifications blocked for this site.
class Blocked extends Error {}

function failureReason(error) {
  if (error instanceof ApiError || error instanceof Blocked) return error.message; // in our words already
  console.warn("push:", error.name, error.message);
  return (SUBSCRIBE_FAILURES[error.name] ?? (() => t("this browser could not subscribe to its push service")))();
}

const pushOn = () => localStorage.getItem(SETTING) === "on" && pushSupport() === "ok" && Notification.permission === "granted";

// The seats this browser plays in this game that a player holds: [[seat, token]].
function mySeats(controller) {
  return Object.entries(seatTokens(gameId)).filter(([seat]) => controller.seats[seat] && !controller.isBot(Number(seat)));
}

// The browser's subscription to its push service; a new one (with the server's key) if `create`.
async function browserSubscription(create) {
  const registration = await navigator.serviceWorker.ready;
  const existing = await registration.pushManager.getSubscription();
  if (existing || !create) return existing;
  const { public_key: key } = await getJson("/api/push/key", { quiet: true });
  const applicationServerKey = Uint8Array.from(atob(key.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
}

async function tellServer(controller, subscription, send) {
  if (signedInProfile()) await send("/api/profiles/me/push", { subscription: subscription.toJSON(), lang });
  for (const [seat, token] of mySeats(controller)) {
    await send(`/api/games/${gameId}/seats/${seat}/push`, { token, subscription: subscription.toJSON(), lang });
  }
}

async function turnOn(controller) {
  if ((await Notification.requestPermission()) !== "granted") {
    throw new Blocked(t("Notifications are blocked for this site: allow them in the browser's settings."));
  }
  await tellServer(controller, await browserSubscription(true), postJson);
  localStorage.setItem(SETTING, "on");
}

async function turnOff(controller) {
  localStorage.removeItem(SETTING);
  const subscription = await browserSubscription(false);
  if (subscription) await tellServer(controller, subscription, deleteJson);
}

// Signing out of the profile on this device: its subscription carries the profile's news no more.
export async function forgetProfilePush() {
  if (pushSupport() !== "ok") return;
  const registration = await navigator.serviceWorker.getRegistration(); // none where no worker ran
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) await deleteJson("/api/profiles/me/push", { subscription: subscription.toJSON() });
}

// On a game page of a device that said yes: this game's seats are pushed too.
export async function renewPush(controller) {
  if (!pushOn() || mySeats(controller).length === 0 || controller.view?.is_over) return;
  try {
    await tellServer(controller, await browserSubscription(true), postJson);
  } catch {
    // the switch in ⚙ says what is wrong when the player looks
  }
}

// Whether a player elsewhere may make it this browser's turn: not at a table of bots or of one screen.
function othersPlay(controller) {
  const mine = seatTokens(gameId);
  return controller.seats.some((_, seat) => !controller.isBot(seat) && !(seat in mine));
}

// The switch, in the ⚙ dialog's part about this browser's seats (`container`).
export function showPushOptIn(container, controller) {
  container.hidden = mySeats(controller).length === 0 || !othersPlay(controller) || Boolean(controller.view?.is_over);
  const support = pushSupport();
  const label = document.createElement("label");
  label.className = "check";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.name = "push";
  box.checked = pushOn();
  box.disabled = support !== "ok";
  const text = document.createElement("span");
  text.textContent = t("Tell me when it is my turn");
  label.append(box, " ", text);
  const help = document.createElement("p");
  help.className = "small";
  help.textContent = t("A notification on this device when it is your turn, when a friend joins and when the game is over, even with this page closed.");
  const note = document.createElement("p");
  note.className = "small";
  note.dataset.pushNote = "";
  note.setAttribute("role", "status");
  if (support !== "ok") {
    note.textContent = `${UNSUPPORTED[support]()} ${t("Until then, the home page and its tab's title count the games where it is your turn.")}`;
  }
  box.addEventListener("change", async () => {
    note.textContent = "";
    try {
      await (box.checked ? turnOn(controller) : turnOff(controller));
    } catch (error) {
      box.checked = pushOn();
      note.textContent = t("Notifications could not be turned on: {reason}", { reason: failureReason(error) });
    }
  });
  container.replaceChildren(label, help, note);
}
