// Dice drawn as dice: a button with nine pip cells, the CSS shows the pips of data-value.

import { setUsable } from "./controls.js";
import { t } from "./i18n.js";

export const DICE = 5;

// The five dice of a table in their tray; a tap on one calls onToggle with its index.
export function makeTray(tray, onToggle) {
  const dice = [];
  for (let index = 0; index < DICE; index += 1) {
    const die = makeDie(index);
    die.addEventListener("click", () => onToggle(index));
    dice.push(die);
    tray.append(die);
  }
  return dice;
}

function makeDie(index) {
  const die = document.createElement("button");
  die.type = "button";
  die.className = "die";
  die.dataset.die = String(index);
  die.dataset.value = "";
  die.setAttribute("aria-pressed", "false");
  for (let cell = 0; cell < 9; cell += 1) {
    const pip = document.createElement("span");
    pip.className = "pip";
    die.append(pip);
  }
  return die;
}

// Show a value (null: no value yet), whether it is held, and animate it when just rolled; a die that
// cannot be tapped says why (reason) when it is.
export function showDie(die, value, { held = false, rolled = false, enabled = false, reason = null, label = null } = {}) {
  die.dataset.value = value == null ? "" : String(value);
  die.setAttribute("aria-pressed", String(held));
  setUsable(die, enabled, reason);
  const position = Number(die.dataset.die) + 1;
  die.setAttribute(
    "aria-label",
    label ??
      (value == null
        ? t("Die {n}", { n: position })
        : held
          ? t("Die {n}: {value}, held", { n: position, value })
          : t("Die {n}: {value}", { n: position, value })),
  );
  if (rolled) {
    die.classList.remove("rolling");
    void die.offsetWidth; // restart the animation
    die.classList.add("rolling");
  }
}

// Resolves once every die has landed (its roll animation is over; at once without animations).
export function landed(dice) {
  const animations = dice.flatMap((die) => die.getAnimations());
  return Promise.all(animations.map((animation) => animation.finished.catch(() => null)));
}
