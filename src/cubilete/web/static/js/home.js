// The home page: choose a game, its rules and the seats (humans or bots), start; resume a game.

import { ApiError, getJson, postJson, rememberTokens } from "./api.js";
import { gameName, lang, levelName, rulesName, startPage, t, tn } from "./i18n.js";

startPage();

const form = document.querySelector("[data-new-game]");
const seatList = document.querySelector("[data-seats]");
const rulesSelect = document.querySelector("[data-rules-select]");
const addSeat = document.querySelector("[data-action='add-seat']");
const errorBox = form.querySelector("[data-error]");

let games = [];
let game = null;
let seats = [];

const defaultName = (kind, number) => (kind === "bot" ? t("Bot {n}", { n: number }) : t("Player {n}", { n: number }));

function defaultSeats(info) {
  const humans = [{ name: defaultName("human", 1), kind: "human", level: null }];
  while (humans.length < info.min_players) {
    humans.push({ name: defaultName("bot", humans.length + 1), kind: "bot", level: info.levels.at(-1) });
  }
  return humans;
}

function chooseGame(id) {
  game = games.find((info) => info.id === id);
  for (const input of form.querySelectorAll("[name='game']")) input.checked = input.value === id;
  rulesSelect.replaceChildren(...game.rules.map((rules) => new Option(rulesName(game.id, rules), rules)));
  seats = seats.length ? seats.slice(0, game.max_players) : defaultSeats(game);
  while (seats.length < game.min_players) {
    seats.push({ name: defaultName("bot", seats.length + 1), kind: "bot", level: game.levels.at(-1) });
  }
  for (const seat of seats) if (seat.kind === "bot" && !game.levels.includes(seat.level)) seat.level = game.levels.at(-1);
  drawSeats();
}

function drawSeats() {
  seatList.replaceChildren(
    ...seats.map((seat, index) => {
      const item = document.createElement("li");
      item.className = "seat-row";
      item.dataset.seat = String(index);
      const name = document.createElement("input");
      name.name = `name-${index}`;
      name.value = seat.name;
      name.maxLength = 24;
      name.required = true;
      name.setAttribute("aria-label", t("Name of player {n}", { n: index + 1 }));
      name.addEventListener("input", () => {
        seat.name = name.value;
      });
      const kind = document.createElement("select");
      kind.name = `kind-${index}`;
      kind.setAttribute("aria-label", t("Who plays seat {n}", { n: index + 1 }));
      kind.append(new Option(t("Human"), "human"), new Option(t("Bot"), "bot"));
      kind.value = seat.kind;
      kind.addEventListener("change", () => {
        const renamed = seat.name === defaultName(seat.kind, index + 1);
        seat.kind = kind.value;
        seat.level = seat.kind === "bot" ? game.levels.at(-1) : null;
        if (renamed) seat.name = defaultName(seat.kind, index + 1);
        drawSeats();
      });
      item.append(name, kind);
      if (seat.kind === "bot") {
        const level = document.createElement("select");
        level.name = `level-${index}`;
        level.className = "level";
        level.setAttribute("aria-label", t("Level of bot {name}", { name: seat.name }));
        level.append(...game.levels.map((id) => new Option(levelName(id), id)));
        level.value = seat.level;
        level.addEventListener("change", () => {
          seat.level = level.value;
        });
        item.append(level);
      }
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "icon-button remove";
      remove.textContent = "✕";
      remove.setAttribute("aria-label", t("Remove player {n}", { n: index + 1 }));
      remove.disabled = seats.length <= game.min_players;
      remove.addEventListener("click", () => {
        seats.splice(index, 1);
        drawSeats();
      });
      item.append(remove);
      return item;
    }),
  );
  addSeat.disabled = seats.length >= game.max_players;
}

function drawGameChoices() {
  const container = form.querySelector("[data-games]");
  container.replaceChildren(
    ...games.map((info) => {
      const label = document.createElement("label");
      label.className = "game-choice";
      label.dataset.game = info.id;
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "game";
      input.value = info.id;
      input.addEventListener("change", () => chooseGame(info.id));
      const title = document.createElement("strong");
      title.textContent = gameName(info.id);
      const players = document.createElement("small");
      players.textContent =
        info.min_players === info.max_players
          ? tn("{n} player", "{n} players", info.min_players)
          : t("{min} to {max} players", { min: info.min_players, max: info.max_players });
      label.append(input, title, players);
      return label;
    }),
  );
}

async function start(event) {
  event.preventDefault();
  errorBox.hidden = true;
  try {
    const created = await postJson("/api/games", {
      game: game.id,
      rules: rulesSelect.value,
      players: seats.map(({ name, kind, level }) => (kind === "bot" ? { name, kind, level } : { name, kind })),
      lang,
    });
    rememberTokens(
      created.id,
      Object.fromEntries(created.seats.filter((seat) => seat.token).map((seat) => [seat.seat, seat.token])),
    );
    location.assign(created.url);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    errorBox.textContent = error.message;
    errorBox.hidden = false;
  }
}

async function drawUnfinished() {
  const unfinished = await getJson("/api/games");
  const list = document.querySelector("[data-unfinished]");
  list.replaceChildren(
    ...unfinished.map((entry) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = entry.url;
      link.dataset.resume = entry.id;
      const title = document.createElement("strong");
      title.textContent = gameName(entry.game);
      const players = document.createElement("span");
      players.textContent = entry.players.join(", ");
      const when = document.createElement("time");
      when.dateTime = entry.updated;
      when.textContent = new Date(entry.updated).toLocaleString(lang, { dateStyle: "short", timeStyle: "short" });
      link.append(title, players, when);
      item.append(link);
      return item;
    }),
  );
  document.querySelector("[data-unfinished-section]").hidden = unfinished.length === 0;
}

function drawRulesLinks() {
  document.querySelector("[data-rules-links]").replaceChildren(
    ...games.map((info) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/rules/${info.id}`;
      link.textContent = gameName(info.id);
      item.append(link);
      return item;
    }),
  );
}

addSeat.addEventListener("click", () => {
  seats.push({ name: defaultName("bot", seats.length + 1), kind: "bot", level: game.levels.at(-1) });
  drawSeats();
});
form.addEventListener("submit", start);

games = (await getJson("/api/games/options")).games;
drawGameChoices();
drawRulesLinks();
chooseGame(games[0].id);
drawUnfinished();
