// A mean loss per decision as the review writes it: points of expected final total (two decimals), or
// chance to win given away (a percentage), the unit of the game's review (web/page_routes.py gives it).

import { lang } from "./i18n.js";

export const WIN_CHANCE = "win_probability";

const twoDecimals = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const chance = new Intl.NumberFormat(lang, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });

export const lossText = (value, unit) =>
  value === null || value === undefined ? "—" : unit === WIN_CHANCE ? chance.format(value) : twoDecimals.format(value);
