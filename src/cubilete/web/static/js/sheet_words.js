// The sheet's instructions in each game's own words: Penta's sheet has boxes («casillas») and a box that
// scores nothing is sacrificed (seed 000); Generala's has combinations («combinaciones») that players cross
// out («tachar», seed 003). GAME_WORDS is engine/game_words.py's table for the browser: a game's catalog
// context and the messages it words its own way there (the same English messages, gettext's pgettext);
// a game not named, or a message it does not name, takes the common words.

import { pgettext, t } from "./i18n.js";

const GAME_WORDS = {
  generala: {
    context: "generala",
    messages: new Set([
      "Box",
      "Choose a box first",
      "No rolls left: choose a box",
      "All five dice are held: release one to roll again, or choose a box",
      "No open box scores: one must be sacrificed",
      "Last roll: choose a box",
      "Tap dice to hold them, then roll again or choose a box",
      "After the last roll, score for me in the computer's box",
    ]),
  },
};

// One game's texts: `t` marks a message as i18n.js's t does (Babel extracts its common wording; the
// game's own wordings are extracted from engine/game_words.py).
const gameTexts = (game) => {
  const words = GAME_WORDS[game];
  return { t: (message) => (words?.messages.has(message) ? pgettext(words.context, message) : t(message)) };
};

export function sheetWords(game) {
  const words = gameTexts(game);
  return {
    box: words.t("Box"),
    chooseBoxFirst: words.t("Choose a box first"),
    noRollsLeft: words.t("No rolls left: choose a box"),
    allHeld: words.t("All five dice are held: release one to roll again, or choose a box"),
    mustSacrifice: words.t("No open box scores: one must be sacrificed"),
    lastRoll: words.t("Last roll: choose a box"),
    holdOrChoose: words.t("Tap dice to hold them, then roll again or choose a box"),
    autoScore: words.t("After the last roll, score for me in the computer's box"),
  };
}
