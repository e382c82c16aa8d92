// A day's board of a daily challenge (GET /api/daily/{game}/board), as /daily and /boards draw it: the
// finished ranked tries by mean loss per decision, with the score beside it. It names no dice.

import { element } from "./dom.js";
import { numberText, t } from "./i18n.js";
import { lossText } from "./losses.js";
import { profileUrl } from "./profile_link.js";

// A table of ranked rows: the header's labels and, per row, its cells (text, or a node such as a link).
export function rankedTable(labels, rows, cells) {
  const table = element("table", "board");
  const head = element("tr");
  head.append(...labels.map((label) => element("th", null, label)));
  table.append(element("thead"));
  table.tHead.append(head);
  const body = element("tbody");
  for (const row of rows) {
    const line = element("tr");
    line.dataset.name = row.name;
    line.dataset.rank = String(row.rank);
    line.append(...cells(row).map((cell) => {
      const td = element("td");
      td.append(cell);
      return td;
    }));
    body.append(line);
  }
  table.append(body);
  return table;
}

export function nameLink(name) {
  const link = element("a", null, name);
  link.href = profileUrl(name);
  return link;
}

// The board's rows, or a line saying nobody has finished yet.
export function dayBoard(board, unit) {
  const block = element("div", "day-board");
  block.dataset.dayBoard = board.game;
  if (board.rows.length === 0) {
    block.append(element("p", "small", t("Nobody has finished today's challenge yet.")));
    return block;
  }
  block.append(rankedTable(
    [t("#"), t("Player"), t("Mean loss"), t("Points"), t("Decisions")],
    board.rows,
    (row) => [numberText(row.rank), nameLink(row.name), lossText(row.mean_loss, unit), numberText(row.score),
      numberText(row.decisions)],
  ));
  if (!board.final) block.append(element("p", "small", t("Ranked by mean loss per decision (lower is better), then by points.")));
  return block;
}
