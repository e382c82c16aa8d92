// The game page: loads the game, sends this browser's seats' intentions, and plays back every step
// the server pushes (its own, the bots', other devices') at a watchable pace. Only the seats whose
// tokens this browser holds are played here; the others are followed live.

import { ApiError, getJson, postJson, rememberTokens, seatTokens } from "./api.js";
import { gameName, page, rulesName, startPage, t } from "./i18n.js";
import { followGame } from "./live.js";
import { loadSettings, settingsDialog } from "./settings.js";
import { FiveThousandTable } from "./five_thousand_table.js";
import { SheetTable } from "./sheet_table.js";
import { showGameOver } from "./game_over.js";

// The table class of each game family, by the family id the server's view sends.
const TABLES = { sheet: SheetTable, five_thousand: FiveThousandTable };
const gameId = page.id;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A seat link (#seat=1&token=…) gives this browser that seat; the token leaves the address bar.
function takeSeatFromLink() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.has("seat") && fragment.has("token")) {
    rememberTokens(gameId, { [fragment.get("seat")]: fragment.get("token") });
    history.replaceState(null, "", location.pathname + location.search);
  }
}

class GameController {
  constructor() {
    this.view = null;
    this.received = 0; // events of the latest view received, played back or not
    this.seats = [];
    this.table = null;
    this.busy = false;
    this.skipping = false;
    this.arrivals = Promise.resolve(); // views are played back one after the other, in order
    this.tableElement = document.querySelector("#table");
    this.messageElement = document.querySelector("[data-message]");
    this.connectionElement = document.querySelector("[data-connection]");
    this.skipButton = document.querySelector("[data-action='skip']");
    this.skipButton.addEventListener("click", () => {
      this.skipping = true;
    });
  }

  async start() {
    const view = await getJson(`/api/games/${gameId}`);
    this.seats = view.seats;
    this.received = view.events;
    this.table = new TABLES[view.family](this.tableElement, this, view);
    document.title = `${gameName(view.game)} · cubilete`;
    document.querySelector("[data-game-title]").textContent = gameName(view.game);
    document.querySelector("[data-rules-name]").textContent = rulesName(view.game, view.rules);
    document.querySelector("[data-rules-link]").href = `/rules/${view.game}`;
    this.render(view);
    this.next();
    followGame(
      gameId,
      () => this.received,
      (pushed) => this.receive(pushed),
      (connected) => {
        this.connectionElement.hidden = connected;
      },
    );
  }

  get settings() {
    return loadSettings();
  }

  seatName(seat) {
    return this.seats[seat].name;
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

  // True when this browser plays the seat to move now.
  get myTurn() {
    const view = this.view;
    return !this.busy && !view.is_over && !this.isBot(view.current_player) && this.tokenFor(view.current_player) !== null;
  }

  // Several human seats on this screen: say whose turn it is in the messages.
  get hotSeat() {
    return Object.keys(seatTokens(gameId)).length > 1;
  }

  say(text, tone = "info") {
    this.messageElement.textContent = text;
    this.messageElement.dataset.tone = tone;
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
    this.view = view;
    const banner = document.querySelector("[data-current-player]");
    banner.dataset.currentPlayer = view.is_over ? "" : String(view.current_player);
    banner.textContent = view.is_over
      ? t("Game over")
      : this.isBot(view.current_player)
        ? t("{name} is playing", { name: this.seatName(view.current_player) })
        : t("{name}'s turn", { name: this.seatName(view.current_player) });
    this.table.render(view, step);
  }

  // A view from the server (pushed, or the answer to a request): played back after those before it.
  receive(answer) {
    this.received = Math.max(this.received, answer.events);
    this.arrivals = this.arrivals.then(() => this.absorb(answer)).catch((error) => this.fail(String(error)));
    return this.arrivals;
  }

  async absorb(answer) {
    const known = this.view.events;
    if (answer.events < known || (answer.events === known && answer.rematch === this.view.rematch)) return;
    const steps = (answer.steps ?? []).filter((step) => step.index >= known);
    this.idle(); // the game moved on (maybe by another tab of this seat): nothing to click during the playback
    await this.playBack({ ...answer, steps });
    this.next();
  }

  // Send the current seat's intention; the answer carries every step since the view we had.
  async send(action) {
    if (!this.myTurn) return;
    const seat = this.view.current_player;
    this.busy = true;
    this.idle();
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

  async rematch() {
    const tokens = seatTokens(gameId);
    const [seat, token] = Object.entries(tokens)[0] ?? [null, null];
    try {
      const next = await postJson(`/api/games/${gameId}/rematch`, {
        seat: seat === null ? null : Number(seat),
        token,
      });
      rememberTokens(next.id, tokens);
      location.assign(next.url);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.fail(error.message);
    }
  }
}

// The ⚙ dialog's link for anyone to follow the game.
function showWatchLink(link) {
  link.href = `${location.origin}/game/${gameId}`;
  link.textContent = link.href;
}

startPage();
takeSeatFromLink();
const controller = new GameController();
const openSettings = settingsDialog(document.querySelector("#settings"), () => controller.table?.settingsChanged?.());
document.querySelector("[data-action='settings']").addEventListener("click", () => {
  showWatchLink(document.querySelector("#settings [data-watch-link]"));
  openSettings();
});
controller.start().catch((error) => {
  controller.fail(error instanceof ApiError ? error.message : String(error));
});
