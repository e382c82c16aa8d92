// The page's language: messages from the server's Babel catalog, the switcher, and names by id.

const boot = JSON.parse(document.getElementById("boot").textContent);

export const lang = boot.lang;
export const page = boot.page;

// Numbers as the page's language writes them (CLDR's, as Babel writes them on the server): 48,6 in
// Spanish and Indonesian, 48.6 in English. A number given to a message is written so too.
const wholeNumbers = new Intl.NumberFormat(lang);
const oneDecimal = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
export const numberText = (value) => wholeNumbers.format(value);
export const decimalText = (value) => oneDecimal.format(value);

const shown = (value) => (typeof value === "number" ? numberText(value) : String(value));
const fill = (text, params) =>
  text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? shown(params[name]) : whole));
const entry = (message, context) => boot.messages[context ? `${context}\u0004${message}` : message];

// A message in the page's language, with {name} placeholders filled from params.
export function t(message, params = {}, context = null) {
  const text = entry(message, context);
  return fill(typeof text === "string" ? text : message, params);
}

// A message about n things: the form of n's plural category in the page's language (the
// catalog maps Babel's categories to forms: one, many, other...); params.n is n unless given.
const pluralRules = new Intl.PluralRules(lang);
export function tn(singular, plural, n, params = {}) {
  const forms = entry(singular, null);
  const english = n === 1 ? singular : plural;
  const text = forms && typeof forms === "object" ? forms[pluralRules.select(n)] ?? forms.other ?? english : english;
  return fill(text, { n, ...params });
}

// Names as the language lists them ("Ana, Beto y Carla"): the CLDR list patterns Babel's format_list uses.
const lists = new Intl.ListFormat(lang, { style: "long", type: "conjunction" });
export const listText = (items) => lists.format(items);

// A message in a catalog context (gettext's pgettext, which Babel extracts with its context); where the
// context has no translation, the common message's in the page's language.
export const pgettext = (context, message, params = {}) =>
  t(message, params, entry(message, context) === undefined ? null : context);

export const gameName = (game) => t(game, {}, "game");
// A rule set named by its switches ("entry-750+free-set-aside") names each switch's choice.
export const rulesName = (game, rules) =>
  rules
    .split("+")
    .map((word) => t(word, {}, `rules:${game}`))
    .join(" + ");
export const rulesHelp = (game, rules) => t(rules, {}, `rules-help:${game}`); // one line on what the rule set does
export const levelName = (level) => t(level, {}, "level");
export const levelHelp = (game, level) => t(level, {}, `level-help:${game}`); // one line on how the bot plays
export const boxName = (game, box) => t(box, {}, `box:${game}`);

// A place in a ranking as the language writes it (1.º, ke-1, 1st, 2nd, 3rd, 4th): the language's CLDR
// ordinal category picks the form, "other" being the message without a context.
const ordinalRules = new Intl.PluralRules(lang, { type: "ordinal" });
const ORDINALS = {
  one: (place) => pgettext("ordinal:one", "{place}.", { place }),
  two: (place) => pgettext("ordinal:two", "{place}.", { place }),
  few: (place) => pgettext("ordinal:few", "{place}.", { place }),
  other: (place) => t("{place}.", { place }),
};
export const placeText = (place) => (ORDINALS[ordinalRules.select(place)] ?? ORDINALS.other)(place);

// Fill every [data-i18n] element (and [data-i18n-label] aria-labels) below root.
export function translate(root = document) {
  for (const element of root.querySelectorAll("[data-i18n]")) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll("[data-i18n-label]")) {
    element.setAttribute("aria-label", t(element.dataset.i18nLabel));
  }
}

export function setLanguage(code) {
  document.cookie = `lang=${code}; path=/; max-age=31536000; samesite=lax`;
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  location.replace(url);
}

// The ES / ID / EN buttons of the top bar.
export function languageSwitcher(container) {
  container.replaceChildren();
  for (const { code, name } of boot.languages) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "lang";
    button.dataset.lang = code;
    button.textContent = code.toUpperCase();
    button.setAttribute("aria-pressed", String(code === lang));
    button.setAttribute("aria-label", name);
    button.lang = code;
    button.addEventListener("click", () => code !== lang && setLanguage(code));
    container.append(button);
  }
}

export function startPage() {
  document.documentElement.lang = lang;
  translate();
  const switcher = document.querySelector("[data-languages]");
  if (switcher) languageSwitcher(switcher);
}
