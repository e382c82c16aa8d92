// A game's rules set one by one (5000: the entry, three 1s, the set-aside), a select per switch with
// its one-line help. The rule set's name is the chosen words joined with "+"; the server names it
// canonically and refuses a word it does not know (engine/rule_switches.py).

import { rulesHelp, rulesName, t } from "./i18n.js";

export const SWITCH_SEPARATOR = "+";

// Draws the game's switches in container, chosen as the words of the rule set `rules` says (else each
// switch's default), and answers a function giving the rule set they name.
export function drawSwitches(container, game, rules = "") {
  const words = new Set(rules.split(SWITCH_SEPARATOR));
  const drawn = game.switches.map((rule) => {
    const select = document.createElement("select");
    select.name = `switch-${rule.id}`;
    select.dataset.switch = rule.id;
    select.append(...rule.choices.map((word) => new Option(rulesName(game.id, word), word)));
    select.value = rule.choices.find((word) => words.has(word)) ?? rule.default;
    const help = document.createElement("p");
    help.className = "small rules-help";
    help.id = `switch-help-${rule.id}`;
    select.setAttribute("aria-describedby", help.id);
    const explain = () => {
      help.textContent = rulesHelp(game.id, select.value);
    };
    select.addEventListener("change", explain);
    explain();
    const label = document.createElement("label");
    label.className = "field";
    const title = document.createElement("span");
    title.textContent = t(rule.id, {}, `switch:${game.id}`);
    label.append(title, select);
    return { select, nodes: [label, help] };
  });
  container.replaceChildren(...drawn.flatMap(({ nodes }) => nodes));
  container.hidden = drawn.length === 0;
  return () => drawn.map(({ select }) => select.value).join(SWITCH_SEPARATOR);
}
