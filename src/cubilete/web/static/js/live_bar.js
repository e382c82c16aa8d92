// The live bar, switched on in ⚙: every seat's chance to win (at Penta and Generala: to finish first,
// with its expected final total in the seat's tooltip) or, alone at Penta or Generala, the expected
// final total, at the step the table shows, played back with the steps. The figures come from
// GET /api/games/{id}/chances, the same for every reader; while the bar is off nothing is asked.
// At a table without hints (a game with friends whose creator did not allow them) the bar and the
// hint button say why they are off.

import { ApiError, getJson } from "./api.js";
import { element } from "./dom.js";
import { decimalText, t } from "./i18n.js";
import { chanceText } from "./options.js";
import { loadSettings } from "./settings.js";

export class LiveBar {
  constructor(gameId, controller) {
    this.gameId = gameId;
    this.controller = controller;
    this.element = document.querySelector("[data-live-bar]");
    this.offReason = document.querySelector("[data-hints-off]");
    this.allowed = true;
    this.wanted = null; // the events of the step the table shows
    this.shown = null; // the events of the figures the bar shows
    this.asking = false;
  }

  // The game's first view: whether its table has hints (if not, the hint button's reason shows).
  start(view) {
    this.allowed = view.hints !== "off";
    this.offReason.hidden = this.allowed;
    if (!this.allowed) {
      for (const hint of document.querySelectorAll("[data-action='hint']")) {
        hint.setAttribute("aria-describedby", this.offReason.id);
      }
    }
  }

  // A view or step the table now shows.
  follow(view) {
    this.wanted = view.events;
    this.update();
  }

  settingsChanged() {
    this.update();
  }

  // Ask for the figures of the step shown, one request at a time: a step shown meanwhile is asked next.
  async update() {
    const on = loadSettings().liveBar;
    this.element.hidden = !on;
    if (!on) {
      this.shown = null;
      return;
    }
    if (!this.allowed) {
      this.say(t("Hints and win chances are off: this game with friends was started without them."));
      return;
    }
    if (this.asking) return;
    this.asking = true;
    try {
      while (loadSettings().liveBar && this.shown !== this.wanted) {
        const path = `/api/games/${this.gameId}/chances?at=${this.wanted}`;
        let answer = await getJson(`${path}&wait=false`, { quiet: true });
        if (answer.preparing) {
          // the first figures of these rules wait for the computer's tables: a minute or more for a duel
          this.say(t("Preparing the computer's tables…"));
          this.element.dataset.preparing = "";
          answer = await getJson(path, { quiet: true });
        }
        this.draw(answer);
      }
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.say(error.message); // the next step asks again
    } finally {
      this.asking = false;
    }
  }

  say(text) {
    this.shown = null;
    delete this.element.dataset.events;
    delete this.element.dataset.preparing;
    this.element.replaceChildren(element("p", "live-off", text));
  }

  draw(answer) {
    this.shown = answer.events;
    delete this.element.dataset.preparing;
    this.element.dataset.events = String(answer.events);
    const winChance = answer.unit === "win_probability";
    const title = element(
      "p",
      "live-title",
      winChance ? (answer.estimate ? t("Chance to win (estimated)") : t("Chance to win")) : t("Expected final total"),
    );
    if (answer.estimate) title.title = t("With more than two players, the chances are the computer players' estimates.");
    const top = Math.max(1, ...answer.seats.map((seat) => seat.value));
    const list = element("ol", "live-seats");
    for (const seat of answer.seats) {
      const item = element("li", `seat-${seat.seat}`);
      item.dataset.liveSeat = String(seat.seat);
      item.dataset.value = String(seat.value);
      const figure = winChance ? chanceText(seat.value) : decimalText(seat.value);
      const meter = element("span", "meter");
      const fill = element("span", "fill");
      fill.style.width = `${(100 * seat.value) / (winChance ? 1 : top)}%`;
      meter.append(fill);
      item.append(
        element("span", "name", this.controller.seatName(seat.seat)),
        element("strong", "value", figure),
        meter,
      );
      if (seat.expected !== undefined) {
        item.title = t("{points} now, {expected} expected at the end", {
          points: seat.score,
          expected: decimalText(seat.expected),
        });
      } else if (!winChance) item.title = t("{points} now", { points: seat.score });
      list.append(item);
    }
    this.element.replaceChildren(title, list);
  }
}
