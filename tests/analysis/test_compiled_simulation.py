"""`cubilete simulate` plays duel against optimal with common dice at compiled speed from
COMPILED_FROM games: the very games, and so the very results, of the engine's runner. The
kernels take a while to compile the first time: a slow check."""

from __future__ import annotations

import pytest

from cubilete.analysis import matches
from cubilete.engine.sheet_rules import GENERALA_SEED

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("levels", [["duel", "optimal"], ["optimal", "duel"]])
def test_the_compiled_games_give_the_runners_results(monkeypatch, levels):
    runner = matches.simulate(GENERALA_SEED, levels, 6, 11, common_dice=True)
    monkeypatch.setattr(matches, "COMPILED_FROM", 2)
    compiled = matches.simulate(GENERALA_SEED, levels, 6, 11, common_dice=True)
    assert compiled.players == runner.players
