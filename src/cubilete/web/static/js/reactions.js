// Reactions, not chat: a player shows the table one of a few presets (web/reactions.py; their keys come
// in the page's data, their texts from the catalogs, context "reaction"). A button on the turn line opens
// them, for the seat this browser plays; every page shows a reaction a while beside the name of the seat
// that sent it, in its reader's language, and tells screen readers politely. The bubble moves only for
// those who have not asked for reduced motion and keep the feel setting (⚙) on.

import { ApiError, postJson, seatTokens } from "./api.js";
import { page, t } from "./i18n.js";
import { loadSettings } from "./settings.js";

const SHOWN_MS = 4000;

export const reactionText = (key) => t(key, {}, "reaction");

export class Reactions {
  constructor(controller) {
    this.controller = controller;
    this.control = document.querySelector("[data-react]");
    this.button = this.control.querySelector("[data-action='react']");
    this.panel = this.control.querySelector("[data-reactions]");
    this.said = document.querySelector("[data-reaction-said]");
    this.panel.replaceChildren(...page.reactions.map((key) => this.choice(key)));
    this.button.addEventListener("click", () => this.open(this.panel.hidden));
    this.control.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || this.panel.hidden) return;
      this.open(false);
      this.button.focus();
    });
    document.addEventListener("click", (event) => {
      if (!this.control.contains(event.target)) this.open(false);
    });
  }

  choice(key) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.dataset.reaction = key;
    button.textContent = reactionText(key);
    button.addEventListener("click", () => this.send(key));
    return button;
  }

  open(opened) {
    this.panel.hidden = !opened;
    this.button.setAttribute("aria-expanded", String(opened));
    if (opened) this.panel.querySelector("button")?.focus();
  }

  // The control is for a seat holder at a table with a human seat played elsewhere: spectators do not
  // react, and bots would not read it.
  follow(seats) {
    const mine = seatTokens(this.controller.gameId);
    const others = seats.some((seat, index) => seat.kind === "human" && !(index in mine));
    this.control.hidden = Object.keys(mine).length === 0 || !others;
    if (this.control.hidden) this.open(false);
  }

  // The seat that reacts: the one to move if this browser plays it (several seats on one screen), else its first.
  get seat() {
    const mine = seatTokens(this.controller.gameId);
    const current = this.controller.view?.current_player;
    return current in mine ? current : Number(Object.keys(mine)[0]);
  }

  async send(key) {
    this.open(false);
    this.button.focus();
    const seat = this.seat;
    const token = seatTokens(this.controller.gameId)[seat];
    try {
      await postJson(`/api/games/${this.controller.gameId}/reactions`, { seat, token, reaction: key });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.controller.fail(error.message);
    }
  }

  // A reaction pushed over the live socket: a bubble by the seat's name, and a polite word to screen readers.
  show({ seat, key }) {
    const seats = this.controller.seats;
    if (!page.reactions.includes(key) || !Number.isInteger(seat) || seat < 0 || seat >= seats.length) return;
    const text = reactionText(key);
    const name = seats[seat].name;
    this.said.textContent = t("{name} reacts: {reaction}", { name, reaction: text });
    const head = this.controller.table?.seatHead(seat);
    if (!head) return;
    // over the page, not inside the name: the table redraws its names, and takes no room from the bubble
    document.querySelector(`.reaction-bubble[data-reaction-seat="${seat}"]`)?.remove();
    const bubble = document.createElement("p");
    bubble.className = "reaction-bubble";
    bubble.classList.toggle("still", !loadSettings().feel); // with the feel off (⚙), nothing moves
    bubble.dataset.reactionSeat = String(seat);
    bubble.setAttribute("aria-hidden", "true"); // said once, by the live region
    bubble.textContent = text;
    document.body.append(bubble);
    const box = head.getBoundingClientRect();
    const half = bubble.offsetWidth / 2;
    const middle = Math.min(Math.max(box.left + box.width / 2, half + 4), innerWidth - half - 4);
    bubble.style.left = `${middle - half}px`;
    bubble.style.top = `${box.bottom + 4}px`;
    setTimeout(() => bubble.remove(), SHOWN_MS);
  }
}
