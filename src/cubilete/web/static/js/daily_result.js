// A finished daily try's result on /daily: the text to share (one line of coloured squares per turn, a
// square per decision by its class in the review; the date, the game and the mean loss; no dice), shared
// with the device's share sheet where there is one, else copied; and, for each decision, how the day's
// other players chose at the same position ("62% chose to keep 6 6 6 here; the best was to score Full").

import { ApiError, getJson, postJson } from "./api.js";
import { element } from "./dom.js";
import { gameName, lang, t, tn } from "./i18n.js";
import { lossText } from "./losses.js";
import { actionText } from "./options.js";

const SQUARES = { best: "🟩", inaccuracy: "🟨", mistake: "🟧", blunder: "🟥" };
const CLASS_NAMES = { best: t("Best"), inaccuracy: t("Inaccuracy"), mistake: t("Mistake"), blunder: t("Blunder") };
const share = new Intl.NumberFormat(lang, { style: "percent" });
const day = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });

export function shareText(game, date, decisions, meanLoss, unit) {
  const turns = new Map();
  for (const decision of decisions) turns.set(decision.turn, `${turns.get(decision.turn) ?? ""}${SQUARES[decision.class]}`);
  return [
    t("cubilete daily dice · {game} · {date}", { game: gameName(game), date: day.format(new Date(`${date}T00:00:00Z`)) }),
    ...turns.values(),
    t("Mean loss per decision: {loss}", { loss: lossText(meanLoss, unit) }),
    `${location.origin}/daily`,
  ].join("\n");
}

function shareButton(text) {
  const canShare = typeof navigator.share === "function";
  const button = element("button", "secondary", canShare ? t("Share") : t("Copy"));
  button.type = "button";
  button.dataset.action = "share-result";
  const note = element("span", "small", "");
  note.setAttribute("role", "status");
  button.addEventListener("click", async () => {
    try {
      if (canShare) await navigator.share({ text });
      else {
        await navigator.clipboard.writeText(text);
        note.textContent = t("Copied");
      }
    } catch (error) {
      if (error?.name !== "AbortError") note.textContent = t("The text could not be copied: select it above.");
    }
  });
  const row = element("div", "share-row");
  row.append(button, note);
  return row;
}

const actionKey = (action) => JSON.stringify(action, Object.keys(action).sort());

// The others' choices at a decision: the server counts every ranked try there, this one's too if ranked.
function othersChoices(decision, ranked) {
  const counts = decision.choices.map(({ action, share: part }) => ({ action, count: Math.round(part * decision.others) }));
  const mine = ranked ? counts.find(({ action }) => actionKey(action) === actionKey(decision.chosen)) : null;
  if (mine) mine.count -= 1;
  const others = counts.reduce((sum, { count }) => sum + count, 0);
  return { others, top: others ? counts.reduce((a, b) => (b.count > a.count ? b : a)) : null };
}

// How the others chose at one of this player's decisions, with the dice of this player's review.
function othersLine(game, decision, dice, { others, top }) {
  const words = (action) => actionText(game, action, dice);
  const best = words(decision.best);
  if (!top) return t("Nobody else has reached this position yet; the best was to {best}.", { best });
  return t("{share} chose to {action} here; the best was to {best}.", {
    share: share.format(top.count / others), action: words(top.action), best,
  });
}

function choicesList(game, decisions, reviewed, ranked) {
  const list = element("ol", "daily-choices");
  for (const decision of decisions) {
    const dice = reviewed.get(decision.index)?.dice ?? [];
    const item = element("li");
    item.dataset.decision = String(decision.index);
    item.dataset.class = decision.class;
    const mine = t("Turn {turn}: you chose to {chosen}", { turn: decision.turn, chosen: actionText(game, decision.chosen, dice) });
    const others = othersChoices(decision, ranked);
    const line = othersLine(game, decision, dice, others);
    const count = tn("({n} other player at this position)", "({n} other players at this position)", others.others);
    item.append(
      element("span", "what", `${SQUARES[decision.class]} ${mine} · ${CLASS_NAMES[decision.class]}`),
      element("span", "others small", others.others ? `${line} ${count}` : line),
    );
    list.append(item);
  }
  return list;
}

export async function showResult(container, { game, unit, date, id, token, ranked }) {
  let choices, review;
  try {
    [choices, review] = await Promise.all([
      postJson(`/api/daily/${game}/choices`, { id, seat: 0, token }),
      getJson(`/api/games/${id}/review`),
    ]);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    container.replaceChildren(element("p", "error", error.message));
    return;
  }
  const reviewed = new Map(review.decisions.map((decision) => [decision.index, decision]));
  const me = review.players.find((player) => player.seat === 0);
  const text = shareText(game, date, choices.decisions, me?.mean_loss ?? null, unit);
  const shown = element("pre", "share-text", text);
  shown.dataset.shareText = "";
  const reviewLink = element("a", "review-link", t("Review the game"));
  reviewLink.href = `/game/${id}/review`;
  // a decision per line makes a long list: folded under its title until the player opens it
  const others = element("details", "daily-others");
  others.append(
    element("summary", null, t("How the others chose")),
    element("p", "small", tn("{n} ranked try today", "{n} ranked tries today", choices.players)),
    choicesList(game, choices.decisions, reviewed, ranked),
  );
  container.replaceChildren(element("h3", null, t("Your result")), shown, shareButton(text), reviewLink, others);
}
