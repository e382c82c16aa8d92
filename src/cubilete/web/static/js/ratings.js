// Ratings as the player page and the boards show them: mu ± sigma (openskill's Plackett-Luce, one per
// game family; provisional until sigma settles), the performance from decision loss, and a chart of
// the rating over the player's rated games like the review's (the line at mu, a band of ± sigma).

import { putJson, signedInProfile } from "./api.js";
import { gamePoint, niceRange } from "./chart_scale.js";
import { element, svg } from "./dom.js";
import { decimalText, gameName, lang, numberText, t } from "./i18n.js";

const CHART = { width: 340, height: 180, left: 36, right: 10, top: 10, bottom: 24 };
const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
const shortDay = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short" });

const muSigma = (rating) => t("{mu} ± {sigma}", { mu: decimalText(rating.mu), sigma: decimalText(rating.sigma) });

// A rating's cell: mu ± sigma, and a mark if it is still provisional.
export function ratingText(rating) {
  const cell = element("span", "rating", muSigma(rating));
  if (rating.provisional) {
    const mark = element("span", "provisional", t("provisional"));
    mark.dataset.provisional = "";
    cell.append(" ", mark);
  }
  return cell;
}

function ratingArticle(game, rating, performance) {
  const article = element("article", "rule-set");
  article.dataset.rating = game;
  article.append(element("h3", null, gameName(game)));
  const figures = element("dl", "figures");
  const figure = (key, label, value) => {
    const item = element("div");
    item.dataset.figure = key;
    const shown = element("dd");
    shown.append(value);
    item.append(element("dt", null, label), shown);
    figures.append(item);
  };
  if (rating) {
    figure("rating", t("Rating"), ratingText(rating));
    figure("rated-games", t("Rated games"), numberText(rating.games));
  }
  if (performance) figure("performance", t("Performance"), decimalText(performance.mean));
  article.append(figures);
  return article;
}

// One game's history: a point per rated game at its mu (a link to its review), the band mu ± sigma.
function historyChart(game, entries) {
  const [low, high, step] = niceRange(
    Math.min(...entries.map((entry) => entry.mu - entry.sigma)), Math.max(...entries.map((entry) => entry.mu + entry.sigma)),
  );
  const { width, height, left, right, top, bottom } = CHART;
  const x = (index) =>
    entries.length === 1 ? (left + width - right) / 2 : left + ((width - left - right) * index) / (entries.length - 1);
  const y = (value) => top + ((height - top - bottom) * (high - value)) / (high - low || 1);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", class: "rating-chart" });
  chart.setAttribute("aria-label", t("Rating in {game} over time", { game: gameName(game) }));
  for (let tick = low; tick <= high + step / 2; tick += step) {
    chart.append(svg("line", { x1: left, x2: width - right, y1: y(tick), y2: y(tick), class: "grid" }));
    const label = svg("text", { x: left - 4, y: y(tick) + 4, class: "tick" });
    label.textContent = numberText(tick);
    chart.append(label);
  }
  const edge = (sign) => entries.map((entry, index) => `${x(index).toFixed(1)},${y(entry.mu + sign * entry.sigma).toFixed(1)}`);
  chart.append(svg("polygon", { points: [...edge(1), ...edge(-1).reverse()].join(" "), class: "band" }));
  chart.append(svg("polyline", {
    points: entries.map((entry, index) => `${x(index).toFixed(1)},${y(entry.mu).toFixed(1)}`).join(" "), class: "line",
  }));
  const dates = [entries[0], entries.at(-1)].map((entry) => shortDay.format(new Date(entry.at)));
  dates.slice(0, entries.length).forEach((date, end) => {
    const label = svg("text", {
      x: x(end ? entries.length - 1 : 0), y: height - 6, class: "date",
      "text-anchor": entries.length === 1 ? "middle" : end ? "end" : "start",
    });
    label.textContent = date;
    chart.append(label);
  });
  entries.forEach((entry, index) => {
    const label = `${when.format(new Date(entry.at))} · ${muSigma(entry)}`;
    chart.append(gamePoint(entry.game_id, label, x(index), y(entry.mu)));
  });
  const block = element("div", "rating-history");
  block.dataset.ratingHistory = game;
  block.append(element("h3", null, gameName(game)), chart);
  return block;
}

// "Hide me from the boards": only on the signed-in profile's own page.
function hideSwitch(answer) {
  const row = document.querySelector("[data-hide-row]");
  const own = signedInProfile()?.name?.toLowerCase() === answer.name.toLowerCase();
  row.hidden = !own;
  if (!own) return;
  const box = row.querySelector("[data-hide-from-boards]");
  const note = document.querySelector("[data-hide-note]");
  box.checked = Boolean(answer.hidden_from_boards);
  box.onchange = async () => {
    box.disabled = true;
    try {
      const saved = await putJson("/api/profiles/me/boards", { hidden: box.checked });
      box.checked = saved.hidden_from_boards;
      note.textContent = saved.hidden_from_boards ? t("You are hidden from the boards.") : t("You appear on the boards.");
    } catch (error) {
      box.checked = !box.checked;
      note.textContent = error.message;
    } finally {
      box.disabled = false;
      note.hidden = false;
    }
  };
}

// A profile's ratings, performance and rating history (GET /api/profiles/{name}).
export function showRatings(answer) {
  const ratings = answer.ratings ?? {};
  const performance = answer.performance ?? {};
  const games = [...new Set([...Object.keys(ratings), ...Object.keys(performance)])];
  document.querySelector("[data-ratings]").replaceChildren(
    ...games.map((game) => ratingArticle(game, ratings[game], performance[game])),
  );
  document.querySelector("[data-no-rating]").hidden = games.length > 0;
  hideSwitch(answer);
  document.querySelector("[data-ratings-card]").hidden = games.length === 0 && document.querySelector("[data-hide-row]").hidden;
  const histories = Object.entries(answer.rating_history ?? {}).filter(([, entries]) => entries.length > 0);
  document.querySelector("[data-rating-history]").replaceChildren(
    ...histories.map(([game, entries]) => historyChart(game, entries)),
  );
  document.querySelector("[data-rating-history-card]").hidden = histories.length === 0;
}
