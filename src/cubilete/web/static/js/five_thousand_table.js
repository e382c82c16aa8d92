// 5000: every player's score and whether they are in the game, the turn's points, the last roll
// with its scoring dice, roll and bank (bank disabled with the reason when a roll is forced), and
// what the last turn did: a bust, a bank, a knock-out, a gift, a win; and hints: each option with
// its chance to win.

import { makeTray, showDie } from "./dice.js";
import { t, tn } from "./i18n.js";
import { chanceText, optionText } from "./options.js";

export class FiveThousandTable {
  constructor(root, controller, view) {
    this.controller = controller;
    this.view = view;
    this.interactive = false;
    this.choosing = new Set();
    this.hints = root.querySelector("[data-hints]");
    root.classList.add("five-thousand-game");

    const board = root.querySelector("[data-board]");
    this.players = document.createElement("ol");
    this.players.className = "scoreboard";
    this.rows = view.seats.map((seat, index) => {
      const item = document.createElement("li");
      item.dataset.player = String(index);
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = seat.name;
      const status = document.createElement("span");
      status.className = "status-badge";
      const score = document.createElement("span");
      score.className = "score";
      score.dataset.total = "";
      score.dataset.player = String(index);
      const bar = document.createElement("span");
      bar.className = "progress";
      bar.append(document.createElement("span"));
      item.append(name, status, score, bar);
      this.players.append(item);
      return { item, status, score, bar: bar.firstChild };
    });
    const turn = document.createElement("div");
    turn.className = "turn-points";
    const turnLabel = document.createElement("span");
    turnLabel.textContent = t("This turn");
    this.turnPoints = document.createElement("strong");
    this.turnPoints.dataset.turnPoints = "0";
    this.diceLeft = document.createElement("span");
    this.diceLeft.className = "dice-left";
    turn.append(turnLabel, this.turnPoints, this.diceLeft);
    board.replaceChildren(this.players, turn);

    this.dice = makeTray(root.querySelector("[data-dice]"), (index) => this.toggle(index));
    const buttons = root.querySelector("[data-buttons]");
    this.hintButton = makeButton("hint", () => this.showHints());
    this.hintButton.textContent = t("Hint");
    this.hintButton.classList.add("secondary");
    this.rollButton = makeButton("roll", () => this.act({ type: "roll" }));
    this.bankButton = makeButton("bank", () => this.act({ type: "bank" }));
    this.setAsideButton = makeButton("set-aside", () =>
      this.act({ type: "set_aside", held: [...this.choosing].sort() }),
    );
    this.setAsideButton.textContent = t("Set aside");
    this.reason = document.createElement("p");
    this.reason.className = "bank-reason";
    this.reason.id = "bank-reason";
    this.reason.dataset.bankReason = "";
    this.bankButton.setAttribute("aria-describedby", this.reason.id);
    buttons.append(this.hintButton, this.rollButton, this.setAsideButton, this.bankButton);
    buttons.after(this.reason);
  }

  get mine() {
    const seat = this.view.current_player;
    return !this.view.is_over && !this.controller.isBot(seat) && this.controller.tokenFor(seat) !== null;
  }

  render(view, step) {
    this.view = view;
    const table = view.table;
    if (table.phase !== "set_aside") this.choosing.clear();
    this.hideHints();
    const current = view.is_over ? null : view.current_player;
    this.rows.forEach((row, seat) => {
      const score = view.scores[seat];
      row.item.classList.toggle("current", seat === current);
      row.item.dataset.inGame = String(table.in_game[seat]);
      row.status.textContent = table.in_game[seat] ? t("In") : t("Out");
      row.score.textContent = String(score);
      row.score.dataset.total = String(score);
      row.bar.style.width = `${Math.min(100, (100 * score) / table.target)}%`;
    });
    this.turnPoints.textContent = String(table.turn_points);
    this.turnPoints.dataset.turnPoints = String(table.turn_points);
    const dice = table.dice_left;
    this.diceLeft.textContent = view.is_over ? "" : tn("One die to roll", "{n} dice to roll", dice);

    const startOfTurn = table.phase === "roll" && table.turn_points === 0;
    const rolled = step?.event.roll !== undefined;
    const choosing = table.phase === "set_aside" && this.interactive;
    this.dice.forEach((die, index) => {
      const value = table.last_roll[index] ?? null;
      die.hidden = value === null && table.last_roll.length > 0;
      die.classList.toggle("scoring", table.scoring.includes(index) && !startOfTurn);
      die.classList.toggle("stale", startOfTurn);
      showDie(die, value, { held: this.choosing.has(index), rolled, enabled: choosing });
    });

    this.rollButton.textContent = tn("Roll one die", "Roll {n} dice", dice);
    this.bankButton.textContent =
      table.turn_points > 0 ? t("Bank {points}", { points: table.turn_points }) : t("Bank");
    this.rollButton.disabled = !this.interactive || !table.can_roll;
    this.bankButton.disabled = !this.interactive || !table.can_bank;
    this.hintButton.disabled = !this.interactive || !this.controller.hintsAllowed || table.phase === "roll";
    this.setAsideButton.hidden = table.phase !== "set_aside";
    this.setAsideButton.disabled = !choosing || !this.validChoice();
    this.reason.textContent = this.mine && table.must_roll_reason ? table.must_roll_reason.message : "";
    this.describe(view, step);
  }

