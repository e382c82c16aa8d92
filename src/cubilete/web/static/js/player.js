// A player's page: their record over the seats this browser holds (the server counts no other game,
// web/records.py): figures per game and rule set, each reviewed game's mean loss per decision over
// time (an inline SVG per game, a point per game that opens its review), and the games, newest first.

import { ApiError, getJson, postJson } from "./api.js";
import { gamePoint } from "./chart_scale.js";
import { element, svg } from "./dom.js";
import { gameName, lang, page, rulesName, startPage, t, tn } from "./i18n.js";
import { sentence } from "./messages.js";
import { lossText, WIN_CHANCE } from "./losses.js";
import { heldSeats, playerUrl } from "./my_player.js";
import { showRatings } from "./ratings.js";

const CHART = { width: 340, height: 180, left: 44, right: 14, top: 12, bottom: 28 };

const oneDecimal = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const tickPoints = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
const tickChance = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat(lang);
const shortDay = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short" });
const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });

const title = (game, rules) => `${gameName(game)} · ${rulesName(game, rules)}`;

function showSummary(record) {
  const games = record.games.length;
  const withOthers = record.rule_sets.reduce((sum, row) => sum + row.with_others, 0);
  const wins = record.rule_sets.reduce((sum, row) => sum + row.wins, 0);
  let headline = games
    ? tn("{n} finished game", "{n} finished games", games)
    : page.profile ? t("No finished game yet.") : t("No finished game under this name on this device yet.");
  if (withOthers) {
    // two counts, each with its own plural form ("1 win in 3 games", "2 wins in 1 game")
    const winsText = tn("{n} win", "{n} wins", wins);
    const gamesText = tn("{n} game", "{n} games", withOthers);
    headline += ` · ${t("{wins} in {games} with others", { wins: winsText, games: gamesText })}`;
  }
  document.querySelector("[data-headline]").textContent = headline;
  const inProgress = document.querySelector("[data-in-progress]");
  inProgress.textContent = tn(
    "{n} game in progress is not counted yet.",
    "{n} games in progress are not counted yet.",
    record.in_progress,
  );
  inProgress.hidden = record.in_progress === 0;
  document.querySelector("[data-summary]").hidden = false;
}

function showRuleSets(rows) {
  document.querySelector("[data-rule-sets]").replaceChildren(
    ...rows.map((row) => {
      const article = element("article", "rule-set");
      article.dataset.ruleSet = `${row.game}:${row.rules}`;
      article.append(element("h3", null, title(row.game, row.rules)));
      const figures = element("dl", "figures");
      const figure = (key, label, value) => {
        const item = element("div");
        item.dataset.figure = key;
        item.append(element("dt", null, label), element("dd", null, value));
        figures.append(item);
      };
      figure("games", t("Games"), String(row.games));
      figure("wins", t("Wins"), row.with_others ? t("{wins} of {games}", { wins: row.wins, games: row.with_others }) : "—");
      figure("mean-score", t("Average"), oneDecimal.format(row.mean_score));
      figure("best-score", t("Best"), whole.format(row.best_score));
      figure("mean-loss", t("Mean loss"), lossText(row.mean_loss, row.unit));
      article.append(figures);
      return article;
    }),
  );
  document.querySelector("[data-rule-sets-card]").hidden = rows.length === 0;
}

// The top of the loss axis: 1, 2 or 5 times a power of ten, at least a small loss (half a point, 1 %).
function axisTop(highest, unit) {
  const least = unit === WIN_CHANCE ? 0.01 : 0.5;
  const wanted = Math.max(highest, least);
  const magnitude = 10 ** Math.floor(Math.log10(wanted));
  return [1, 2, 5, 10].map((factor) => factor * magnitude).find((top) => top >= wanted - 1e-12);
}

