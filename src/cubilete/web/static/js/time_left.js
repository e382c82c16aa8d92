// How long a turn clock has left, as the page's language writes it: days and hours, hours and minutes,
// minutes, then seconds in the last minute; never thousands of seconds (a clock by correspondence
// lasts days).

import { t } from "./i18n.js";

export const DAY_SECONDS = 86_400;

export function timeLeftText(seconds) {
  const days = Math.floor(seconds / DAY_SECONDS);
  const hours = Math.floor((seconds % DAY_SECONDS) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return t("{d} d {h} h", { d: days, h: hours });
  if (hours > 0) return t("{h} h {m} min", { h: hours, m: minutes });
  if (minutes > 0) return t("{m} min", { m: minutes });
  return t("{s} s", { s: seconds });
}

// The seconds left on a game view's clock by the server's time (the view says what time it was there).
export const viewSecondsLeft = (view) =>
  Math.max(0, Math.ceil((Date.parse(view.clock.deadline) - Date.parse(view.clock.now)) / 1000));
