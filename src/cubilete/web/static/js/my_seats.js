// The ⚙ dialog's part about the seats this browser plays, each of which it may hand to the computer
// or leave (after saying so). The links (watch, invites) are game_links.js's.

import { seatTokens } from "./api.js";
import { page, t } from "./i18n.js";

const gameId = page.id;

// The ⚙ dialog's controls for the seats this browser plays: hand one to the computer, or leave.
export function showMySeats(container, dialog, controller) {
  const mine = Object.keys(seatTokens(gameId))
    .map(Number)
    .filter((seat) => controller.seats[seat] && !controller.isBot(seat));
  container.hidden = mine.length === 0 || controller.view?.is_over;
  container.replaceChildren(
    ...mine.map((seat) => {
      const row = document.createElement("div");
      row.className = "my-seat";
      row.dataset.mySeat = String(seat);
      const title = document.createElement("h3");
      title.textContent = mine.length > 1 ? t("Seat of {name}", { name: controller.seatName(seat) }) : t("Your seat");
      const button = (action, label, leave) => {
        const element = document.createElement("button");
        element.type = "button";
        element.className = "secondary";
        element.dataset.action = action;
        element.dataset.seat = String(seat);
        element.textContent = label;
        element.addEventListener("click", async () => {
          dialog.close();
          if (await confirmGivingUp(controller.seatName(seat), leave)) controller.giveUpSeat(seat, leave);
        });
        return element;
      };
      row.append(
        title,
        button("hand-to-bot", t("Hand my seat to the computer"), false),
        button("leave", t("Leave"), true),
      );
      return row;
    }),
  );
}

// Handing a seat to the computer and leaving cannot be undone: the player says so first, told what happens.
function confirmGivingUp(name, leave) {
  const dialog = document.querySelector("[data-confirm-seat]");
  dialog.querySelector("[data-confirm-title]").textContent = leave
    ? t("Leave the game?")
    : t("Hand your seat to the computer?");
  dialog.querySelector("[data-confirm-text]").textContent = leave
    ? t("The computer plays {name}'s turns to the end of the game and this page closes. You cannot take the seat back.", { name })
    : t("The computer plays {name}'s turns to the end of the game; you go on watching. You cannot take the seat back.", { name });
  dialog.querySelector("[data-confirm-button]").textContent = leave ? t("Leave the game") : t("Hand it over");
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "confirm"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}
