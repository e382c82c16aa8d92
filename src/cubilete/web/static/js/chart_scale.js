// The vertical scale of a chart of values (the review's, a rating's history), and a chart's point.

import { svg } from "./dom.js";

// Round gridlines around the values: three to five steps of 1, 2 or 5 times a power of ten.
export function niceRange(low, high) {
  const span = Math.max(high - low, 4);
  const magnitude = 10 ** Math.floor(Math.log10(span / 4));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => span / candidate <= 5);
  return [Math.floor(low / step) * step, Math.ceil(high / step) * step, step];
}

// A game's point on a chart: a link to its review, named by `label`, with a wider circle to tap.
export function gamePoint(gameId, label, cx, cy) {
  const point = svg("a", { href: `/game/${gameId}/review`, class: "point" });
  point.dataset.game = gameId;
  point.setAttribute("aria-label", label);
  const tooltip = svg("title");
  tooltip.textContent = label;
  point.append(tooltip, svg("circle", { cx, cy, r: 11, class: "hit" }), svg("circle", { cx, cy, r: 4.5, class: "dot" }));
  return point;
}
