// The review page: for each human seat its mean and total loss, luck against skill in plain words and
// its costliest decisions; a chart of every seat's value over the game (an inline SVG: each point a
// decision, mistakes and blunders marked); a tap on a point or a decision shows that position with
// its options ranked. Values are expected final totals (Penta, Generala) or chances to win (5000).

import { ApiError, getJson, seatTokens } from "./api.js";
import { niceRange } from "./chart_scale.js";
import { makeTray, showDie } from "./dice.js";
import { element, svg } from "./dom.js";
import { boxName, gameName, lang, page, rulesName, startPage, t, tn } from "./i18n.js";
import { playerUrl } from "./my_player.js";
import { actionText, chanceText, optionText } from "./options.js";

const gameId = page.id;
const COSTLIEST = 3;
const SHOWN_OPTIONS = 5; // the best options of a position, and the one chosen if it is further down
const MARKED = new Set(["mistake", "blunder"]);
const CLASS_NAMES = { best: t("Best"), inaccuracy: t("Inaccuracy"), mistake: t("Mistake"), blunder: t("Blunder") };
const CHART = { width: 340, height: 200, left: 44, right: 8, top: 10, bottom: 10 };

const decimals = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
const points = new Intl.NumberFormat(lang, decimals);
const signedPoints = new Intl.NumberFormat(lang, { ...decimals, signDisplay: "exceptZero" });
const wholePoints = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
const wholePercent = new Intl.NumberFormat(lang, { style: "percent" });
const signedPercent = new Intl.NumberFormat(lang, { ...decimals, style: "percent", signDisplay: "exceptZero" });
const minus = (text) => text.replace("-", "−"); // a true minus sign, as print writes it

// Values and losses in the review's unit: points of expected final total, or chance to win.
class Units {
  constructor(unit) {
    this.winChance = unit === "win_probability";
  }

  amount(value) {
    return this.winChance ? chanceText(value) : points.format(value);
  }

  signed(value) {
    return minus((this.winChance ? signedPercent : signedPoints).format(value));
  }
}

class ReviewPage {
  constructor(review) {
    this.review = review;
    this.units = new Units(review.unit);
    this.mine = seatTokens(gameId);
    this.points = new Map(); // decision index -> its point on the chart
  }

  name(seat) {
    return this.review.seats[seat].name;
  }

  decisionText(decision) {
    return t("Turn {turn}: {chosen} instead of {best}", {
      turn: decision.turn,
      chosen: actionText(this.review.game, decision.chosen, decision.dice),
      best: actionText(this.review.game, decision.best, decision.dice),
    });
  }

  show() {
    const review = this.review;
    document.title = `${t("Review")} · ${gameName(review.game)} · cubilete`;
    document.querySelector("[data-game-title]").textContent =
      `${gameName(review.game)} · ${rulesName(review.game, review.rules)}`;
    document.querySelector("[data-unit]").textContent = this.units.winChance
      ? t("Losses are in chance to win: the best option's chance minus the chance of the option chosen.")
      : t("Losses are in points of expected final total: the best option's minus the option chosen's.");
    document.querySelector("[data-in-progress]").hidden = review.finished;
    document.querySelector("[data-estimate]").hidden = !review.estimate;
    document.querySelector("[data-seats]").replaceChildren(...review.players.map((player) => this.seatSummary(player)));
    document.querySelector("[data-summary]").hidden = false;
    this.drawChart();
  }

