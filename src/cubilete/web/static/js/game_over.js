// The end of a game: the ranking (equal scores share a place; a solo game says its score, with no winner
// and no place; a Generala servida's instant win says so), a daily challenge's way back to /daily, a
// rematch button, a link to the review, the game's record to download (for `cubilete review FILE`) and,
// on a device that holds a seat, a link to that player's record. The dialog closes (× or Escape) to show
// the finished table, which keeps the review link.

import { seatTokens } from "./api.js";
import { listText, numberText, page, placeText, t, tn } from "./i18n.js";
import { myName, playerUrl } from "./my_player.js";
import { seatName } from "./profile_link.js";

// A Generala servida's instant win, said with its winner (`nameOf` names a seat), null otherwise: the
// sheet table's `won_at_once` (docs/rules.md#generala-servida-wins), the roller first whatever the totals.
export const servidaWin = (view, nameOf) => {
  const seat = view.table?.won_at_once ?? null;
  return seat === null ? null : t("Generala servida! {name} wins.", { name: nameOf(seat) });
};

// A solo game's end, its score (null with others: they have a winner and places); from any view of the
// game, a step's included (it has the scores, not the seats).
export const soloEnd = (view) =>
  view.scores.length === 1 ? tn("Game over: {n} point", "Game over: {n} points", view.scores[0]) : null;

export function showGameOver(view, controller) {
  const panel = document.querySelector("[data-game-over]");
  const list = panel.querySelector("[data-ranking]");
  const order = view.seats
    .map((seat, index) => ({ seat, name: seat.name, score: view.scores[index], place: view.ranking[index], index }))
    .sort((a, b) => a.place - b.place || a.index - b.index);
  list.replaceChildren(
    ...order.map(({ seat, score, place, index }) => {
      const item = document.createElement("li");
      item.dataset.place = String(place);
      item.dataset.player = String(index);
      const placeLabel = document.createElement("span");
      placeLabel.className = "place";
      placeLabel.textContent = placeText(place);
      const nameLabel = document.createElement("span");
      nameLabel.className = "name";
      nameLabel.append(seatName(seat));
      const scoreLabel = document.createElement("span");
      scoreLabel.className = "score";
      scoreLabel.textContent = numberText(score);
      item.append(placeLabel, nameLabel, scoreLabel);
      return item;
    }),
  );
  const winners = order.filter(({ place }) => place === 1).map(({ name }) => name);
  panel.querySelector("[data-winner]").textContent =
    servidaWin(view, (seat) => view.seats[seat].name) ??
    (winners.length > 1
      ? t("Shared first place: {names}", { names: listText(winners) })
      : t("{name} wins!", { name: winners[0] }));
  const alone = soloEnd(view);
  const ending = alone ?? t("Game over");
  panel.querySelector("#game-over-title").textContent = ending;
  panel.querySelector("[data-winner]").hidden = alone !== null;
  list.hidden = alone !== null;
  // a daily challenge's result (the share text, the others' choices) is on /daily
  panel.querySelector("[data-daily-back]").hidden = !view.daily;
  const rematch = panel.querySelector("[data-action='rematch']");
  rematch.onclick = () => controller.rematch();
  for (const link of document.querySelectorAll("[data-review-link]")) {
    link.href = `/game/${page.id}/review`;
    link.hidden = false;
  }
  for (const link of document.querySelectorAll("[data-download-link]")) {
    link.href = `/api/games/${page.id}/record`; // served as an attachment, with its file name
    link.hidden = false;
  }
  const held = Object.keys(seatTokens(page.id)).map((seat) => view.seats[Number(seat)]?.name).filter(Boolean);
  const record = panel.querySelector("[data-record-link]");
  record.hidden = held.length === 0;
  if (held.length) record.href = playerUrl(held.find((name) => name === myName()) ?? held[0]);
  const close = panel.querySelector("[data-action='close-game-over']");
  const hide = () => {
    panel.hidden = true;
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (event) => {
    if (event.key === "Escape") hide();
  };
  close.onclick = hide;
  if (panel.hidden) document.addEventListener("keydown", onKey);
  panel.hidden = false;
  close.focus();
  controller.say(ending);
}
