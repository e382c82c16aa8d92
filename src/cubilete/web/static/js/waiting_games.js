// How many games wait for this browser's move, said where a player looks without a notification (no Web
// Push on this device, or none wanted): a line on the home page, the tab's title ("(2) cubilete"), and
// the installed app's icon where the browser has the Badging API.

import { tn } from "./i18n.js";

const title = document.title;

export function showWaiting(count) {
  const line = document.querySelector("[data-waiting-count]");
  line.textContent = tn("{n} game waits for your move", "{n} games wait for your move", count);
  line.hidden = count === 0;
  document.title = count ? `(${count}) ${title}` : title;
  // a browser may refuse a badge (an app not installed): the line and the title said it already
  const badge = count ? navigator.setAppBadge?.(count) : navigator.clearAppBadge?.();
  badge?.catch(() => {});
}