  validChoice() {
    const values = [...this.choosing].map((index) => this.view.table.last_roll[index]).sort();
    return this.view.table.set_aside_choices.some(
      (choice) => choice.length === values.length && choice.every((value, i) => value === values[i]),
    );
  }

  // The last event of the state (a bust, a bank...), else what the player can do now.
  describe(view, step) {
    const table = view.table;
    const event = table.last_event;
    const name = (seat) => this.controller.seatName(seat);
    if (event) {
      const names = event.knocked.map(name).join(", ");
      const params = { name: name(event.seat), points: event.points, target: table.target, names };
      const receiver = event.receiver === null ? null : name(event.receiver);
      let message;
      switch (event.kind) {
        case "bust":
          message = t("{name} rolls nothing that scores: the turn's {points} points are lost", params);
          break;
        case "bank":
          message = t("{name} banks {points}", params);
          break;
        case "knock_out":
          message = t("{name} banks {points} and knocks {names} back to zero", params);
          break;
        case "gift":
          message = t("{name} would pass {target}: the {points} points go to {receiver}", { ...params, receiver });
          if (names) message += " " + t("{names} knocked back to zero", params);
          break;
        case "gift_lost":
          message = t("{name} would pass {target}: the {points} points are lost", params);
          break;
        case "hot_dice":
          message = t("All five dice scored: {name} rolls all five again", params);
          break;
        case "win":
          message =
            receiver === null
              ? t("{name} reaches {target} and wins!", params)
              : t("{receiver} reaches {target} with {name}'s gift and wins!", { ...params, receiver });
          break;
      }
      this.controller.say(message, event.kind === "bust" || event.kind === "knock_out" ? "warning" : "info");
      return;
    }
    if (step?.event.roll !== undefined && this.controller.isBot(step.seat)) {
      this.controller.say(t("{name} rolls", { name: name(step.seat) }));
      return;
    }
    if (step?.event.action?.type === "roll" && this.controller.isBot(step.seat)) {
      this.controller.say(t("{name} rolls again", { name: name(step.seat) }));
      return;
    }
    if (step || !this.mine) return;
    if (table.phase === "roll") {
      this.controller.say(this.controller.hotSeat ? t("{name}, roll the dice", { name: name(view.current_player) }) : t("Roll the dice"));
    } else if (table.phase === "set_aside") {
      this.controller.say(t("Tap the scoring dice to set aside"));
    } else if (table.must_roll_reason) {
      this.controller.say(t("Roll again"));
    } else {
      this.controller.say(t("Bank your points or roll again"));
    }
  }

  toggle(index) {
    if (!this.interactive || this.view.table.phase !== "set_aside") return;
    if (this.choosing.has(index)) this.choosing.delete(index);
    else this.choosing.add(index);
    this.render(this.view, null);
  }

  act(action) {
    this.controller.send(action);
  }

  // Roll or bank (with free set-aside, each choice of dice), best first, with the chance to win after
  // each; a tap on a set-aside choice picks its dice.
  async showHints() {
    if (this.hintButton.disabled) return;
    if (!this.hints.hidden) {
      this.hideHints();
      return;
    }
    const hint = await this.controller.fetchHint();
    if (hint === null) return;
    const title = document.createElement("p");
    title.className = "hints-title";
    title.textContent = hint.estimate
      ? t("Best choices, with the chance to win (the computer's estimate)")
      : t("Best choices, with the chance to win");
    const list = document.createElement("ol");
    for (const option of hint.options) {
      const item = document.createElement("li");
      const choice = document.createElement(option.kind === "set_aside" ? "button" : "p");
      choice.className = "hint";
      choice.dataset.hint = option.kind;
      choice.textContent = `${optionText(this.view.game, option)} → ${chanceText(option.value)}`;
      if (option.kind === "set_aside") {
        choice.type = "button";
        choice.addEventListener("click", () => this.takeHint(option.keep));
      }
      item.append(choice);
      list.append(item);
    }
    this.hints.replaceChildren(title, list);
    this.hints.hidden = false;
  }

  // Pick the dice showing these values (each position once).
  takeHint(values) {
    const free = [...this.view.table.last_roll.keys()];
    this.choosing = new Set();
    for (const value of values) {
      const position = free.find((index) => this.view.table.last_roll[index] === value && !this.choosing.has(index));
      if (position !== undefined) this.choosing.add(position);
    }
    this.render(this.view, null);
  }

  hideHints() {
    this.hints.hidden = true;
  }

  ready() {
    this.interactive = true;
    this.render(this.view, null);
  }

  idle() {
    this.interactive = false;
    this.render(this.view, null);
  }

}

function makeButton(action, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.dataset.action = action;
  element.addEventListener("click", onClick);
  return element;
}
