// The score-sheet games (Penta, Generala, Yahtzee...): five dice to hold and roll, every player's sheet with what each open box
// would score now, the countdown that scores for the player after the last roll, and hints.

import { isUsable, onUse, setUsable } from "./controls.js";
import { DICE, landed, makeTray, showDie } from "./dice.js";
import { forgetHeld, rememberHeld, recallHeld } from "./held_dice.js";
import { boxName, decimalText, numberText, t, tn } from "./i18n.js";
import { SeatColumns } from "./seat_columns.js";
import { sheetWords } from "./sheet_words.js";

export class SheetTable {
  constructor(root, controller, view) {
    this.controller = controller;
    this.game = view.game;
    this.words = sheetWords(view.game);
    document.querySelector("[data-auto-score-label]").textContent = this.words.autoScore; // ⚙, in the game's words
    for (const setting of document.querySelectorAll("[data-auto-score-setting]")) setting.hidden = false;
    this.view = view;
    this.interactive = false;
    this.holding = new Set();
    this.selected = null;
    this.heldBefore = [];
    this.heldAt = null; // the event index the held dice were last remembered at
    this.autoScoredAt = null; // the event index at which this page asked the computer to score
    this.countdownTimer = null;
    this.countdownElement = root.querySelector("[data-countdown]");
    this.hints = root.querySelector("[data-hints]");
    root.classList.add("sheet-game");

    this.cells = this.buildSheet(root.querySelector("[data-board]"), view);
    this.dice = makeTray(root.querySelector("[data-dice]"), (index) => this.toggle(index));
    const buttons = root.querySelector("[data-buttons]");
    const explain = (reason) => this.controller.explain(reason);
    this.hintButton = button("hint", t("Hint"), () => this.showHints(), explain);
    this.rollButton = button("roll", t("Roll"), () => this.roll(), explain);
    this.validateButton = button("validate", t("Validate turn"), () => this.validate(), explain);
    this.hintButton.classList.add("secondary");
    buttons.append(this.hintButton, this.rollButton, this.validateButton);
    document.addEventListener("keydown", (event) => this.key(event));
  }

