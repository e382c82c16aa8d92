// The game page: loads the game, sends this browser's seats' intentions, and plays back every step
// the server pushes (its own, the bots', other devices') at a watchable pace. Only the seats whose
// tokens this browser holds are played here; the others are followed live. With a turn clock, every
// page counts down to the deadline the server sends, and asks the server to play the turn when it passes.

import {
  ApiError,
  forgetSeat,
  getJson,
  postJson,
  rememberInvites,
  rememberTokens,
  seatInvites,
  seatTokens,
} from "./api.js";
import { gameName, page, rulesName, startPage, t } from "./i18n.js";
import { followGame } from "./live.js";
import { MessageLine } from "./messages.js";
import { loadSettings, settingsDialog } from "./settings.js";
import { FiveThousandTable } from "./five_thousand_table.js";
import { SheetTable } from "./sheet_table.js";
import { showGameOver } from "./game_over.js";
import { takeSeatFromLink } from "./seat_link.js";
import { showGameLinks } from "./game_links.js";
import { LiveBar } from "./live_bar.js";
import { Feel } from "./feel.js";
import { showMySeats } from "./my_seats.js";
import { DAY_SECONDS, timeLeftText } from "./time_left.js";
import { Reactions } from "./reactions.js";
import { renewPush, showPushOptIn } from "./push_opt_in.js";

// The table class of each game family, by the family id the server's view sends.
const TABLES = { sheet: SheetTable, five_thousand: FiveThousandTable };
const gameId = page.id;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const CLOCK_TICK_MS = 250;
const NOTICE_MS = 20_000;

// The turn clock: a countdown to the deadline of the latest view, by the server's time (the view
// says what time it was there); at 0, this page asks the server to play the turn. Every page of the
// game does so (players and spectators): one is accepted, the others refused and ignored. A clock by
// correspondence (days per move) reads in days, hours and minutes, in seconds only in its last minute.
class TurnClock {
  constructor(controller) {
    this.controller = controller;
    this.element = document.querySelector("[data-turn-clock-left]");
    this.clock = null; // { deadline (ms, server time), offset (server minus this browser), events }
    this.askedAt = null;
    this.retryAt = 0;
    setInterval(() => this.tick(), CLOCK_TICK_MS);
  }

  // A view from the server: its clock (if any) is the one to count down while its events are the latest.
  follow(view) {
    if (!view.clock || view.is_over) {
      this.clock = null;
    } else {
      const offset = Date.parse(view.clock.now) - Date.now();
      const { deadline, seconds: allowance } = view.clock;
      this.clock = { deadline: Date.parse(deadline), allowance, offset, events: view.events, seat: view.current_player };
    }
    this.tick();
  }

  tick() {
    const clock = this.clock;
    const controller = this.controller;
    // the clock of the view shown: none while earlier steps play back (a timed-out turn played for Beto)
    if (clock === null || controller.view?.events !== clock.events || controller.isBot(clock.seat)) {
      this.element.hidden = true;
      return;
    }
    const left = clock.deadline - (Date.now() + clock.offset);
    const seconds = Math.max(0, Math.ceil(left / 1000));
    this.element.hidden = false;
    this.element.dataset.secondsLeft = String(seconds);
    const name = controller.seatName(clock.seat);
    const days = clock.allowance >= DAY_SECONDS;
    if (controller.playsAlone(clock.seat)) {
      // her own clock is said to her: nobody else plays on this screen
      this.element.textContent = days
        ? t("Your time: {time}", { time: timeLeftText(seconds) })
        : t("Your time: {seconds} s", { seconds });
    } else {
      this.element.textContent = days
        ? t("Time left for {name}: {time}", { name, time: timeLeftText(seconds) })
        : t("Time left for {name}: {seconds} s", { name, seconds });
    }
    if (left <= 0 && this.askedAt !== clock.events && Date.now() >= this.retryAt) this.ranOut(clock.events);
  }

  async ranOut(events) {
    this.askedAt = events;
    try {
      await this.controller.receive(await postJson(`/api/games/${gameId}/clock`, { at: events }));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === "clock_running" || error.status === 0 || error.status >= 500) {
        // this browser's clock ran ahead of the server's, or the server was out of reach: ask again
        this.retryAt = Date.now() + 1000 * (error.params?.seconds ?? 2);
        this.askedAt = null;
      } // any other refusal: another page was first, and its steps are on their way
    }
  }
}

