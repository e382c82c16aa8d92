// The server's password for creating games, when its host set one: asked once on the home form, then
// kept in this browser's localStorage and sent with each new game. A refused one is forgotten and
// asked again.

import { page } from "./i18n.js";

const KEY = "cubilete.creationPassword";
// The refusals after which the field shows again (making a game or a profile; none given, or a wrong one).
export const PASSWORD_REFUSALS = ["creation_password_needed", "creation_password_wrong", "profile_password_needed"];
const row = document.querySelector("[data-creation-password-row]");
const input = document.querySelector("[data-creation-password]");

// The field shows when the server asks a password that this browser does not hold (or held a wrong one).
export function askPasswordIfNeeded(refused = false) {
  if (refused) localStorage.removeItem(KEY);
  const held = localStorage.getItem(KEY) !== null;
  row.hidden = held || !(page.creation_password || refused);
  input.required = !row.hidden;
  if (refused) input.focus();
}

// The password to send with a new game: the one written, else the one kept (undefined: none).
export const creationPassword = () => (row.hidden ? (localStorage.getItem(KEY) ?? undefined) : input.value);

// A game was created with it: keep it for the next ones.
export function keepPassword(password) {
  if (password) localStorage.setItem(KEY, password);
  askPasswordIfNeeded();
}