// One game's reviewed games in time order: a point per game at its mean loss, linking to its review.
function lossChart(game, entries) {
  const unit = entries[0].unit;
  const top = axisTop(Math.max(...entries.map((entry) => entry.mean_loss)), unit);
  const { width, height, left, right, top: above, bottom } = CHART;
  const x = (index) =>
    entries.length === 1 ? (left + width - right) / 2 : left + ((width - left - right) * index) / (entries.length - 1);
  const y = (value) => above + ((height - above - bottom) * (top - value)) / top;
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", class: "loss-chart" });
  chart.setAttribute("aria-label", t("Mean loss per decision in {game}", { game: gameName(game) }));
  for (const tick of [0, top / 2, top]) {
    chart.append(svg("line", { x1: left, x2: width - right, y1: y(tick), y2: y(tick), class: "grid" }));
    const label = svg("text", { x: left - 5, y: y(tick) + 4, class: "tick" });
    label.textContent = (unit === WIN_CHANCE ? tickChance : tickPoints).format(tick);
    chart.append(label);
  }
  const dates = [entries[0], entries.at(-1)].map((entry) => shortDay.format(new Date(entry.finished)));
  const first = svg("text", { x: x(0), y: height - 6, class: "date", "text-anchor": entries.length === 1 ? "middle" : "start" });
  first.textContent = dates[0];
  chart.append(first);
  if (entries.length > 1) {
    const last = svg("text", { x: x(entries.length - 1), y: height - 6, class: "date", "text-anchor": "end" });
    last.textContent = dates[1];
    chart.append(last);
  }
  chart.append(svg("polyline", {
    points: entries.map((entry, index) => `${x(index).toFixed(1)},${y(entry.mean_loss).toFixed(1)}`).join(" "),
    class: "line",
  }));
  entries.forEach((entry, index) => {
    const label = `${when.format(new Date(entry.finished))} · ${t("mean loss {loss}", { loss: lossText(entry.mean_loss, unit) })}`;
    chart.append(gamePoint(entry.id, label, x(index), y(entry.mean_loss)));
  });
  const block = element("div", "loss-progress");
  block.dataset.progressGame = game;
  block.append(element("h3", null, gameName(game)), chart);
  block.append(element("p", "small", unit === WIN_CHANCE
    ? t("In chance to win given away per decision.")
    : t("In points of expected final total given away per decision.")));
  return block;
}

function showProgress(games) {
  const reviewed = games.filter((entry) => entry.mean_loss !== null);
  const byGame = new Map();
  for (const entry of reviewed) byGame.set(entry.game, [...(byGame.get(entry.game) ?? []), entry]);
  document.querySelector("[data-progress]").replaceChildren(
    ...[...byGame].map(([game, entries]) => lossChart(game, entries)),
  );
  document.querySelector("[data-progress-card]").hidden = reviewed.length === 0;
}

function showGames(games) {
  document.querySelector("[data-record-games]").replaceChildren(
    ...[...games].reverse().map((entry) => {
      const item = element("li");
      const link = element("a", "record-game");
      link.href = `/game/${entry.id}/review`;
      link.dataset.game = entry.id;
      const head = element("span", "head");
      head.append(element("strong", null, title(entry.game, entry.rules)), element("span", "when", when.format(new Date(entry.finished))));
      const result = [t("score {score}", { score: whole.format(entry.score) })];
      if (entry.players > 1) result.push(t("place {place} of {players}", { place: entry.place, players: entry.players }));
      result.push(t("mean loss {loss}", { loss: lossText(entry.mean_loss, entry.unit) }));
      link.append(head, element("span", "result", result.join(" · ")));
      item.append(link);
      return item;
    }),
  );
  document.querySelector("[data-games-card]").hidden = games.length === 0;
}

function showOthers(names) {
  document.querySelector("[data-other-names]").replaceChildren(
    ...names.map((name) => {
      const item = element("li");
      const link = element("a", null, name);
      link.href = playerUrl(name);
      item.append(link);
      return item;
    }),
  );
  document.querySelector("[data-others-card]").hidden = names.length === 0;
}

function showRefused(refused) {
  document.querySelector("[data-refused-title]").textContent = tn(
    "{n} seat kept on this device could not be counted",
    "{n} seats kept on this device could not be counted",
    refused.length,
  );
  document.querySelector("[data-refused]").replaceChildren(...refused.map((refusal) => element("li", null, sentence(refusal.message))));
  document.querySelector("[data-refused-card]").hidden = refused.length === 0;
}

function fail(text) {
  const toast = document.querySelector("[data-error]");
  toast.textContent = text;
  toast.hidden = false;
}

startPage();
document.title = `${page.name} · cubilete`;
document.querySelector("[data-player-title]").textContent = page.name;
document.querySelector("[data-player-name]").textContent = page.name;
// A profile's page (/profile/{name}) shows what the server tells anyone of it, not this device's seats.
// "Play with … again" only where the server would accept the reservation: the signed-in reader has played with it.
function showProfile(name, playedWithYou) {
  document.querySelector("[data-device-note]").hidden = true;
  const playWith = document.querySelector("[data-play-with]");
  playWith.textContent = t("Play with {name} again", { name });
  playWith.href = `/?with=${encodeURIComponent(name)}`;
  playWith.hidden = !playedWithYou;
}

const asked = page.profile
  ? getJson(`/api/profiles/${encodeURIComponent(page.name)}`).then((answer) => {
    showProfile(answer.name, answer.played_with_you);
    showRatings(answer);
    return { in_progress: 0, other_names: [], refused: [], ...answer };
  })
  : postJson("/api/players/record", { name: page.name, seats: heldSeats(page.max_seats) });
asked
  .then((record) => {
    showSummary(record);
    showRuleSets(record.rule_sets);
    showProgress(record.games);
    showGames(record.games);
    showOthers(record.other_names);
    showRefused(record.refused);
  })
  .catch((error) => fail(error instanceof ApiError ? error.message : String(error)));
