// The vertical scale of a chart of values (the review's, a rating's history).

// Round gridlines around the values: three to five steps of 1, 2 or 5 times a power of ten.
export function niceRange(low, high) {
  const span = Math.max(high - low, 4);
  const magnitude = 10 ** Math.floor(Math.log10(span / 4));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => span / candidate <= 5);
  return [Math.floor(low / step) * step, Math.ceil(high / step) * step, step];
}
