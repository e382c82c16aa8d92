// The message line of a game and the log of recent moves under it. What happened (news: a roll, a
// score, a bank, by anyone) is shown at once and logged; what to do next (a prompt) waits until the
// news has been on the line for READ_MS, so that no move is replaced before anyone could read it.
// A control's reason for being disabled is shown at once and stays as long as news does.

import { lang, t } from "./i18n.js";

const READ_MS = 2500;
const LOG_ENTRIES = 30;

// A message written for the middle of a sentence (the server's refusals), as a sentence.
export const sentence = (text) => text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);

export class MessageLine {
  constructor(element) {
    this.element = element;
    this.readableUntil = 0;
    this.promptTimer = null;
    this.told = new Set(); // keys of the news told already (a state is drawn many times)
    this.log = document.createElement("details");
    this.log.className = "turn-log";
    this.log.dataset.turnLog = "";
    const summary = document.createElement("summary");
    summary.textContent = t("Recent moves");
    this.entries = document.createElement("ol");
    this.entries.dataset.turnLogEntries = "";
    this.log.append(summary, this.entries);
    this.log.hidden = true; // until there is a move to list
    element.after(this.log);
  }

  show(text, tone) {
    clearTimeout(this.promptTimer);
    this.element.textContent = text;
    this.element.dataset.tone = tone;
  }

  // What to do next: shown once the news on the line has been readable long enough.
  prompt(text, tone = "info") {
    clearTimeout(this.promptTimer);
    const wait = this.readableUntil - Date.now();
    if (wait > 0) this.promptTimer = setTimeout(() => this.show(text, tone), wait);
    else this.show(text, tone);
  }

  // What happened: shown now and logged, once per key (the event index it tells of) when one is given.
  news(text, tone = "info", key = null) {
    if (key !== null) {
      if (this.told.has(key)) return;
      this.told.add(key);
    }
    this.show(text, tone);
    this.readableUntil = Date.now() + READ_MS;
    this.record(text, key);
  }

  // Into the log only (news shown elsewhere, such as the notices about seats and clocks).
  record(text, key = null) {
    const entry = document.createElement("li");
    entry.textContent = text;
    if (key !== null) entry.dataset.event = String(key);
    this.entries.prepend(entry);
    while (this.entries.children.length > LOG_ENTRIES) this.entries.lastElementChild.remove();
    this.log.hidden = false;
  }

  // What cannot wait for the news on the line: why a control cannot be used now (a tap on it, or its
  // key), a sacrifice due once the last roll has landed. Shown at once, as a warning.
  explain(text) {
    if (!text) return;
    this.show(text, "warning");
    this.readableUntil = Date.now() + READ_MS;
  }
}
