// Pages with nothing to play (the rules, a missing game): the language and the switcher.

import { gameName, page, startPage } from "./i18n.js";

startPage();
if (page.game) document.title = `${gameName(page.game)} · cubilete`;
