// The home page: choose a game, its rules and the seats (on this device, a friend's, or bots), start
// and invite the friends; resume or forget the games this browser plays in; join an open table; the
// player's name on this device and the link to their record. Games by correspondence (days per move)
// are chosen with the turn clock; the games to resume list first those where it is this browser's turn.

import {
  ApiError,
  forgetGame,
  getJson,
  knownGames,
  mergeProfileSeats,
  postJson,
  rememberInvites,
  rememberTokens,
  seatTokens,
} from "./api.js";
import { PASSWORD_REFUSALS, askPasswordIfNeeded, creationPassword, keepPassword } from "./creation_password.js";
import { gameName, lang, levelHelp, levelName, page, rulesHelp, rulesName, startPage, t, tn } from "./i18n.js";
import { lastSeatNames, myName, playerUrl, profileName, rememberSeatNames, setMyName } from "./my_player.js";
import { inviteItem } from "./invite_item.js";
import { drawSwitches } from "./rule_switches.js";
import { friendToPlayWith, redrawGamesWith } from "./profile_panel.js";
import { drawPlayedWith } from "./played_with.js";
import { withConnection } from "./shell.js";
import { timeLeftText, viewSecondsLeft } from "./time_left.js";
import { showWaiting } from "./waiting_games.js";

startPage();

const form = document.querySelector("[data-new-game]");
const seatList = document.querySelector("[data-seats]");
const rulesSelect = document.querySelector("[data-rules-select]");
const rulesHelpLine = document.querySelector("[data-rules-help]");
const switchesBox = document.querySelector("[data-rule-switches]");
const levelsHelp = document.querySelector("[data-levels-help]");
const addSeat = document.querySelector("[data-action='add-player']");
const turnClock = document.querySelector("[data-turn-clock]");
const isPublic = document.querySelector("[data-public]");
const hintsAllowed = document.querySelector("[data-hints-allowed]");
const errorBox = form.querySelector("[data-error]");
const KINDS = ["here", "friend", "bot"];
const TURN_CLOCKS = [0, 30, 60, 300, "1d", "3d", "7d"]; // seconds per turn, or days per move
const DAYS = /^(\d)d$/;
const HIDDEN_REFRESH_MS = 300_000; // a tab in the background counts the games waiting this often

let games = [];
let game = null;
let switchedRules = () => ""; // the rule set the game's switches name, if it has any
let seats = [];

// A seat's name until someone writes one: signed in, the first seat on this device is the profile's (the
// server names it so); a person's is the name last written for that seat on this device.
const rememberedNames = lastSeatNames();
function defaultName(kind, number) {
  if (kind === "bot") return t("Bot {n}", { n: number });
  if (kind === "here" && number === 1 && profileName()) return profileName();
  return rememberedNames[number - 1] || t("Player {n}", { n: number });
}
const kindName = { here: () => t("On this device"), friend: () => t("A friend"), bot: () => t("Bot") };

function defaultSeats(info) {
  const humans = [{ name: defaultName("here", 1), kind: "here", level: null }];
  while (humans.length < info.min_players) {
    humans.push({ name: defaultName("bot", humans.length + 1), kind: "bot", level: info.default_level });
  }
  return humans;
}

function chooseGame(id) {
  game = games.find((info) => info.id === id);
  for (const input of form.querySelectorAll("[name='game']")) input.checked = input.value === id;
  rulesSelect.replaceChildren(...game.rules.map((rules) => new Option(rulesName(game.id, rules), rules)));
  explainRules();
  chooseRules();
  seats = seats.length ? seats.slice(0, game.max_players) : defaultSeats(game);
  while (seats.length < game.min_players) {
    seats.push({ name: defaultName("bot", seats.length + 1), kind: "bot", level: game.default_level });
  }
  for (const seat of seats) if (seat.kind === "bot" && !game.levels.includes(seat.level)) seat.level = game.default_level;
  drawSeats();
}

function explainRules() {
  rulesHelpLine.textContent = rulesHelp(game.id, rulesSelect.value);
}

// A game whose rules are set one by one shows its switches instead of the list of rule sets.
function chooseRules(rules = "") {
  switchedRules = drawSwitches(switchesBox, game, rules);
  rulesSelect.closest("[data-rules-field]").hidden = !switchesBox.hidden;
  rulesHelpLine.hidden = !switchesBox.hidden;
}

