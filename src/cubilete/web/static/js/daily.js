// The daily challenges (/daily): today's challenge of each game (its rules, the computer players of
// 5000's table, when the day ends, how many have started), a start for this player (ranked with the
// signed-in profile, else unranked under a name), a link to continue a try under way, the day's board,
// and once the try is finished its result (daily_result.js). The day's dice are never drawn here.

import {
  ApiError, getJson, mergeProfileSeats, postJson, rememberTokens, seatTokens, signedInProfile,
} from "./api.js";
import { showResult } from "./daily_result.js";
import { dayBoard } from "./day_board.js";
import { element } from "./dom.js";
import { gameName, levelName, listText, page, rulesName, startPage, t, tn } from "./i18n.js";
import { myName, setMyName } from "./my_player.js";
import { timeLeftText } from "./time_left.js";

// The tries started on this device ({"date:game": {id, ranked}}): an unranked try is known only here.
const TRIES_KEY = "cubilete.daily-tries";
const MINUTE_MS = 60_000;

function startedTries() {
  try {
    return JSON.parse(localStorage.getItem(TRIES_KEY)) ?? {};
  } catch {
    return {};
  }
}

function rememberTry(date, game, id, ranked) {
  // only today's and yesterday's are worth keeping: older days' games are open to anyone anyway
  const kept = Object.entries(startedTries()).filter(([key]) => key >= previousDay(date));
  localStorage.setItem(TRIES_KEY, JSON.stringify({ ...Object.fromEntries(kept), [`${date}:${game}`]: { id, ranked } }));
}

const previousDay = (date) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

function fail(text) {
  const toast = document.querySelector("[data-error]");
  toast.textContent = text;
  toast.hidden = !text;
}

// This player's try at a challenge: the profile's (the server knows it), else one started on this device.
function myTry(challenge) {
  if (challenge.mine) return challenge.mine;
  const local = startedTries()[`${challenge.date}:${challenge.game}`];
  return local ? { id: local.id, ranked: local.ranked, finished: null } : null; // finished: asked of the game
}

// Whether a try this device started is over; null if the game is gone (a game never moved in is swept away).
async function finished(id) {
  try {
    return (await getJson(`/api/games/${id}`)).is_over;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

function opponents(seats) {
  const bots = seats.filter((seat) => seat.kind === "bot");
  if (bots.length === 0) return t("Solo");
  return t("Against {names}", { names: listText(bots.map((bot) => `${bot.name} (${levelName(bot.level)})`)) });
}

function endsIn(endsAt) {
  return t("Ends in {time}", { time: timeLeftText(Math.max(0, Math.round((Date.parse(endsAt) - Date.now()) / 1000))) });
}

async function start(game) {
  fail("");
  const profile = signedInProfile();
  const nameInput = document.querySelector("[data-daily-name]");
  const name = nameInput.value.trim();
  if (!profile && !name) {
    fail(t("Write your name first."));
    nameInput.focus();
    return;
  }
  if (!profile) setMyName(name);
  try {
    const started = await postJson(`/api/daily/${game}/start`, profile ? {} : { name });
    rememberTokens(started.id, Object.fromEntries(
      started.seats.filter((seat) => seat.token).map((seat) => [seat.seat, seat.token]),
    ));
    rememberTry(started.date, game, started.id, started.ranked);
    location.assign(started.url);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === "daily_already_started") await mergeProfileSeats(); // started on another device
    fail(error.message);
    await drawChallenge(page.games.find((entry) => entry.id === game));
  }
}

function action(challenge, mine) {
  const box = element("div", "daily-action");
  if (mine === null) {
    const button = element("button", "primary", signedInProfile() ? t("Start (ranked)") : t("Start (unranked)"));
    button.type = "button";
    button.dataset.action = "start-daily";
    button.dataset.game = challenge.game;
    button.addEventListener("click", () => start(challenge.game));
    box.append(button);
  } else if (!mine.finished) {
    const link = element("a", "button primary", t("Continue"));
    link.href = `/game/${mine.id}`;
    link.dataset.action = "continue-daily";
    box.append(link);
  } else {
    const played = element("p", "played", mine.ranked ? t("Played: ranked") : t("Played: unranked"));
    played.dataset.played = "";
    box.append(played);
  }
  return box;
}

async function drawChallenge({ id: game, unit }) {
  const card = document.querySelector(`[data-challenge='${game}']`);
  const [challenge, board] = await Promise.all([getJson(`/api/daily/${game}`), getJson(`/api/daily/${game}/board`)]);
  let mine = myTry(challenge);
  if (mine && mine.finished === null) mine.finished = await finished(mine.id);
  if (mine?.finished === null) mine = null;
  const ends = element("p", "small", endsIn(challenge.ends_at));
  ends.dataset.endsAt = challenge.ends_at;
  const players = element("p", "small", tn("{n} player so far", "{n} players so far", challenge.players));
  players.dataset.players = String(challenge.players);
  card.replaceChildren(
    element("h2", null, gameName(game)),
    element("p", "small", `${rulesName(game, challenge.rules)} · ${opponents(challenge.seats)}`),
    ends, players, action(challenge, mine),
  );
  if (mine?.finished) {
    const result = element("div", "daily-result");
    card.append(result);
    await showResult(result, {
      game, unit, date: challenge.date, id: mine.id, token: seatTokens(mine.id)[0], ranked: mine.ranked,
    });
  }
  card.append(element("h3", null, t("Today's board")), dayBoard(board, unit));
  return challenge;
}

function showStreak(streak) {
  const line = document.querySelector("[data-streak]");
  line.hidden = !streak;
  if (streak) line.textContent = tn("Streak: {n} day in a row", "Streak: {n} days in a row", streak);
}

startPage();
document.title = `${t("Daily dice")} · cubilete`;
document.querySelector("[data-unranked]").hidden = Boolean(signedInProfile());
document.querySelector("[data-daily-name]").value = myName();
document.querySelector("[data-challenges]").replaceChildren(...page.games.map(({ id }) => {
  const card = element("section", "card challenge");
  card.dataset.challenge = id;
  card.append(element("h2", null, gameName(id)));
  return card;
}));
await mergeProfileSeats(); // a try started on another device of the profile: its seat's token, here too
Promise.all(page.games.map(drawChallenge))
  .then((challenges) => showStreak(challenges[0]?.streak))
  .catch((error) => fail(error instanceof ApiError ? error.message : String(error)));
setInterval(() => {
  for (const line of document.querySelectorAll("[data-ends-at]")) line.textContent = endsIn(line.dataset.endsAt);
}, MINUTE_MS);
