"""5000's rules set one by one (docs/rules.md#5000-switches): a rule set named by the words of its switches."""

from __future__ import annotations

import pytest

from cubilete.engine.errors import UnknownVariant
from cubilete.engine.five_thousand import (
    FIVE_THOUSAND_FREE_SET_ASIDE,
    FIVE_THOUSAND_SEED,
    FIVE_THOUSAND_THREE_ONES_1000,
    FiveThousandRules,
    score_roll,
)
from cubilete.engine.games import game_info, rules_for, rules_from_json
from cubilete.translations import refusal_message


def test_a_name_of_switch_words_is_the_rule_set_with_those_choices_named_canonically():
    rules = rules_for("5000", "free-set-aside+entry-750+three-ones-1000")
    assert rules == FiveThousandRules(
        name="entry-750+three-ones-1000+free-set-aside", entry=750, three_ones_points=1000, free_set_aside=True
    )
    assert score_roll([1, 1, 1, 4, 6], rules).points == 1000
    assert rules_for("5000", "entry-0").entry == 0


def test_the_named_rule_sets_are_points_of_the_switches_and_the_seeds_own_choices_name_the_seed():
    assert rules_for("5000", "three-ones-1000+auto-set-aside") == FIVE_THOUSAND_THREE_ONES_1000
    assert rules_for("5000", "free-set-aside+three-ones-1100") == FIVE_THOUSAND_FREE_SET_ASIDE
    assert rules_for("5000", "entry-500+three-ones-1100+auto-set-aside") == FIVE_THOUSAND_SEED


def test_the_switches_offer_the_documented_choices():
    switches = {switch.id: switch.words for switch in game_info("5000").switches}
    assert switches == {
        "entry": ("entry-0", "entry-350", "entry-500", "entry-750", "entry-1000"),
        "three_ones": ("three-ones-1100", "three-ones-1000"),
        "set_aside": ("auto-set-aside", "free-set-aside"),
    }


@pytest.mark.parametrize(
    ("name", "code", "spanish"),
    [
        ("entry-600", "unknown_rules", "5000 no tiene las reglas «entry-600»; elige entre "),
        (
            "three-ones-1000+three-ones-1100",
            "rules_switch_twice",
            "5000: Tres ases valen 1000 y Tres ases valen 1100 cambian la misma regla; deja solo una",
        ),
        ("entry-0+", "unknown_rules", "5000 no tiene las reglas «entry-0+»; elige entre Sin mínimo para entrar, "),
        ("seed+entry-0", "unknown_rules", "5000 no tiene las reglas «"),
    ],
)
def test_a_name_no_switch_makes_is_refused_clearly(name, code, spanish):
    with pytest.raises(UnknownVariant) as refused:
        rules_for("5000", name)
    assert refused.value.code == code
    assert refusal_message("es", code, refused.value.params).startswith(spanish)


def test_a_game_without_switches_still_refuses_an_unknown_name():
    with pytest.raises(UnknownVariant, match="penta has no rule set 'free\\+forced'"):
        rules_for("penta", "free+forced")


def test_a_switched_rule_set_is_saved_and_read_back_whole():
    rules = rules_for("5000", "entry-1000+free-set-aside")
    assert rules_from_json("5000", rules.to_json()) == rules
