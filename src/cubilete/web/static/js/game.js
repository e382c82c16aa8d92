// The game page: loads the game, sends the player's intentions, plays back the steps the server
// answers (bots at a watchable pace), polls while another browser's seat is to move.

import { ApiError, getJson, postJson, rememberTokens, seatTokens } from "./api.js";
import { gameName, page, rulesName, startPage, t } from "./i18n.js";
import { loadSettings, settingsDialog } from "./settings.js";
import { FiveThousandTable } from "./five_thousand_table.js";
import { SheetTable } from "./sheet_table.js";
import { showGameOver } from "./game_over.js";

// The table class of each game family, by the family id the server's view sends.
const TABLES = { sheet: SheetTable, five_thousand: FiveThousandTable };
const POLL_MS = 1500;
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
    this.seats = [];
    this.table = null;
    this.busy = false;
    this.skipping = false;
    this.pollTimer = null;
    this.tableElement = document.querySelector("#table");
    this.messageElement = document.querySelector("[data-message]");
    this.skipButton = document.querySelector("[data-action='skip']");
    this.skipButton.addEventListener("click", () => {
      this.skipping = true;
    });
  }

  async start() {
    const view = await getJson(`/api/games/${gameId}`);
    this.seats = view.seats;
    this.table = new TABLES[view.family](this.tableElement, this, view);
    document.title = `${gameName(view.game)} · cubilete`;
    document.querySelector("[data-game-title]").textContent = gameName(view.game);
    document.querySelector("[data-rules-name]").textContent = rulesName(view.game, view.rules);
    document.querySelector("[data-rules-link]").href = `/rules/${view.game}`;
    this.render(view);
    this.next();
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
      await this.playBack(answer);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 409) await this.refresh(false).catch(() => {});
      this.fail(error.message);
    } finally {
      this.busy = false;
      this.next();
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

  async refresh(animate = true) {
    const answer = await getJson(`/api/games/${gameId}?since=${this.view.events}`);
    if (animate) await this.playBack(answer);
    else this.render(answer);
  }

  // What happens after a render: the end, the bots' turn, waiting for another browser, or our turn.
  next() {
    clearTimeout(this.pollTimer);
    const view = this.view;
    if (view.is_over) {
      this.idle();
      showGameOver(view, this);
      return;
    }
    if (this.isBot(view.current_player)) {
      this.runBots();
    } else if (this.tokenFor(view.current_player) === null) {
      this.idle();
      this.say(t("Waiting for {name}…", { name: this.seatName(view.current_player) }));
      this.pollTimer = setTimeout(() => this.poll(), POLL_MS);
    } else {
      this.table.ready();
      this.tableElement.dataset.ready = "";
    }
  }

  // Nothing can be done on this screen until the next render (a request, the bots, another browser).
  idle() {
    delete this.tableElement.dataset.ready;
    this.table.idle();
  }

  async runBots() {
    this.busy = true;
    this.idle();
    try {
      await this.playBack(await postJson(`/api/games/${gameId}/bots?since=${this.view.events}`));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.fail(error.message);
      this.pollTimer = setTimeout(() => this.next(), POLL_MS); // try again: the server may be restarting
      return;
    } finally {
      this.busy = false;
    }
    this.next();
  }

  async poll() {
    if (this.busy) return;
    this.busy = true;
    try {
      await this.refresh();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    } finally {
      this.busy = false;
      this.next();
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

function inviteLinks(list) {
  const tokens = seatTokens(gameId);
  list.replaceChildren();
  for (const [seat, token] of Object.entries(tokens)) {
    const item = document.createElement("li");
    const label = document.createElement("label");
    label.textContent = t("Seat {n}", { n: Number(seat) + 1 });
    const link = document.createElement("input");
    link.readOnly = true;
    link.value = `${location.origin}/game/${gameId}#seat=${seat}&token=${token}`;
    link.addEventListener("focus", () => link.select());
    label.append(link);
    item.append(label);
    list.append(item);
  }
}

startPage();
takeSeatFromLink();
const controller = new GameController();
const openSettings = settingsDialog(document.querySelector("#settings"), () => controller.table?.settingsChanged?.());
document.querySelector("[data-action='settings']").addEventListener("click", () => {
  inviteLinks(document.querySelector("[data-invites]"));
  openSettings();
});
controller.start().catch((error) => {
  controller.fail(error instanceof ApiError ? error.message : String(error));
});