class GameController {
  constructor() {
    this.view = null;
    this.received = 0; // events of the latest view received, played back or not
    this.seats = [];
    this.table = null;
    this.busy = false; // a request of this browser's seat is on its way
    this.landing = false; // a view is being played back, until its dice have landed
    this.skipping = false;
    this.arrivals = Promise.resolve(); // views are played back one after the other, in order
    this.tableElement = document.querySelector("#table");
    this.messages = new MessageLine(document.querySelector("[data-message]"));
    this.connectionElement = document.querySelector("[data-connection]");
    this.skipButton = document.querySelector("[data-action='skip']");
    this.skipButton.addEventListener("click", () => {
      this.skipping = true;
    });
    this.noticeElement = document.querySelector("[data-notice]");
    this.turnClock = new TurnClock(this);
    this.liveBar = new LiveBar(gameId, this);
    this.feel = new Feel(this);
    this.reactions = new Reactions(this);
  }

  async start() {
    const view = await getJson(`/api/games/${gameId}`);
    this.seats = view.seats;
    this.seatsVersion = view.seats_version;
    this.received = view.events;
    this.hints = view.hints;
    document.body.classList.toggle("daily", view.daily != null); // css/daily.css hides what a daily game has not
    this.table = new TABLES[view.family](this.tableElement, this, view);
    document.title = `${gameName(view.game)} · cubilete`;
    document.querySelector("[data-game-title]").textContent = gameName(view.game);
    const rules = document.querySelector("[data-rules-name]");
    rules.textContent = rules.title = rulesName(view.game, view.rules); // the title: in full where the bar clamps it
    document.querySelector("[data-rules-link]").href = `/rules/${view.game}`;
    this.liveBar.start(view);
    this.reactions.follow(view.seats);
    this.render(view);
    this.turnClock.follow(view);
    this.next();
    followGame(
      gameId,
      () => this.received,
      (pushed) => this.receive(pushed),
      (connected) => {
        this.connectionElement.hidden = connected;
      },
      () => seatTokens(gameId),
      (reaction) => this.reactions.show(reaction),
      (away) => this.showAway({ away, seats: this.seats }),
    );
  }

  get settings() {
    return loadSettings();
  }

  get gameId() {
    return gameId;
  }

  seatName(seat) {
    return this.seats[seat].name;
  }

  // Whether this table has hints and win chances (a game with friends only if its creator allowed them).
  get hintsAllowed() {
    return this.hints !== "off";
  }

  isBot(seat) {
    return this.seats[seat].kind === "bot";
  }

  tokenFor(seat) {
    return seatTokens(gameId)[seat] ?? null;
  }

  // Any seat this browser plays, to prove it may ask something of the game (hints, bots).
  credentials(seat = null) {
    const tokens = seatTokens(gameId);
    const chosen = seat ?? Number(Object.keys(tokens)[0]);
    return { seat: chosen, token: tokens[chosen] };
  }

  // The hint for the dice on the table, or null when it was refused (said as a failure) or the
  // game moved on while it was asked for.
  async fetchHint() {
    const events = this.view.events;
    try {
      const hint = await postJson(`/api/games/${gameId}/hint`, this.credentials(this.view.current_player));
      return events === this.view.events ? hint : null;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.fail(error.message);
      return null;
    }
  }

  // True when this browser plays the seat to move now.
  get myTurn() {
    const view = this.view;
    return !this.busy && !view.is_over && !this.isBot(view.current_player) && this.tokenFor(view.current_player) !== null;
  }

  // Several human seats on this screen: say whose turn it is in the messages.
  get hotSeat() {
    return Object.keys(seatTokens(gameId)).length > 1;
  }

  // Whether this screen plays `seat` and no other: what concerns the seat is said to its player ("you").
  playsAlone(seat) {
    return this.tokenFor(seat) !== null && !this.hotSeat;
  }

  // What to do now: on the message line once the last move there has been read.
  say(text, tone = "info") {
    this.messages.prompt(text, tone);
  }

  // A move (key: the index of the event it tells of, to tell it once): on the message line and in the log.
  tell(text, tone = "info", key = null) {
    this.messages.news(text, tone, key);
  }

  // Why a control cannot be used now.
  explain(text) {
    this.messages.explain(text);
  }

  // A warning about the table now (a sacrifice due), which cannot wait for the news before it.
  warn(text) {
    this.messages.explain(text);
  }

  // Why this screen's player can do nothing now, or null when the table decides (it is their turn).
  blockedReason() {
    const view = this.view;
    if (view.is_over) return t("The game is over");
    const name = this.seatName(view.current_player);
    if (this.isBot(view.current_player)) return t("{name} is playing", { name });
    if (this.tokenFor(view.current_player) === null) return t("It's {name}'s turn", { name });
    if (this.busy) return t("Your move is on its way");
    if (this.landing) return t("The dice are still rolling");
    return null;
  }