  seatSummary(player) {
    const units = this.units;
    const article = element("article", "seat-review");
    article.dataset.seatReview = String(player.seat);
    article.append(element("h3", null, player.name));
    const line = (key, text, className = null) => {
      const paragraph = element("p", className, text);
      paragraph.dataset[key] = "";
      article.append(paragraph);
      return paragraph;
    };
    const losses = line("meanLoss", tn("{n} decision, mean loss {mean}", "{n} decisions, mean loss {mean}", player.decisions, {
      mean: units.amount(player.mean_loss),
    }));
    const total = element("span", null, t("total loss {total}", { total: units.amount(player.total_loss) }));
    total.dataset.totalLoss = "";
    losses.append(" · ", total);
    const handedAt = this.review.seats[player.seat].computer_from_turn;
    if (handedAt != null) {
      // the decisions the computer made for the seat are its own: not counted as its player's
      line("computerFrom", t("From turn {turn}, the computer played for {name}: its decisions are not counted", {
        turn: handedAt,
        name: player.name,
      }));
    }
    const you = this.mine[player.seat] !== undefined;
    // skill is what the decisions lost (at most 0): "cost" already says it is a loss, so it shows without its sign
    const params = { name: player.name, luck: units.signed(player.luck), skill: units.amount(Math.abs(player.skill)) };
    if (this.review.estimate) {
      line("luck", you
        ? t("The dice and the other players gave you {luck}; your decisions cost {skill}", params)
        : t("The dice and the other players gave {name} {luck}; their decisions cost {skill}", params));
    } else {
      line("luck", you
        ? t("The dice gave you {luck}; your decisions cost {skill}", params)
        : t("The dice gave {name} {luck}; their decisions cost {skill}", params));
    }
    if (player.others && /[1-9]/.test(units.signed(player.others))) {
      const others = { name: player.name, others: units.signed(player.others) };
      line("others", you
        ? t("Your opponent's decisions gave you {others}", others)
        : t("The opponent's decisions gave {name} {others}", others));
    }
    line("result", t("From {start} at the start to {final} at the end", {
      start: units.amount(player.start),
      final: units.amount(player.final),
    }), "small");
    if (you) {
      const record = element("a", null, t("Record of {name}", { name: player.name }));
      record.href = playerUrl(player.name);
      record.dataset.recordLink = "";
      line("record", "").append(record);
    }
    const costliest = this.review.decisions
      .filter((decision) => decision.seat === player.seat && decision.loss > 0)
      .sort((a, b) => b.loss - a.loss)
      .slice(0, COSTLIEST);
    if (costliest.length === 0) {
      line("noLoss", player.decisions ? t("Every decision was the best one.") : t("No decisions yet."));
      return article;
    }
    article.append(element("h4", null, t("The costliest decisions")));
    const list = element("ol", "costliest");
    for (const decision of costliest) {
      const item = element("li");
      const choice = element("button", "decision");
      choice.type = "button";
      choice.dataset.decision = String(decision.index);
      choice.dataset.class = decision.class;
      choice.append(
        element("span", "what", this.decisionText(decision)),
        element("span", "loss", `${units.signed(-decision.loss)} · ${CLASS_NAMES[decision.class]}`),
      );
      choice.addEventListener("click", () => this.showPosition(decision.index));
      item.append(choice);
      list.append(item);
    }
    article.append(list);
    return article;
  }

  // Each reviewed seat's value: at the start, after each of its decisions, and now (or at the end).
  series() {
    return this.review.players.map((player) => ({
      seat: player.seat,
      points: [
        { x: 0, y: player.start, decision: null },
        ...this.review.decisions
          .filter((decision) => decision.seat === player.seat)
          .map((decision) => ({ x: decision.index, y: decision.chosen_value, decision })),
        { x: this.review.events, y: player.final, decision: null },
      ],
    }));
  }

