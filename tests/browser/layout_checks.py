"""What the layout tests measure in the page: which elements are not fully on screen and shown, the
background alpha of the sheet's sticky cells, horizontal overflow; and a game started from the form."""

from __future__ import annotations

import re

# Each element matched by the selector must lie inside the viewport and be what the page shows at
# its middle, or for a table row at the middle of its first and last cell (nothing over it, not
# clipped by a scrolled container).
_NOT_ON_SCREEN = """(selector) => {
  const problems = [];
  for (const element of document.querySelectorAll(selector)) {
    const box = element.getBoundingClientRect();
    const inside = box.height > 0 && box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
    const probes = element.tagName === "TR" ? [element.firstElementChild, element.lastElementChild] : [element];
    const shown = probes.every((probe) => {
      const rect = probe.getBoundingClientRect();
      const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      return hit !== null && probe.contains(hit);
    });
    if (!inside || !shown) {
      const name = (element.textContent || element.dataset.action || element.className).trim().slice(0, 30);
      problems.push(`${name} [${Math.round(box.top)}, ${Math.round(box.bottom)}] ${inside ? "covered" : "off screen"}`);
    }
  }
  return problems;
}"""

_BACKGROUNDS = """(selector) => [...document.querySelectorAll(selector)].map((cell) => {
  const style = getComputedStyle(cell);
  return [cell.textContent, style.position, style.backgroundColor, style.backgroundImage];
})"""

_OVERFLOWS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((element) => element.scrollWidth > element.clientWidth)
  .map((element) => `${element.tagName}.${element.className}: ${element.scrollWidth} > ${element.clientWidth}`)"""


# A select shows only its chosen option, cut where the select is narrower than the option's text: each
# select matched is measured against a copy of it free to take the width of its widest option.
_CUT_SELECTS = """(selector) => [...document.querySelectorAll(selector)].flatMap((select) => {
  const free = select.cloneNode(true);
  free.style.cssText = "position: absolute; visibility: hidden; width: auto; min-width: 0; max-width: none; flex: none";
  select.parentElement.append(free);
  const [width, needed] = [select.getBoundingClientRect().width, free.getBoundingClientRect().width];
  free.remove();
  return width + 0.5 < needed ? [`${select.name}: ${Math.round(width)} px < ${Math.round(needed)} px`] : [];
})"""


def cut_selects(page, selector: str) -> list[str]:
    """The selects of `selector` too narrow to show their widest option whole."""
    assert page.locator(selector).count() > 0, selector
    return page.evaluate(_CUT_SELECTS, selector)


def not_on_screen(page, selector: str) -> list[str]:
    """The elements of `selector` that are not entirely visible on the screen as it is (no scrolling)."""
    assert page.locator(selector).count() > 0, selector
    return page.evaluate(_NOT_ON_SCREEN, selector)


def alpha(color: str) -> float:
    """The alpha of a computed colour: rgb(...) is opaque, rgba(r, g, b, a) says it."""
    numbers = re.findall(r"[\d.]+", color)
    return float(numbers[3]) if len(numbers) == 4 else 1.0


def see_through_sticky_cells(page) -> list[list[str]]:
    """The sheet's sticky cells (names, totals) whose background lets what scrolls under them show."""
    cells = page.evaluate(_BACKGROUNDS, ".sheet thead th, .sheet tr.total > *")
    assert cells and all(position == "sticky" for _, position, _, _ in cells), cells
    return [cell for cell in cells if alpha(cell[2]) < 1 or cell[3] != "none"]


def overflowing(page, selector: str) -> list[str]:
    """The elements of `selector` wider inside than their box (scrollWidth > clientWidth)."""
    assert page.locator(selector).count() > 0, selector
    return page.evaluate(_OVERFLOWS, selector)


def start_game(
    page, server, game: str, players: int = 1, rules: str | None = None, names: tuple[str, ...] = (),
    switches: dict[str, str] | None = None,
) -> None:
    """Start a game from the home page's form: its rule set chosen from the list (`rules`) or switch by
    switch (`switches`, e.g. 5000's {"entry": "entry-1000"}), seat 0 a human on this device, `names` more
    human seats on this device, bots for the rest; then wait until seat 0 may play."""
    page.goto(f"{server.url}/")
    page.click(f"[data-game='{game}']")
    if rules is not None:
        page.select_option("[data-rules-select]", rules)
    for switch, choice in (switches or {}).items():
        page.select_option(f"[data-switch='{switch}']", choice)
    while page.locator("[data-player-row]").count() < players:
        page.click("[data-action='add-player']")
    for index, name in enumerate(names):
        if index > 0:
            page.select_option(f"[data-player-row]:nth-child({index + 1}) [data-player-kind]", "here")
        page.fill(f"[name='name-{index}']", name)
    page.click("[data-action='start']")
    page.wait_for_selector("#table[data-ready]")
