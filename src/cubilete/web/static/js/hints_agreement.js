// An invite link to a table that plays with hints: the friend is told so before taking the seat, and
// taking it is agreeing (README, "Hints in games with friends"). Declining leaves them watching, with
// the link still in the address bar: opening it again asks again.

import { getJson } from "./api.js";

// Whether this browser may take its seat from the invite link.
export async function agreesToTable(gameId) {
  let view;
  try {
    view = await getJson(`/api/games/${gameId}`);
  } catch {
    return false; // the game page says what went wrong; nobody took a seat without being asked
  }
  if (view.hints !== "agreed") return true;
  const dialog = document.querySelector("[data-hints-agreement]");
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "agree"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}
