// The game's feel: the cup shaking and the dice landing (sounds shipped in static/sounds, played
// with Web Audio), a vibration when this phone rolls, and a short celebration for five of a kind
// (a Penta, a Generala), a 5000 and a win. All of it off with one setting (⚙, "feel"); with
// reduced motion nothing moves: feel.css animates only for those who have not asked for less.

import { servidaWin, soloEnd } from "./game_over.js";
import { gameName, t } from "./i18n.js";
import { loadSettings } from "./settings.js";

const SOUNDS = ["shake", "dice", "celebrate"];
const ROLLING_ACTIONS = new Set(["roll", "keep"]); // the actions that throw dice
const ROLL_VIBRATION_MS = 35;
const CELEBRATION_VIBRATION_MS = [60, 50, 60];
const CELEBRATION_MS = 1800;
const SOUND_GAP_MS = 120; // dice landing in a fast playback: one sound, not a din
const CONFETTI = 14;

// The moment worth celebrating in a view drawn after `before` (at `step`), by the view's game family.
const MOMENTS = {
  // five equal dice just rolled: a Penta, a Generala
  sheet: (before, view, step) =>
    step?.event?.roll && new Set(view.table.dice).size === 1 ? celebration("five", gameName(view.game)) : null,
  // a player reached the target: a 5000
  five_thousand: (before, view) =>
    view.scores.some((score, seat) => score === view.table.target && before.scores[seat] !== score)
      ? celebration("target", gameName(view.game))
      : null,
};

function celebration(kind, name) {
  return { kind, label: t("{name}!", { name }) };
}

// The sounds, decoded once on first use: no AudioContext exists while the feel setting is off.
class Sounds {
  constructor() {
    this.context = null;
    this.buffers = null;
    this.playedAt = {};
  }

  play(name) {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return;
    this.context ??= new Context();
    if (this.context.state === "suspended") this.context.resume().catch(() => {});
    this.buffers ??= Object.fromEntries(SOUNDS.map((sound) => [sound, this.load(sound)]));
    const now = performance.now();
    if (now - (this.playedAt[name] ?? -Infinity) < SOUND_GAP_MS) return;
    this.playedAt[name] = now;
    this.buffers[name].then((buffer) => {
      if (buffer === null) return;
      const source = this.context.createBufferSource();
      source.buffer = buffer;
      source.connect(this.context.destination);
      source.start();
    });
  }

  async load(name) {
    try {
      const response = await fetch(`/static/sounds/${name}.wav`);
      return await this.context.decodeAudioData(await response.arrayBuffer());
    } catch {
      return null; // no sound rather than a broken game
    }
  }
}

function restartAnimation(element, className) {
  element.classList.remove(className);
  void element.offsetWidth;
  element.classList.add(className);
}

export class Feel {
  constructor(controller) {
    this.controller = controller;
    this.sounds = new Sounds();
  }

  get on() {
    return loadSettings().feel;
  }

  // This browser sends an action: when it throws dice, the cup shakes (sound, tray, phone).
  sending(action) {
    if (!this.on || !ROLLING_ACTIONS.has(action.type)) return;
    this.sounds.play("shake");
    navigator.vibrate?.(ROLL_VIBRATION_MS);
    const tray = document.querySelector("[data-dice]");
    if (tray) restartAnimation(tray, "feel-shake");
  }

  // A view drawn after `before` (null on the first one): dice that landed, and a celebration.
  shown(before, view, step) {
    if (!this.on || before === null || view.events <= before.events) return;
    if (step?.event?.roll) this.sounds.play("dice");
    const moment = this.won(before, view) ?? MOMENTS[view.family]?.(before, view, step);
    if (moment) this.celebrate(moment);
  }

  // The game just ended with a seat of this browser first (alone: the game's end, with its score).
  won(before, view) {
    if (before.is_over || !view.is_over) return null;
    const winner = view.ranking.findIndex((place, seat) => place === 1 && this.controller.tokenFor(seat) !== null);
    if (winner < 0) return null;
    const nameOf = (seat) => this.controller.seatName(seat);
    const label = soloEnd(view) ?? servidaWin(view, nameOf) ?? t("{name} wins!", { name: nameOf(winner) });
    return { kind: "win", label };
  }

  celebrate({ kind, label }) {
    this.sounds.play("celebrate");
    navigator.vibrate?.(CELEBRATION_VIBRATION_MS);
    document.querySelector("[data-celebration]")?.remove();
    const element = document.createElement("div");
    element.className = "celebration";
    element.dataset.celebration = kind;
    element.setAttribute("aria-hidden", "true"); // a flourish: the messages say what happened
    const text = document.createElement("strong");
    text.textContent = label;
    element.append(text);
    for (let piece = 0; piece < CONFETTI; piece += 1) {
      const confetto = document.createElement("span");
      confetto.className = "confetto";
      confetto.style.setProperty("--turn", String(piece / CONFETTI));
      element.append(confetto);
    }
    document.body.append(element);
    setTimeout(() => element.remove(), CELEBRATION_MS);
  }
}