  // Why a control of the table is disabled: this page's reason while the table waits, else the table's.
  reasonFor(tableReason) {
    return (this.table.interactive ? null : this.blockedReason()) ?? tableReason;
  }

  // News about the table that the game's own messages would overwrite: shown for a while, and logged.
  notify(text) {
    this.messages.record(text);
    this.noticeElement.textContent = text;
    this.noticeElement.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => {
      this.noticeElement.hidden = true;
    }, NOTICE_MS);
  }

  // A refusal or a lost connection: shown apart from the game's messages, for a few seconds.
  fail(text) {
    const toast = document.querySelector("[data-error]");
    toast.textContent = text;
    toast.hidden = false;
    clearTimeout(this.failTimer);
    this.failTimer = setTimeout(() => {
      toast.hidden = true;
    }, 5000);
  }

  render(view, step = null) {
    const before = this.view;
    this.view = view;
    const banner = document.querySelector("[data-current-player]");
    banner.dataset.currentPlayer = view.is_over ? "" : String(view.current_player);
    banner.textContent = view.is_over
      ? t("Game over")
      : this.isBot(view.current_player)
        ? t("{name} is playing", { name: this.seatName(view.current_player) })
        : t("{name}'s turn", { name: this.seatName(view.current_player) });
    this.table.render(view, step);
    this.liveBar.follow(view);
    this.feel.shown(before, view, step);
  }

  // A view from the server (pushed, or the answer to a request): played back after those before it.
  receive(answer) {
    if (answer.away) this.showAway(answer);
    if (answer.events >= this.received) {
      this.received = answer.events;
      this.turnClock.follow(answer);
    }
    this.arrivals = this.arrivals.then(() => this.absorb(answer)).catch((error) => this.fail(String(error)));
    return this.arrivals;
  }

  async absorb(answer) {
    const known = this.view.events;
    const sameSeats = answer.seats_version === this.seatsVersion;
    if (answer.events < known || (answer.events === known && answer.rematch === this.view.rematch && sameSeats)) {
      return;
    }
    if (!sameSeats && answer.seats_version > this.seatsVersion) this.seatsChanged(answer);
    const steps = (answer.steps ?? []).filter((step) => step.index >= known);
    this.landing = true;
    this.idle(); // the game moved on (maybe by another tab of this seat): nothing to click during the playback
    try {
      await this.playBack({ ...answer, steps });
      await this.table.landed(); // a tap while the dice still roll would be a second roll nobody saw
    } finally {
      this.landing = false;
    }
    const timedOut = steps.find((step) => step.by_clock);
    if (timedOut) {
      this.notify(t("Time ran out for {name}: the computer played their turn", { name: this.seatName(timedOut.seat) }));
    }
    this.next();
  }

  // Seats handed to the computer, left, or joined: everyone is told, and this browser stops playing
  // the seats that are no longer its own.
  seatsChanged(answer) {
    for (const [index, seat] of answer.seats.entries()) {
      const before = this.seats[index];
      if (seat.kind === "bot" && before.kind !== "bot") {
        this.notify(
          seat.left
            ? t("{name} left: the computer plays their seat", { name: seat.name })
            : t("{name} handed their seat to the computer", { name: seat.name }),
        );
        if (this.tokenFor(index) !== null) forgetSeat(gameId, index);
      } else if (before.open && !seat.open && seat.name !== before.name) {
        this.notify(t("{name} joined the game", { name: seat.name }));
      }
    }
    this.seats = answer.seats;
    this.seatsVersion = answer.seats_version;
    this.table.seatsChanged(answer.seats);
    this.reactions.follow(answer.seats);
  }

  // The human seats no page is connected for (pushed by the live socket, in a view or alone): marked on
  // the table; a seat that was here and goes away is told, and so is its coming back (a first arrival is
  // not: the mark goes, and joining has its own notice; nor is a seat handed to the computer). This
  // page's own seats are never away to itself.
  showAway({ away, seats }) {
    const mine = seatTokens(gameId);
    const shown = new Set(away.filter((seat) => !(seat in mine)));
    this.lost ??= new Set();
    for (const [seat, { name, kind }] of seats.entries()) {
      if (this.away && shown.has(seat) && !this.away.has(seat)) {
        this.lost.add(seat);
        this.notify(t("{name} lost the connection", { name }));
      } else if (!shown.has(seat) && this.lost.delete(seat) && kind !== "bot") {
        this.notify(t("{name} is connected", { name }));
      }
    }
    this.away = shown;
    // a friend's seat nobody has taken yet is not offline: its player was invited and has not come
    const labels = new Map([...shown].map((seat) => [seat, seats[seat].unclaimed ? t("invited") : t("offline")]));
    this.table.markAway(labels);
  }

  // Send the current seat's intention; the answer carries every step since the view we had.
  async send(action) {
    if (!this.myTurn) return;
    const seat = this.view.current_player;
    this.busy = true;
    this.idle();
    this.feel.sending(action);
    try {
      const answer = await postJson(`/api/games/${gameId}/actions`, {
        seat,
        token: this.tokenFor(seat),
        at: this.view.events,
        action,
      });
      this.busy = false;
      await this.receive(answer);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.busy = false;
      if (error.status === 409) await this.refresh().catch(() => {});
      this.fail(error.message);
    } finally {
      this.busy = false;
      this.next(); // the answer may have come first by the socket, while this request was busy
    }
  }

  // Show each step in turn: other seats' steps at the chosen pace (skippable), then the game now.
  async playBack(answer) {
    const pace = this.settings.botPaceMs;
    const watched = (step) => this.isBot(step.seat) || this.tokenFor(step.seat) === null;
    this.skipping = false;
    this.skipButton.hidden = pace === 0 || !answer.steps.some(watched);
    for (const step of answer.steps) {
      if (this.skipping) break;
      this.render(step, step);
      if (watched(step) && pace > 0) await sleep(pace);
    }
    this.skipButton.hidden = true;
    this.render(answer);
  }

  refresh() {
    return getJson(`/api/games/${gameId}?since=${this.view.events}`).then((answer) => this.receive(answer));
  }

  // What happens after a render: the end, the bots' turn, another device's turn, or this browser's.
  next() {
    const view = this.view;
    if (this.busy || this.readyAt === view.events) return;
    if (view.is_over) {
      this.idle();
      showGameOver(view, this);
      return;
    }
    if (this.isBot(view.current_player)) {
      this.idle();
      this.runBots();
    } else if (this.tokenFor(view.current_player) === null) {
      this.idle();
      const name = this.seatName(view.current_player);
      this.say(
        Object.keys(seatTokens(gameId)).length === 0
          ? t("You are watching: {name} plays on their device", { name })
          : t("Waiting for {name}, who plays on another device", { name }),
      );
    } else {
      this.readyAt = view.events;
      this.table.ready();
      this.tableElement.dataset.ready = "";
    }
  }

  // Nothing can be done on this screen until the next render (a request, the bots, another browser).
  idle() {
    this.readyAt = null;
    delete this.tableElement.dataset.ready;
    this.table.idle();
  }

  // A browser holding a seat sets the bots going; the others (spectators) see their moves pushed.
  async runBots() {
    if (Object.keys(seatTokens(gameId)).length === 0 || this.botsAsked === this.view.events) return;
    this.botsAsked = this.view.events;
    try {
      await this.receive(await postJson(`/api/games/${gameId}/bots?since=${this.view.events}`, this.credentials()));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.fail(error.message);
      this.botsAsked = null; // the next push or wake-up asks again
    }
  }

  // From ⚙: this browser's seat is played by the computer from now on (leaving: and this page closes).
  async giveUpSeat(seat, leave) {
    try {
      const answer = await postJson(`/api/games/${gameId}/seats/${seat}/${leave ? "leave" : "bot"}`, {
        token: this.tokenFor(seat),
      });
      forgetSeat(gameId, seat);
      if (leave) {
        location.assign("/");
        return;
      }
      await this.receive(answer);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.fail(error.message);
    }
  }

  async rematch() {
    const tokens = seatTokens(gameId);
    const [seat, token] = Object.entries(tokens)[0] ?? [null, null];
    try {
      const next = await postJson(`/api/games/${gameId}/rematch`, {
        seat: seat === null ? null : Number(seat),
        token,
      });
      rememberTokens(next.id, tokens);
      rememberInvites(next.id, seatInvites(gameId)); // the rematch's friends' seats take the same invites
      location.assign(next.url);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.fail(error.message);
    }
  }
}

startPage();
const seatNotice = await takeSeatFromLink(gameId);
const controller = new GameController();
if (seatNotice) controller.notify(seatNotice);
const openSettings = settingsDialog(document.querySelector("#settings"), () => {
  controller.table?.settingsChanged?.();
  controller.liveBar.settingsChanged();
});
document.querySelector("[data-action='settings']").addEventListener("click", () => {
  showGameLinks(document.querySelector("#settings"), controller.view?.game, controller.seats);
  showMySeats(document.querySelector("#settings [data-my-seats]"), document.querySelector("#settings"), controller);
  showPushOptIn(document.querySelector("#settings [data-push-opt-in]"), controller);
  openSettings();
});
controller
  .start()
  .then(() => renewPush(controller))
  .catch((error) => {
    controller.fail(error instanceof ApiError ? error.message : String(error));
  });
