// Actions and ranked options in words, for the review and the 5000 hints: an action as the engine
// writes it (with the dice on the table), an option as the server ranks it (web/*_view.py `rank`).

import { boxName, lang, t, tn } from "./i18n.js";

const chance = new Intl.NumberFormat(lang, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
export const chanceText = (value) => chance.format(value);
// Dice in ascending order, as the server ranks an option's kept dice: a decision and its option read alike.
const diceText = (values) => [...values].sort((a, b) => a - b).join(" ");

// An action of a decision (engine JSON) in words, with the dice on the table then: lower case, for
// the middle of a sentence.
export function actionText(game, action, dice) {
  const held = (action.held ?? []).map((index) => dice[index]);
  switch (action.type) {
    case "keep":
      return held.length ? t("keep {dice}", { dice: diceText(held) }) : t("reroll all");
    case "score":
      return t("score {box}", { box: boxName(game, action.box) });
    case "set_aside":
      return t("set aside {dice}", { dice: diceText(held) });
    case "bank":
      return t("bank");
    default:
      return t("roll again");
  }
}

// A ranked option of a position (the family's option JSON) in words.
export function optionText(game, option) {
  switch (option.kind) {
    case "keep":
      return option.keep.length ? t("Keep {dice}", { dice: diceText(option.keep) }) : t("Reroll all");
    case "score":
      return tn("{box}: {points} point", "{box}: {points} points", option.points + option.bonus, {
        box: boxName(game, option.box),
        points: option.points + option.bonus,
      });
    case "set_aside":
      return t("Set aside {dice}", { dice: diceText(option.keep) });
    case "bank":
      return t("Bank {points}", { points: option.points });
    default:
      return t("Roll");
  }
}