function drawSeats() {
  seatList.replaceChildren(
    ...seats.map((seat, index) => {
      const item = document.createElement("li");
      item.className = "seat-row";
      item.dataset.seat = String(index);
      item.dataset.playerRow = "";
      const name = document.createElement("input");
      name.dataset.playerName = "";
      name.name = `name-${index}`;
      name.value = seat.name;
      name.maxLength = 24;
      name.required = true;
      name.setAttribute("aria-label", t("Name of player {n}", { n: index + 1 }));
      name.readOnly = Boolean(seat.profile); // the server names a profile's seat with the profile's name
      name.addEventListener("input", () => {
        seat.name = name.value;
      });
      const kind = document.createElement("select");
      kind.name = `kind-${index}`;
      kind.dataset.playerKind = "";
      kind.setAttribute("aria-label", t("Who plays seat {n}", { n: index + 1 }));
      kind.append(...KINDS.map((id) => new Option(kindName[id](), id)));
      kind.value = seat.kind;
      kind.addEventListener("change", () => {
        const renamed = seat.profile || seat.name === defaultName(seat.kind, index + 1);
        seat.kind = kind.value;
        seat.profile = undefined; // a reservation is a friend's seat: another kind is no one's
        seat.level = seat.kind === "bot" ? game.default_level : null;
        if (renamed) seat.name = defaultName(seat.kind, index + 1);
        drawSeats();
      });
      item.append(name, kind);
      if (seat.kind === "bot") {
        const level = document.createElement("select");
        level.name = `level-${index}`;
        level.className = "level";
        level.setAttribute("aria-label", t("Level of bot {name}", { name: seat.name }));
        level.setAttribute("aria-describedby", levelsHelp.id);
        level.append(...game.levels.map((id) => new Option(levelName(id), id)));
        level.value = seat.level;
        level.addEventListener("change", () => {
          seat.level = level.value;
          explainLevels();
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
      if (seat.profile) {
        const reserved = document.createElement("p");
        reserved.className = "small reserved-seat";
        reserved.dataset.reservedNote = "";
        reserved.textContent = t("This seat is reserved for {name}'s profile: no invite is needed, the game is in their games.", { name: seat.profile });
        item.append(reserved);
      }
      return item;
    }),
  );
  addSeat.disabled = seats.length >= game.max_players;
  explainLevels();
  drawTableOptions();
}

// One line on how each level chosen for a bot plays.
function explainLevels() {
  const chosen = [...new Set(seats.filter((seat) => seat.kind === "bot").map((seat) => seat.level))];
  levelsHelp.replaceChildren(
    ...game.levels
      .filter((level) => chosen.includes(level))
      .map((level) => {
        const item = document.createElement("li");
        item.dataset.levelHelp = level;
        item.textContent = `${levelName(level)}: ${levelHelp(game.id, level)}`;
        return item;
      }),
  );
  levelsHelp.hidden = chosen.length === 0;
}

// A turn clock, a listing on the open tables and the choice of hints are for games with friends on
// other devices: without a friend's seat they are off (solo and hot-seat games wait for nobody, and
// always have hints).
function drawTableOptions() {
  const withFriends = seats.some((seat) => seat.kind === "friend");
  turnClock.disabled = !withFriends;
  isPublic.disabled = !withFriends;
  hintsAllowed.closest("[data-hints-allowed-row]").hidden = !withFriends;
  form.querySelector("[data-this-device-only]").hidden = !(withFriends && page.this_device_only);
  if (!withFriends) {
    turnClock.value = "0";
    isPublic.checked = false;
    hintsAllowed.checked = false;
  }
}

// The game choices in their groups, in the API's order: the app's own games, then the classics.
const GROUP_NAMES = { app: () => t("The app's games"), classic: () => t("Classic games") };

function drawGameChoices() {
  const groups = [...new Set(games.map((info) => info.group))];
  form.querySelector("[data-games]").replaceChildren(
    ...groups.map((group) => {
      const box = document.createElement("fieldset");
      box.className = "game-group";
      box.dataset.gameGroup = group;
      const legend = document.createElement("legend");
      legend.textContent = GROUP_NAMES[group]();
      const choices = document.createElement("div");
      choices.className = "game-choices";
      choices.append(...games.filter((info) => info.group === group).map(gameChoice));
      box.append(legend, choices);
      return box;
    }),
  );
}

function gameChoice(info) {
  const label = document.createElement("label");
  label.className = "game-choice";
  label.dataset.game = info.id;
  label.dataset.gameChoice = info.id;
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
}

async function start(event) {
  event.preventDefault();
  errorBox.hidden = true;
  const password = creationPassword();
  try {
    const created = await postJson("/api/games", {
      game: game.id,
      rules: game.switches.length ? switchedRules() : rulesSelect.value,
      players: seats.map(({ name, kind, level, profile }) =>
        kind === "bot" ? { name, kind, level } : { name, kind: "human", invited: kind === "friend", profile: kind === "friend" ? profile : undefined },
      ),
      turn_clock: DAYS.test(turnClock.value) ? turnClock.value : Number(turnClock.value),
      public: isPublic.checked,
      hints_allowed: hintsAllowed.checked,
      lang,
      creation_password: password,
    });
    keepPassword(password);
    const onThisDevice = created.seats.filter((seat) => seats[seat.seat].kind === "here");
    rememberTokens(created.id, Object.fromEntries(onThisDevice.map((seat) => [seat.seat, seat.token])));
    rememberSeatNames(created.seats.map((seat) => (seat.kind === "bot" ? null : seat.name)));
    if (!myName() && onThisDevice.length) setMyName(onThisDevice[0].name);
    const friends = created.seats.filter((seat) => seat.invite); // a seat reserved for a profile has none
    rememberInvites(created.id, Object.fromEntries(friends.map((seat) => [seat.seat, seat.invite])));
    if (friends.length === 0) location.assign(created.url);
    else showInvites(created, friends);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    errorBox.textContent = error.message;
    errorBox.hidden = false;
    if (PASSWORD_REFUSALS.includes(error.code)) askPasswordIfNeeded(true);
  }
}

// After the start: each friend's link to send (copy, share, QR code), the watch link, then the game; on a
// server only this device reaches, the form's warning again beside them.
function showInvites(created, friends) {
  const panel = document.querySelector("[data-invite-panel]");
  panel.querySelector("[data-invites]").replaceChildren(...friends.map((seat) => inviteItem(seat, game.id)));
  panel.querySelector("[data-this-device-only]").hidden = !page.this_device_only;
  const watch = panel.querySelector("[data-watch-link]");
  watch.href = created.watch;
  watch.textContent = created.watch;
  panel.querySelector("[data-action='go-to-game']").href = created.url;
  form.hidden = true;
  panel.hidden = false;
  panel.scrollIntoView();
}

// "Play again" with a profile: this device's seat and theirs, reserved for their profile; from "played
// lately", the game, rules, clock and hints of the last game together too.
function playAgain({ name, game: gameId, rules, turn_clock: clock, hints_allowed: hints }) {
  if (gameId && games.some((info) => info.id === gameId)) {
    seats = [];
    chooseGame(gameId);
    if (game.rules.includes(rules)) rulesSelect.value = rules;
    explainRules();
    chooseRules(rules);
  }
  seats[0] = { name: defaultName("here", 1), kind: "here", level: null };
  seats[1] = { name, kind: "friend", level: null, profile: name };
  drawSeats();
  if (clock !== undefined) turnClock.value = String(clock);
  if (hints !== undefined) hintsAllowed.checked = hints;
  form.scrollIntoView();
}

// Whose turn a game view is at, for the list of games to resume: this browser's (one of its seats is
// to move), with the seconds its clock has left (Infinity without one), or another seat's.
function turnOf(view) {
  const seat = view.seats[view.current_player];
  const mine = seat.kind !== "bot" && String(view.current_player) in seatTokens(view.id);
  return { mine, name: seat.name, left: view.clock ? viewSecondsLeft(view) : Infinity };
}

function turnText(turn) {
  if (!turn.mine) return t("{name}'s turn", { name: turn.name });
  return turn.left === Infinity ? t("Your turn") : t("Your turn · {time} left", { time: timeLeftText(turn.left) });
}

// The games this browser plays in, each read from the server by id; a game that is gone is forgotten.
// First those where it is this browser's turn, the least time left first; then the others.
async function drawUnfinished() {
  const found = await Promise.all(
    knownGames().map((id) =>
      getJson(`/api/games/${id}`).catch((error) => {
        if (error instanceof ApiError && error.status === 404) forgetGame(id);
        return null;
      }),
    ),
  );
  const unfinished = found.filter((view) => view && !view.is_over).map((view) => ({ view, turn: turnOf(view) }));
  unfinished.sort((a, b) => Number(b.turn.mine) - Number(a.turn.mine) || (a.turn.mine ? a.turn.left - b.turn.left : 0));
  const list = document.querySelector("[data-unfinished]");
  list.replaceChildren(
    ...unfinished.map(({ view, turn }) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/game/${view.id}`;
      link.dataset.resume = view.id;
      const title = document.createElement("strong");
      title.textContent = gameName(view.game);
      const players = document.createElement("span");
      players.textContent = view.seats.map((seat) => seat.name).join(", ");
      const status = document.createElement("small");
      status.className = "turn-status";
      status.dataset.turnStatus = turn.mine ? "mine" : "theirs";
      status.textContent = turnText(turn);
      link.append(title, players, status);
      const forget = document.createElement("button");
      forget.type = "button";
      forget.className = "icon-button forget";
      forget.dataset.action = "forget";
      forget.textContent = "✕";
      forget.setAttribute("aria-label", t("Forget this game on this device"));
      forget.addEventListener("click", () => {
        forgetGame(view.id);
        drawUnfinished();
      });
      item.append(link, forget);
      return item;
    }),
  );
  document.querySelector("[data-unfinished-section]").hidden = unfinished.length === 0;
  showWaiting(unfinished.filter(({ turn }) => turn.mine).length);
}

// Public games of this server with a free seat; Join takes the seat under the name written above.
async function drawOpenTables() {
  if (!page.open_tables) return; // the host switched them off
  const tables = await getJson("/api/open-tables").catch(() => []);
  const mine = new Set(knownGames());
  const shown = tables.filter((table) => !mine.has(table.id));
  document.querySelector("[data-open-tables]").replaceChildren(
    ...shown.map((table) => {
      const item = document.createElement("li");
      item.dataset.openTable = table.id;
      const title = document.createElement("strong");
      title.textContent = gameName(table.game);
      const players = document.createElement("span");
      players.textContent = table.players.join(", ");
      const join = document.createElement("button");
      join.type = "button";
      join.className = "primary";
      join.dataset.action = "join";
      join.dataset.seat = String(table.open_seats[0]);
      join.textContent = t("Join");
      join.addEventListener("click", () => joinTable(table.id, table.open_seats[0]));
      item.append(title, players);
      if (table.hints === "agreed") {
        // joining is agreeing: say so before
        const hints = document.createElement("small");
        hints.dataset.tableHints = "";
        hints.textContent = t("With hints and live chances to win");
        item.append(hints);
      }
      item.append(join);
      return item;
    }),
  );
  document.querySelector("[data-open-tables-section]").hidden = shown.length === 0;
}

async function joinTable(gameId, seat) {
  const nameInput = document.querySelector("[data-join-name]");
  const error = document.querySelector("[data-join-error]");
  const name = nameInput.value.trim();
  error.hidden = true;
  if (!name) {
    error.textContent = t("Write your name to join");
    error.hidden = false;
    nameInput.focus();
    return;
  }
  setMyName(name);
  try {
    const joined = await postJson(`/api/games/${gameId}/seats/${seat}/join`, { name });
    rememberTokens(joined.id, { [joined.seat]: joined.token });
    location.assign(joined.url);
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    error.textContent = failure.message;
    error.hidden = false;
    drawOpenTables();
  }
}

// The player's name on this device (the first seat created here, or as changed here) and their record;
// signed in, the profile's name (renamed in the Profile section) and its page.
function drawMyRecord() {
  const input = document.querySelector("[data-my-name]");
  const link = document.querySelector("[data-my-record-link]");
  const show = () => {
    link.hidden = !myName();
    link.href = profileName() ? `/profile/${encodeURIComponent(profileName())}` : playerUrl(myName());
  };
  input.value = myName();
  input.readOnly = Boolean(profileName());
  input.addEventListener("input", () => {
    setMyName(input.value);
    show();
  });
  show();
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

function turnClockName(clock) {
  if (clock === 0) return t("Off");
  if (typeof clock === "string") {
    const days = Number(DAYS.exec(clock)[1]);
    return tn("{n} day per turn", "{n} days per turn", days);
  }
  return clock < 60 ? t("{n} s per turn", { n: clock }) : t("{n} min per turn", { n: clock / 60 });
}

turnClock.replaceChildren(...TURN_CLOCKS.map((clock) => new Option(turnClockName(clock), String(clock))));
addSeat.addEventListener("click", () => {
  seats.push({ name: defaultName("bot", seats.length + 1), kind: "bot", level: game.default_level });
  drawSeats();
});
rulesSelect.addEventListener("change", explainRules);
document.querySelector("[data-public-row]").hidden = !page.open_tables;
askPasswordIfNeeded();
form.addEventListener("submit", start);

games = (await withConnection(() => getJson("/api/games/options"))).games;
drawGameChoices();
drawRulesLinks();
chooseGame(games[0].id);
const friend = friendToPlayWith();
if (friend) playAgain({ name: friend });
drawPlayedWith(playAgain);
mergeProfileSeats().finally(drawUnfinished);
redrawGamesWith(drawUnfinished);
document.querySelector("[data-join-name]").value = myName();
drawMyRecord();
drawOpenTables();
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") return;
  drawOpenTables();
  drawUnfinished(); // turns played meanwhile, on other devices or by the clock
});
setInterval(() => {
  if (document.visibilityState === "hidden") drawUnfinished(); // the tab's title counts the games waiting
}, HIDDEN_REFRESH_MS);
