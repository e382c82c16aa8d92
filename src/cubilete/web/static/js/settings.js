// Player settings, kept in this browser: the auto-score after the last roll, the bots' pace, the live
// bar and the feel (sounds, vibration and celebrations, js/feel.js).

import { t } from "./i18n.js";

const KEY = "cubilete.settings";
const DEFAULTS = { autoScore: true, autoScoreSeconds: 3, botPaceMs: 700, liveBar: false, feel: true };

export function loadSettings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY)) };
  } catch {
    return { ...DEFAULTS };
  }
}

function saveSettings(settings) {
  localStorage.setItem(KEY, JSON.stringify(settings));
}

// Wire the settings <dialog>: fill it from the stored settings, store what the player changes.
export function settingsDialog(dialog, onChange) {
  const form = dialog.querySelector("form");
  const pace = form.elements.botPaceMs;
  pace.replaceChildren(
    new Option(t("Slow"), "1200"),
    new Option(t("Normal"), "700"),
    new Option(t("Fast"), "300"),
    new Option(t("Instant"), "0"),
  );
  const fill = () => {
    const settings = loadSettings();
    form.elements.autoScore.checked = settings.autoScore;
    form.elements.autoScoreSeconds.value = settings.autoScoreSeconds;
    form.elements.autoScoreSeconds.disabled = !settings.autoScore;
    pace.value = String(settings.botPaceMs);
    form.elements.liveBar.checked = settings.liveBar;
    form.elements.feel.checked = settings.feel;
  };
  form.addEventListener("change", () => {
    const seconds = Math.min(30, Math.max(1, Number(form.elements.autoScoreSeconds.value) || 3));
    const settings = {
      autoScore: form.elements.autoScore.checked,
      autoScoreSeconds: seconds,
      botPaceMs: Number(pace.value),
      liveBar: form.elements.liveBar.checked,
      feel: form.elements.feel.checked,
    };
    saveSettings(settings);
    form.elements.autoScoreSeconds.disabled = !settings.autoScore;
    onChange?.(settings);
  });
  return () => {
    fill();
    dialog.showModal();
  };
}
