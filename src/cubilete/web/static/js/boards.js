// The boards (/boards): per game, today's daily board (the seeds' games, which have a daily challenge),
// the all-time accuracy board (mean loss per decision, from a minimum of games) and the ratings (mu ±
// sigma, provisional ones marked). Profiles hidden from boards are left out by the server.

import { ApiError, getJson } from "./api.js";
import { dayBoard, nameLink, rankedTable } from "./day_board.js";
import { element } from "./dom.js";
import { decimalText, gameName, numberText, page, startPage, t, tn } from "./i18n.js";
import { lossText } from "./losses.js";
import { ratingText } from "./ratings.js";

function accuracyBoard(board, unit) {
  const block = element("div", "accuracy-board");
  block.append(element("p", "small", tn(
    "From {n} finished game on; mean loss per decision, lower is better.",
    "From {n} finished games on; mean loss per decision, lower is better.",
    board.min_games,
  )));
  if (board.accuracy.length === 0) {
    block.append(element("p", "small", t("Nobody has played enough games yet.")));
    return block;
  }
  block.append(rankedTable(
    [t("#"), t("Player"), t("Mean loss"), t("Games"), t("Performance")],
    board.accuracy,
    (row) => [numberText(row.rank), nameLink(row.name), lossText(row.mean_loss, unit), numberText(row.games),
      row.performance === null ? "—" : decimalText(row.performance)],
  ));
  return block;
}

function ratingsBoard(board) {
  if (board.ratings.length === 0) return element("p", "small", t("No rating yet: ratings come from finished games between profiles."));
  return rankedTable(
    [t("#"), t("Player"), t("Rating"), t("Games")],
    board.ratings,
    (row) => [numberText(row.rank), nameLink(row.name), ratingText(row), numberText(row.games)],
  );
}

async function drawGame({ id: game, unit, daily }) {
  const section = document.querySelector(`[data-boards-game='${game}']`);
  const [today, boards] = await Promise.all([
    daily ? getJson(`/api/daily/${game}/board`) : null, // Yahtzee, Yatzy and Kniffel have no daily challenge
    getJson(`/api/boards/${game}`),
  ]);
  const part = (key, title, content) => {
    const block = element("section", "board-part");
    block.dataset.board = key;
    block.append(element("h3", null, title), content);
    return block;
  };
  section.replaceChildren(
    element("h2", null, gameName(game)),
    ...(daily ? [part("daily", t("Today's challenge"), dayBoard(today, unit))] : []),
    part("accuracy", t("Accuracy"), accuracyBoard(boards, unit)),
    part("ratings", t("Ratings"), ratingsBoard(boards)),
  );
}

startPage();
document.title = `${t("Boards")} · cubilete`;
document.querySelector("[data-game-tabs]").replaceChildren(...page.games.map(({ id }) => {
  const link = element("a", "button secondary", gameName(id));
  link.href = `#board-${id}`;
  return link;
}));
document.querySelector("[data-boards]").replaceChildren(...page.games.map(({ id }) => {
  const section = element("section", "card");
  section.id = `board-${id}`;
  section.dataset.boardsGame = id;
  section.append(element("h2", null, gameName(id)));
  return section;
}));
Promise.all(page.games.map(drawGame)).catch((error) => {
  const toast = document.querySelector("[data-error]");
  toast.textContent = error instanceof ApiError ? error.message : String(error);
  toast.hidden = false;
});