  buildSheet(board, view) {
    const table = document.createElement("table");
    table.className = "sheet";
    table.dataset.seats = String(view.seats.length);
    const head = table.createTHead().insertRow();
    const corner = document.createElement("th");
    corner.scope = "col";
    corner.className = "corner";
    corner.append(Object.assign(document.createElement("span"), { className: "visually-hidden", textContent: this.words.box }));
    head.append(corner);
    const cells = { box: {}, upper: [], bonus: [], fiveEqual: [], total: [], heads: [] };
    view.seats.forEach((seat, index) => {
      const th = document.createElement("th");
      th.scope = "col";
      th.className = "seat";
      th.dataset.seat = String(index);
      th.title = seat.name;
      head.append(th);
      cells.heads.push(th);
    });
    const body = table.createTBody();
    const row = (label, className, fill) => {
      const tr = body.insertRow();
      tr.className = className;
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = label;
      tr.append(th);
      view.seats.forEach((_, seat) => {
        const td = tr.insertCell();
        td.dataset.player = String(seat);
        fill(td, seat);
      });
      return tr;
    };
    const boxes = view.table.boxes;
    boxes.forEach((box, position) => {
      cells.box[box.id] = [];
      row(boxName(this.game, box.id), box.upper ? "box upper" : "box lower", (td, seat) => {
        td.dataset.box = box.id;
        td.addEventListener("click", () => this.select(box.id, seat));
        td.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") {
            event.preventDefault();
            this.select(box.id, seat);
          }
        });
        cells.box[box.id].push(td);
      });
      const lastUpper = box.upper && !boxes[position + 1]?.upper;
      if (lastUpper && view.table.upper_bonus_threshold !== null) {
        row(t("Upper part"), "subtotal", (td) => {
          td.dataset.upperTotal = "";
          cells.upper.push(td);
        });
        row(t("Bonus (+{points} at {threshold})", {
          points: view.table.upper_bonus_points,
          threshold: view.table.upper_bonus_threshold,
        }), "subtotal", (td) => {
          td.dataset.upperBonus = "";
          cells.bonus.push(td);
        });
      }
    });
    if (view.table.five_equal_bonus_box !== null) {
      row(t("{box} bonus", { box: boxName(this.game, view.table.five_equal_bonus_box) }), "subtotal", (td) => {
        td.dataset.fiveEqualBonus = "";
        cells.fiveEqual.push(td);
      });
    }
    row(t("TOTAL"), "total", (td) => {
      td.dataset.total = "";
      cells.total.push(td);
    });
    board.replaceChildren(table);
    this.columns = new SeatColumns(table, cells.heads, view.seats);
    this.columns.draw(view.seats);
    return cells;
  }

  // The seats changed (a seat taken under a new name, or by a profile): the sheet's heads say who plays each column.
  seatsChanged(seats) {
    this.columns.draw(seats);
    this.cells.heads.forEach((th, index) => {
      th.title = seats[index].name;
    });
  }

  // The seats whose players are away (offline, or invited and not come yet): their heads say so (`labels`, by seat).
  markAway(labels) {
    this.cells.heads.forEach((th, seat) => {
      if (labels.has(seat)) th.dataset.away = labels.get(seat);
      else delete th.dataset.away;
    });
  }

  // Where the seat's name is shown (a reaction's bubble points at it).
  seatHead(seat) {
    return this.cells.heads[seat];
  }

  get mine() {
    const seat = this.view.current_player;
    return !this.view.is_over && !this.controller.isBot(seat) && this.controller.tokenFor(seat) !== null;
  }

  render(view, step) {
    const previous = this.view;
    this.view = view;
    const table = view.table;
    if (view.is_over) forgetHeld(this.controller.gameId);
    if (table.dice.length === 0) {
      this.holding.clear();
      this.selected = null;
    } else if (this.mine && !view.to_roll) {
      this.keepHolding(view);
    }
    this.hideHints();
    this.drawSheet(view);
    const rolled = step?.event.roll !== undefined;
    const diceReason = this.controller.reasonFor(table.dice.length === 0 ? t("Roll the dice first") : this.words.noRollsLeft);
    this.dice.forEach((die, index) => {
      const value = table.dice[index] ?? null;
      const held = view.to_roll ? table.held.includes(index) : this.mine && this.holding.has(index);
      showDie(die, value, {
        held,
        rolled: rolled && !this.heldBefore.includes(index),
        enabled: this.interactive && table.can_reroll,
        reason: diceReason,
      });
    });
    this.heldBefore = table.held;
    this.drawButtons();
    this.describe(view, step, previous);
  }

  // The held dice of this seat's decision: at a new decision, those remembered for it before a reload
  // (or the language switch), else those kept for the roll that led here; remembered at every change.
  keepHolding(view) {
    const seat = view.current_player;
    if (this.heldAt !== view.events) {
      this.holding = recallHeld(this.controller.gameId, seat, view.events, DICE) ?? new Set(this.heldBefore);
      this.heldAt = view.events;
    }
    rememberHeld(this.controller.gameId, seat, view.events, this.holding);
  }

  drawSheet(view) {
    const table = view.table;
    const current = view.is_over ? null : view.current_player;
    const options = new Map(table.options.map((option) => [option.box, option]));
    for (const [box, cells] of Object.entries(this.cells.box)) {
      cells.forEach((td, seat) => {
        const points = table.sheets[seat].boxes[box];
        const option = seat === current ? options.get(box) : undefined;
        const selectable = option !== undefined && this.interactive;
        td.classList.toggle("current", seat === current);
        td.classList.toggle("preview", option !== undefined);
        td.classList.toggle("zero", option !== undefined && option.points === 0);
        td.classList.toggle("selected", selectable && this.selected === box);
        if (points !== undefined) {
          td.dataset.score = String(points);
          delete td.dataset.preview;
          td.textContent = numberText(points);
        } else if (option !== undefined) {
          delete td.dataset.score;
          td.dataset.preview = String(option.points);
          const preview = numberText(option.points);
          td.textContent = option.bonus ? `${preview}+${numberText(option.bonus)}` : preview;
        } else {
          delete td.dataset.score;
          delete td.dataset.preview;
          td.textContent = "";
        }
        if (option !== undefined) {
          td.setAttribute("aria-label", t("{box}: would score {points}", { box: boxName(this.game, box), points: td.textContent }));
        } else {
          td.removeAttribute("aria-label");
        }
        if (selectable) {
          td.setAttribute("role", "button");
          td.tabIndex = 0;
          td.setAttribute("aria-pressed", String(this.selected === box));
        } else {
          td.removeAttribute("role");
          td.removeAttribute("tabindex");
          td.removeAttribute("aria-pressed");
        }
      });
    }
    table.sheets.forEach((sheet, seat) => {
      if (this.cells.upper[seat]) {
        this.cells.upper[seat].textContent = `${numberText(sheet.upper_total)}/${numberText(table.upper_bonus_threshold)}`;
        this.cells.bonus[seat].textContent = numberText(sheet.upper_bonus);
      }
      if (this.cells.fiveEqual[seat]) this.cells.fiveEqual[seat].textContent = numberText(sheet.five_equal_bonus);
      this.cells.total[seat].textContent = numberText(sheet.total);
      this.cells.total[seat].dataset.total = String(sheet.total);
      this.cells.heads[seat].classList.toggle("current", seat === current);
    });
    this.columns.show(current);
  }

  drawButtons() {
    const table = this.view.table;
    const firstRoll = this.view.to_roll || this.view.is_over;
    this.rollButton.replaceChildren(text(firstRoll ? t("Roll") : t("Roll again")));
    if (!this.view.is_over) this.rollButton.append(badge(tn("{n} left", "{n} left", table.rolls_left)));
    const rollable = firstRoll || (table.can_reroll && this.holding.size < DICE);
    setUsable(
      this.rollButton,
      this.interactive && rollable,
      this.controller.reasonFor(
        rollable
          ? null
          : table.can_reroll
            ? this.words.allHeld
            : this.words.noRollsLeft,
      ),
    );
    setUsable(
      this.validateButton,
      this.interactive && this.selected !== null,
      this.controller.reasonFor(table.dice.length === 0 ? t("Roll the dice first") : this.words.chooseBoxFirst),
    );
    setUsable(
      this.hintButton,
      this.interactive && this.controller.hintsAllowed && table.dice.length > 0,
      this.controller.reasonFor(
        this.controller.hintsAllowed
          ? t("Roll the dice first: a hint is about the dice on the table")
          : t("Hints and win chances are off: this game with friends was started without them."),
      ),
    );
  }

  describe(view, step, previous) {
    const say = (message, tone) => this.controller.say(message, tone);
    if (step) {
      const tell = (message) => this.controller.tell(message, "info", view.events);
      const name = this.controller.seatName(step.seat);
      const action = step.event.action;
      if (step.event.roll !== undefined && this.controller.isBot(step.seat)) {
        tell(t("{name} rolls", { name }));
      } else if (action?.type === "keep") {
        const kept = action.held.map((index) => view.table.dice[index]).join(" ");
        tell(kept ? t("{name} keeps {dice}", { name, dice: kept }) : t("{name} rerolls all the dice", { name }));
      } else if (action?.type === "score") {
        const sheet = view.table.sheets[step.seat];
        const bonus = sheet.five_equal_bonus - previous.table.sheets[step.seat].five_equal_bonus;
        const points = sheet.boxes[action.box];
        const box = boxName(this.game, action.box);
        const params = { name, points, box, bonus };
        // the computer chose the box (the countdown ran out, or the turn clock): whose choice it was is news
        const byComputer = step.by_clock || step.index === this.autoScoredAt;
        if (byComputer) {
          tell(
            bonus > 0
              ? t("The computer scores {points} in {box} for {name}, and a bonus of {bonus}", params)
              : t("The computer scores {points} in {box} for {name}", params),
          );
        } else {
          tell(
            bonus > 0
              ? t("{name} scores {points} in {box}, and a bonus of {bonus}", params)
              : t("{name} scores {points} in {box}", params),
          );
        }
      }
      return;
    }
    if (view.is_over || !this.mine) return;
    const name = this.controller.seatName(view.current_player);
    if (view.to_roll) {
      say(this.controller.hotSeat ? t("{name}, roll the dice", { name }) : t("Roll the dice"));
    } else if (view.table.must_sacrifice) {
      // as soon as the last roll has landed (the table is then ready), not after the news of the keep
      if (this.interactive) this.controller.warn(this.words.mustSacrifice);
    } else if (view.must_score) {
      say(this.words.lastRoll);
    } else {
      say(this.words.holdOrChoose);
    }
  }

  // -- the player's gestures --------------------------------------------------------

  toggle(index) {
    const die = this.dice[index];
    if (!isUsable(die)) {
      this.controller.explain(die.dataset.reason ?? null);
      return;
    }
    if (this.holding.has(index)) this.holding.delete(index);
    else this.holding.add(index);
    this.render(this.view, null);
  }

  select(box, seat) {
    const legal = this.view.table.options.some((option) => option.box === box);
    if (!this.interactive || seat !== this.view.current_player || !legal) return;
    this.selected = this.selected === box ? null : box;
    if (this.selected === null) this.armCountdown(); // nothing chosen any more: the computer may score again
    else this.stopCountdown();
    this.drawSheet(this.view);
    this.drawButtons();
  }

  roll() {
    this.controller.send(
      this.view.to_roll ? { type: "roll" } : { type: "keep", held: [...this.holding].sort() },
    );
  }

  validate() {
    this.controller.send({ type: "score", box: this.selected });
  }

  key(event) {
    if (event.target.closest("input, select, dialog, textarea") || event.ctrlKey || event.metaKey || event.altKey) return;
    if (/^[1-5]$/.test(event.key)) this.toggle(Number(event.key) - 1);
    else if (event.key === "r" || event.key === "R") this.rollButton.click();
    else if (event.key === "Enter" && this.selected !== null) this.validateButton.click();
    else return;
    event.preventDefault();
  }

  // -- hints ----------------------------------------------------------------------------

  async showHints() {
    if (!this.hints.hidden) {
      this.hideHints();
      return;
    }
    const hint = await this.controller.fetchHint();
    if (hint === null) return;
    const title = document.createElement("p");
    title.className = "hints-title";
    title.textContent = t("Best choices, with the expected final total");
    const list = document.createElement("ol");
    for (const option of hint.options) {
      const item = document.createElement("li");
      const choice = document.createElement("button");
      choice.type = "button";
      choice.className = "hint";
      const expected = decimalText(option.value);
      const points = option.points + option.bonus;
      if (option.kind === "score") {
        choice.textContent = tn("{box}: {points} point → {expected}", "{box}: {points} points → {expected}", points, {
          box: boxName(this.game, option.box),
          points,
          expected,
        });
      } else if (option.keep.length > 0) {
        choice.textContent = t("Keep {dice} and roll → {expected}", { dice: option.keep.join(" "), expected });
      } else {
        choice.textContent = t("Reroll all the dice → {expected}", { expected });
      }
      choice.addEventListener("click", () => this.takeHint(option));
      item.append(choice);
      list.append(item);
    }
    this.hints.replaceChildren(title, list);
    this.hints.hidden = false;
  }

  takeHint(option) {
    this.hideHints();
    if (option.kind === "score") {
      this.selected = null;
      this.select(option.box, this.view.current_player);
      return;
    }
    this.holding = positionsOf(option.keep, this.view.table.dice);
    this.render(this.view, null);
  }

  landed() {
    return landed(this.dice);
  }

  hideHints() {
    this.hints.hidden = true;
  }

  // -- turn flow ----------------------------------------------------------------------

  ready() {
    this.interactive = true;
    this.render(this.view, null);
    this.armCountdown();
  }

  // After the last roll, with nothing chosen, the computer scores once the chosen seconds have passed.
  armCountdown() {
    const settings = this.controller.settings;
    if (this.interactive && this.view.must_score && settings.autoScore && this.selected === null) {
      this.startCountdown(settings.autoScoreSeconds);
    }
  }

  idle() {
    this.interactive = false;
    this.stopCountdown();
    this.render(this.view, null);
  }

  settingsChanged() {
    if (!this.interactive) return;
    this.stopCountdown();
    this.ready();
  }

  startCountdown(seconds) {
    this.stopCountdown();
    let left = seconds;
    const show = () => {
      this.countdownElement.dataset.countdown = String(left);
      // short, beside the name in the turn banner, which says whose turn it is
      this.countdownElement.textContent = t("The computer scores in {n}…", { n: left });
    };
    show();
    this.countdownElement.hidden = false;
    this.countdownTimer = setInterval(() => {
      left -= 1;
      if (left > 0) {
        show();
        return;
      }
      this.stopCountdown();
      this.autoScoredAt = this.view.events;
      this.controller.send({ type: "auto" });
    }, 1000);
  }

  stopCountdown() {
    clearInterval(this.countdownTimer);
    this.countdownTimer = null;
    this.countdownElement.hidden = true;
    this.countdownElement.dataset.countdown = "";
  }
}

// The positions of dice showing these values (each position once, in table order).
function positionsOf(values, dice) {
  const free = dice.map((_, index) => index);
  const held = new Set();
  for (const value of values) {
    const position = free.find((index) => dice[index] === value && !held.has(index));
    if (position !== undefined) held.add(position);
  }
  return held;
}

function button(action, label, onClick, explain) {
  const element = document.createElement("button");
  element.type = "button";
  element.dataset.action = action;
  element.textContent = label;
  onUse(element, onClick, explain);
  return element;
}

function text(content) {
  const span = document.createElement("span");
  span.textContent = content;
  return span;
}

function badge(content) {
  const span = document.createElement("span");
  span.className = "badge";
  span.textContent = content;
  return span;
}
