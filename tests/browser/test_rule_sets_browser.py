"""The new-game form offers every game in its group and every rule set with its one-line explanation (issue 37):
a Yatzy game and a traditional Generala game, chosen by clicking as a player would, play their first turn."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

UPPER = ["ones", "twos", "threes", "fours", "fives", "sixes"]
YATZY_BOXES = [*UPPER, "one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind", "small_straight",
               "large_straight", "full_house", "chance", "yatzy"]  # docs/rules.md#yatzy-boxes
TRADITIONAL_BOXES = [*UPPER, "straight", "full", "poker", "generala"]  # docs/rules.md#generala-traditional


def form_groups(page) -> dict[str, list[str]]:
    """The games of each group on the form, in order."""
    return page.locator("[data-game-group]").evaluate_all(
        "groups => Object.fromEntries(groups.map(group => [group.dataset.gameGroup,"
        " [...group.querySelectorAll('[data-game-choice]')].map(choice => choice.dataset.gameChoice)]))"
    )


@pytest.mark.parametrize(
    ("game", "rules", "help_line", "rules_name", "boxes", "scored"),
    [
        ("yatzy", "scandinavian",
         "15 boxes with pairs, scored by the matching dice; a bonus of 50 at 63 in the upper part; no joker.",
         "Scandinavian rules", YATZY_BOXES, "chance"),
        pytest.param(
            "generala", "traditional",
            "10 combinations: Straight 20, Full 30, Poker 40, 5 more when made on the first roll («servida»);"
            " Generala 50, and a Generala servida wins the game.",
            "Traditional", TRADITIONAL_BOXES, "sixes", marks=pytest.mark.slow,
        ),
    ],
)
def test_a_rule_set_chosen_on_the_form_is_explained_and_its_first_turn_played(
    server, new_page, game, rules, help_line, rules_name, boxes, scored
):
    page = new_page(locale="en-US", reduced_motion="reduce")
    page.goto(f"{server.url}/")
    expect(page.locator("[data-game-choice]")).to_have_count(6)  # the form draws its choices once the games arrive
    assert form_groups(page) == {"app": ["penta", "generala", "5000"], "classic": ["yahtzee", "yatzy", "kniffel"]}
    page.click(f"[data-game='{game}']")
    page.select_option("[data-rules-select]", rules)  # Yatzy's only rule set is already chosen: the player reads it
    expect(page.locator("[data-rules-help]")).to_have_text(help_line)
    page.click("[data-action='start']")  # alone on this device, the form's default
    expect(page.locator("[data-rules-name]")).to_have_text(rules_name)
    expect(page.locator("[data-rules-link]")).to_have_attribute("href", f"/rules/{game}")
    page.wait_for_selector("#table[data-ready]")
    page.click("[data-action='roll']")
    page.wait_for_selector("#table[data-ready]")  # the dice have landed
    rolled = [int(page.get_attribute(f"[data-die='{index}']", "data-value")) for index in range(5)]
    cells = page.locator("td[data-player='0'][data-preview]")
    expect(cells).to_have_count(len(boxes))
    assert cells.evaluate_all("cells => cells.map(cell => cell.dataset.box)") == boxes
    page.click(f"td[data-player='0'][data-box='{scored}']")
    page.click("[data-action='validate']")
    points = sum(rolled) if scored == "chance" else 6 * rolled.count(6)  # chance, or the sixes: equal in every rule set
    expect(page.locator(f"td[data-player='0'][data-box='{scored}']")).to_have_attribute("data-score", str(points))
    expect(page.locator("td[data-player='0'][data-total]")).to_have_attribute("data-total", str(points))
