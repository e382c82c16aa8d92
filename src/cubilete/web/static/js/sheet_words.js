// The sheet's instructions in each game's own words. Penta's sheet has boxes («casillas») and a box
// that scores nothing is sacrificed (seed 000); Generala's has combinations («combinaciones») and
// players cross one out («tachar», seed 003). Generala's texts are the same English messages in the
// catalog context "generala" (gettext's pgettext), so each language words them its own way.

import { pgettext, t } from "./i18n.js";

const penta = () => ({
  box: t("Box"),
  chooseBoxFirst: t("Choose a box first"),
  noRollsLeft: t("No rolls left: choose a box"),
  allHeld: t("All five dice are held: release one to roll again, or choose a box"),
  mustSacrifice: t("No open box scores: one must be sacrificed"),
  lastRoll: t("Last roll: choose a box"),
  holdOrChoose: t("Tap dice to hold them, then roll again or choose a box"),
  autoScore: t("After the last roll, score for me in the computer's box"),
});

const generala = () => ({
  box: pgettext("generala", "Box"),
  chooseBoxFirst: pgettext("generala", "Choose a box first"),
  noRollsLeft: pgettext("generala", "No rolls left: choose a box"),
  allHeld: pgettext("generala", "All five dice are held: release one to roll again, or choose a box"),
  mustSacrifice: pgettext("generala", "No open box scores: one must be sacrificed"),
  lastRoll: pgettext("generala", "Last roll: choose a box"),
  holdOrChoose: pgettext("generala", "Tap dice to hold them, then roll again or choose a box"),
  autoScore: pgettext("generala", "After the last roll, score for me in the computer's box"),
});

export const sheetWords = (game) => (game === "generala" ? generala() : penta());
