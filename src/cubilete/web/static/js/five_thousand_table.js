// 5000: every player's score and whether they are in the game, the turn's points, the last roll
// with its scoring dice, roll and bank (bank disabled with the reason when a roll is forced), and
// what the last turn did: a bust, a bank, a knock-out, a gift, a win; and hints: each option with
// its chance to win.

import { isUsable, onUse, setUsable } from "./controls.js";
import { landed, makeTray, showDie } from "./dice.js";
import { forgetHeld, rememberHeld, recallHeld } from "./held_dice.js";
import { listText, numberText, t, tn } from "./i18n.js";
import { sentence } from "./messages.js";
import { chanceText, optionText } from "./options.js";
import { seatName } from "./profile_link.js";

export class FiveThousandTable {
  constructor(root, controller, view) {
    this.controller = controller;
    this.view = view;
    this.interactive = false;
    this.choosing = new Set(); // the dice tapped to set aside (free set-aside)
    this.choosingAt = null; // the event index the choice was last remembered at
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
      name.append(seatName(seat));
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
      return { item, name, status, score, bar: bar.firstChild };
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
    const explain = (reason) => this.controller.explain(reason);
    this.hintButton = makeButton("hint", () => this.showHints(), explain);
    this.hintButton.textContent = t("Hint");
    this.hintButton.classList.add("secondary");
    this.rollButton = makeButton("roll", () => this.act({ type: "roll" }), explain);
    this.bankButton = makeButton("bank", () => this.act({ type: "bank" }), explain);
    this.setAsideButton = makeButton(
      "set-aside",
      () => this.act({ type: "set_aside", held: [...this.choosing].sort() }),
      explain,
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

  // The seats changed (a seat taken under a new name, or by a profile): the scoreboard says who plays each row.
  seatsChanged(seats) {
    this.rows.forEach((row, index) => {
      row.name.replaceChildren(seatName(seats[index]));
    });
  }

  // The seats whose players are away (offline, or invited and not come yet): their names say so (`labels`, by seat).
  markAway(labels) {
    this.rows.forEach(({ name }, seat) => {
      if (labels.has(seat)) name.dataset.away = labels.get(seat);
      else delete name.dataset.away;
    });
  }

  // Where the seat's name is shown (a reaction's bubble points at it).
  seatHead(seat) {
    return this.rows[seat].name;
  }

  get mine() {
    const seat = this.view.current_player;
    return !this.view.is_over && !this.controller.isBot(seat) && this.controller.tokenFor(seat) !== null;
  }

  render(view, step) {
    this.view = view;
    const table = view.table;
    if (view.is_over) forgetHeld(this.controller.gameId);
    if (table.phase !== "set_aside") this.choosing.clear();
    else if (this.mine) this.keepChoosing(view);
    this.hideHints();
    const current = view.is_over ? null : view.current_player;
    this.rows.forEach((row, seat) => {
      const score = view.scores[seat];
      row.item.classList.toggle("current", seat === current);
      row.item.dataset.inGame = String(table.in_game[seat]);
      row.status.textContent = table.in_game[seat] ? t("In") : t("Out");
      row.score.textContent = numberText(score);
      row.score.dataset.total = String(score);
      row.bar.style.width = `${Math.min(100, (100 * score) / table.target)}%`;
    });
    this.turnPoints.textContent = numberText(table.turn_points);
    this.turnPoints.dataset.turnPoints = String(table.turn_points);
    const dice = table.dice_left;
    this.diceLeft.textContent = view.is_over ? "" : tn("One die to roll", "{n} dice to roll", dice);

    const startOfTurn = table.phase === "roll" && table.turn_points === 0;
    const rolled = step?.event.roll !== undefined;
    const choosing = table.phase === "set_aside" && this.interactive;
    const setAsideFirst = t("Set aside scoring dice first");
    const diceReason = this.controller.reasonFor(table.phase === "roll" ? t("Roll the dice first") : t("The scoring dice are set aside: roll again or bank"));
    this.dice.forEach((die, index) => {
      const value = table.last_roll[index] ?? null;
      const scoring = table.scoring.includes(index) && !startOfTurn;
      const chosen = this.choosing.has(index);
      die.hidden = value === null && table.last_roll.length > 0;
      die.classList.toggle("scoring", scoring);
      die.classList.toggle("stale", startOfTurn);
      // the dice tapped to set aside look (and read) unlike the other scoring dice
      die.classList.toggle("chosen", chosen);
      const position = index + 1;
      const label =
        value === null
          ? null
          : chosen
            ? t("Die {n}: {value}, chosen to set aside", { n: position, value })
            : scoring && table.phase === "set_aside"
              ? t("Die {n}: {value}, scores", { n: position, value })
              : null;
      showDie(die, value, { held: chosen, rolled, enabled: choosing, reason: diceReason, label });
    });

    this.rollButton.textContent = tn("Roll one die", "Roll {n} dice", dice);
    this.bankButton.textContent =
      table.turn_points > 0 ? t("Bank {points}", { points: table.turn_points }) : t("Bank");
    setUsable(this.rollButton, this.interactive && table.can_roll, this.controller.reasonFor(setAsideFirst));
    setUsable(
      this.bankButton,
      this.interactive && table.can_bank,
      this.controller.reasonFor(
        table.phase === "roll"
          ? t("Nothing to bank yet: roll the dice")
          : table.phase === "set_aside"
            ? setAsideFirst
            : table.must_roll_reason && sentence(table.must_roll_reason.message),
      ),
    );
    setUsable(
      this.hintButton,
      this.interactive && this.controller.hintsAllowed && table.phase !== "roll",
      this.controller.reasonFor(
        this.controller.hintsAllowed
          ? t("Roll the dice first: a hint is about the dice on the table")
          : t("Hints and win chances are off: this game with friends was started without them."),
      ),
    );
    this.setAsideButton.hidden = table.phase !== "set_aside";
    setUsable(
      this.setAsideButton,
      choosing && this.chosenPoints() !== null,
      this.controller.reasonFor(this.choosing.size === 0 ? t("Tap the scoring dice to set aside") : t("These dice do not score together")),
    );
    this.reason.textContent = this.mine && table.must_roll_reason ? sentence(table.must_roll_reason.message) : "";
    this.describe(view, step);
  }

  // The dice chosen to set aside from this roll: at a new roll, those remembered for it before a reload
  // (or the language switch), else none; remembered at every change.
  keepChoosing(view) {
    const seat = view.current_player;
    if (this.choosingAt !== view.events) {
      this.choosing = recallHeld(this.controller.gameId, seat, view.events, view.table.last_roll.length) ?? new Set();
      this.choosingAt = view.events;
    }
    rememberHeld(this.controller.gameId, seat, view.events, this.choosing);
  }

  // What the dice chosen to set aside add to the turn, or null when they are not a valid choice.
  chosenPoints() {
    const table = this.view.table;
    const values = [...this.choosing].map((index) => table.last_roll[index]).sort();
    const choice = table.set_aside_choices.findIndex(
      (option) => option.length === values.length && option.every((value, i) => value === values[i]),
    );
    return choice < 0 ? null : table.set_aside_points[choice];
  }

  // The last event of the state (a bust, a bank...), else what the player can do now.
  // The last event of the state (a bust, a bank...) as news, told once; then what the player can do now.
  describe(view, step) {
    const table = view.table;
    const event = table.last_event;
    const name = (seat) => this.controller.seatName(seat);
    const tell = (message, tone = "info") => this.controller.tell(message, tone, view.events);
    if (event) {
      const names = listText(event.knocked.map(name));
      const points = event.points;
      const params = { name: name(event.seat), points, target: table.target, names };
      const receiver = event.receiver === null ? null : name(event.receiver);
      let message;
      switch (event.kind) {
        case "bust":
          message =
            points === 0
              ? t("{name} rolls nothing that scores", params)
              : tn(
                  "{name} rolls nothing that scores: the turn's {points} point is lost",
                  "{name} rolls nothing that scores: the turn's {points} points are lost",
                  points,
                  params,
                );
          break;
        case "bank":
          message = t("{name} banks {points}", params);
          break;
        case "knock_out":
          message = t("{name} banks {points} and knocks {names} back to zero", params);
          break;
        case "gift":
          message = tn(
            "{name} would pass {target}: the {points} point goes to {receiver}",
            "{name} would pass {target}: the {points} points go to {receiver}",
            points,
            { ...params, receiver },
          );
          if (event.knocked.length > 0) {
            message += " " + tn("{names} is knocked back to zero", "{names} are knocked back to zero", event.knocked.length, params);
          }
          break;
        case "gift_lost":
          message = tn(
            "{name} would pass {target}: the {points} point is lost",
            "{name} would pass {target}: the {points} points are lost",
            points,
            params,
          );
          break;
        case "hot_dice":
          // the turn goes on with five dice: rolling them is a choice when the points may be banked
          message = table.can_bank
            ? t("All five dice scored: {name} may roll all five again or bank", params)
            : t("All five dice scored: {name} must roll all five again", params);
          break;
        case "win":
          message =
            receiver === null
              ? t("{name} reaches {target} and wins!", params)
              : t("{receiver} reaches {target} with {name}'s gift and wins!", { ...params, receiver });
          break;
      }
      tell(message, event.kind === "bust" || event.kind === "knock_out" ? "warning" : "info");
    } else if (step?.event.roll !== undefined && this.controller.isBot(step.seat)) {
      tell(t("{name} rolls", { name: name(step.seat) }));
    } else if (step?.event.action?.type === "roll" && this.controller.isBot(step.seat)) {
      tell(t("{name} rolls again", { name: name(step.seat) }));
    }
    if (step || !this.mine) return;
    if (table.phase === "roll") {
      this.controller.say(this.controller.hotSeat ? t("{name}, roll the dice", { name: name(view.current_player) }) : t("Roll the dice"));
    } else if (table.phase === "set_aside") {
      const points = this.chosenPoints();
      const dice = [...this.choosing].map((index) => table.last_roll[index]).sort().join(" ");
      this.controller.say(
        this.choosing.size === 0
          ? t("Tap the scoring dice to set aside")
          : points === null
            ? t("These dice do not score together")
            : tn("Set aside {dice}: {points} point", "Set aside {dice}: {points} points", points, { dice, points }),
      );
    } else if (table.must_roll_reason) {
      this.controller.say(t("Roll again"));
    } else {
      this.controller.say(t("Bank your points or roll again"));
    }
  }

  toggle(index) {
    const die = this.dice[index];
    if (!isUsable(die)) {
      this.controller.explain(die.dataset.reason ?? null);
      return;
    }
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

  landed() {
    return landed(this.dice);
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

function makeButton(action, onClick, explain) {
  const element = document.createElement("button");
  element.type = "button";
  element.dataset.action = action;
  onUse(element, onClick, explain);
  return element;
}