  drawChart() {
    const all = this.series();
    const values = all.flatMap((line) => line.points.map((point) => point.y));
    const [low, high, step] = this.units.winChance ? [0, 1, 0.25] : niceRange(Math.min(...values), Math.max(...values));
    const { width, height, left, right, top, bottom } = CHART;
    const x = (event) => left + ((width - left - right) * event) / Math.max(1, this.review.events);
    const y = (value) => top + ((height - top - bottom) * (high - value)) / (high - low || 1);
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "group", class: "value-chart" });
    chart.setAttribute("aria-label", document.querySelector("[data-chart-title]").textContent);
    for (let tick = low; tick <= high + step / 2; tick += step) {
      chart.append(svg("line", { x1: left, x2: width - right, y1: y(tick), y2: y(tick), class: "grid" }));
      const label = svg("text", { x: left - 4, y: y(tick) + 4, class: "tick" });
      label.textContent = (this.units.winChance ? wholePercent : wholePoints).format(tick);
      chart.append(label);
    }
    const [plain, marked] = [[], []];
    for (const line of all) {
      const color = `seat-${line.seat % 6}`;
      chart.append(svg("polyline", {
        points: line.points.map((point) => `${x(point.x).toFixed(1)},${y(point.y).toFixed(1)}`).join(" "),
        class: `line ${color}`,
      }));
      for (const point of line.points) {
        if (point.decision === null) continue;
        const dot = this.chartPoint(point.decision, x(point.x), y(point.y), color);
        (MARKED.has(point.decision.class) ? marked : plain).push(dot);
      }
    }
    chart.append(...plain, ...marked); // the marked points on top, where a finger finds them
    document.querySelector("[data-chart]").replaceChildren(chart);
    document.querySelector("[data-legend]").replaceChildren(
      ...all.map((line) => {
        const item = element("li", `seat-${line.seat % 6}`, this.name(line.seat));
        item.prepend(element("span", "swatch"));
        return item;
      }),
    );
    document.querySelector("[data-chart-card]").hidden = all.length === 0;
  }

  chartPoint(decision, cx, cy, color) {
    const group = svg("g", { class: `point ${color}`, tabindex: 0, role: "button" });
    group.dataset.decision = String(decision.index);
    group.dataset.class = decision.class;
    group.setAttribute("aria-label", `${this.name(decision.seat)} · ${this.decisionText(decision)} · ${CLASS_NAMES[decision.class]}`);
    const marked = MARKED.has(decision.class);
    group.append(svg("circle", { cx, cy, r: 9, class: "hit" }), svg("circle", { cx, cy, r: marked ? 5.5 : 3, class: "dot" }));
    group.addEventListener("click", () => this.showPosition(decision.index));
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        this.showPosition(decision.index);
      }
    });
    this.points.set(decision.index, group);
    return group;
  }

  async showPosition(index) {
    let answer;
    try {
      answer = await getJson(`/api/games/${gameId}/review/${index}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      fail(error.message);
      return;
    }
    for (const [decision, point] of this.points) point.classList.toggle("selected", decision === index);
    const panel = document.querySelector("[data-position]");
    panel.dataset.index = String(index);
    const title = element("h2", null, t("{name}, turn {turn}", { name: this.name(answer.seat), turn: answer.turn }));
    panel.replaceChildren(title, this.positionTable(answer), this.rankedOptions(answer));
    panel.hidden = false;
    panel.scrollIntoView({ block: "start", behavior: "smooth" });
    panel.focus({ preventScroll: true });
  }

  // The dice then (those the seat kept or set aside held), and the sheet or the scores.
  positionTable(answer) {
    const view = answer.position;
    const table = view.table;
    const box = element("div", "position-table");
    const fiveThousand = view.table.last_roll !== undefined;
    const dice = fiveThousand ? table.last_roll : table.dice;
    const held = new Set(answer.chosen.held ?? []);
    const tray = element("div", "dice");
    makeTray(tray, () => {}).forEach((die, index) => {
      die.hidden = dice[index] === undefined;
      die.classList.toggle("scoring", fiveThousand && table.scoring.includes(index));
      showDie(die, dice[index] ?? null, { held: held.has(index) });
    });
    box.append(tray);
    if (fiveThousand) {
      box.append(element("p", "small", `${t("This turn")}: ${table.turn_points} · ${tn("One die to roll", "{n} dice to roll", table.dice_left)}`));
      const scores = element("ol", "review-scores");
      view.scores.forEach((score, seat) => {
        const item = element("li", seat === answer.seat ? "current" : null);
        item.append(element("span", "name", this.name(seat)), element("span", "score", String(score)));
        scores.append(item);
      });
      box.append(scores);
    } else {
      box.append(element("p", "small", tn("{n} roll left", "{n} rolls left", table.rolls_left)));
      const sheet = table.sheets[answer.seat];
      const boxes = element("ul", "mini-sheet");
      for (const { id } of [...table.boxes, { id: null }]) {
        const item = element("li", id === null ? "total" : null);
        const score = id === null ? sheet.total : sheet.boxes[id];
        item.append(
          element("span", null, id === null ? t("TOTAL") : boxName(this.review.game, id)),
          element("strong", null, score === undefined ? "" : String(score)),
        );
        boxes.append(item);
      }
      box.append(boxes);
    }
    return box;
  }

  // A loss as it is shown: nothing when it rounds to nothing.
  lossText(loss) {
    const text = this.units.signed(-loss);
    return /[1-9]/.test(text) ? text : "";
  }

  rankedOptions(answer) {
    const section = element("div", "ranked");
    section.append(element("h3", null, this.units.winChance ? t("Options, with the chance to win") : t("Options, with the expected final total")));
    const list = element("ol", "options");
    const chosen = answer.options.findIndex((option) => option.chosen);
    answer.options.forEach((option, rank) => {
      if (rank >= SHOWN_OPTIONS && rank !== chosen) return;
      const item = element("li");
      item.dataset.rank = String(rank + 1);
      if (option.chosen) item.dataset.chosen = "";
      item.append(
        element("span", "rank", `${rank + 1}.`),
        element("span", "what", optionText(this.review.game, option)),
        element("span", "value", this.units.amount(option.value)),
        element("span", "loss", this.lossText(option.loss)),
      );
      if (option.chosen) item.append(element("span", "chosen-badge", t("Chosen")));
      list.append(item);
    });
    section.append(list);
    return section;
  }
}

function fail(text) {
  const toast = document.querySelector("[data-error]");
  toast.textContent = text;
  toast.hidden = false;
}

startPage();
document.querySelector("[data-back]").href = `/game/${gameId}`;
getJson(`/api/games/${gameId}/review`)
  .then((review) => {
    document.querySelector("[data-chart-title]").textContent =
      review.unit === "win_probability" ? t("Chance to win over the game") : t("Expected final total over the game");
    new ReviewPage(review).show();
  })
  .catch((error) => fail(error instanceof ApiError ? error.message : String(error)));
