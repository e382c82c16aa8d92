"""The solver's block kernel (turn_block) gives every upper total the very value, bit for bit, that the
one-total kernel (turn.turn_expectations) used by advice and the analyses gives it."""

from __future__ import annotations

import numpy as np
import pytest

from cubilete.engine.sheet_rules import GENERALA_TRADITIONAL, PENTA_FORCED, PENTA_NO_BONUS, YATZY_SCANDINAVIAN
from cubilete.solvers.dice_lattice import dice_lattice
from cubilete.solvers.mapped_tables import read_only
from cubilete.solvers.sheet.tables import sheet_tables, state_count
from cubilete.solvers.sheet.turn import turn_expectations, turn_scratch
from cubilete.solvers.sheet.turn_block import BLOCK, block_scratch, block_values


@pytest.mark.parametrize(
    "rules",
    # a joker box of two states, one of one state, no upper bonus with a first roll that scores apart, 15 boxes
    [PENTA_FORCED, PENTA_NO_BONUS, GENERALA_TRADITIONAL, YATZY_SCANDINAVIAN],
    ids=lambda rules: f"{rules.game}-{rules.name}",
)
def test_a_block_of_totals_gets_each_totals_own_value_to_the_last_bit(rules):
    tables, lattice = sheet_tables(rules), dice_lattice()
    shape = tables.shape
    rng = np.random.default_rng(7)
    # any futures will do: the arithmetic is what is compared; read-only as the solver passes them, so that
    # both kernels are the ones the solver and the other tests compile (no compilation of their own)
    values = read_only(rng.uniform(0, 200, state_count(tables)))
    scalar = turn_scratch(shape, lattice)
    block = block_scratch(shape, lattice)
    out = np.empty(BLOCK)
    full = (1 << shape.box_count) - 1
    for mask in [0, full ^ 1, full ^ (1 << (shape.box_count - 1)), *rng.integers(0, full, 12)]:
        joker_filled = shape.joker_box >= 0 and (mask >> shape.joker_box) & 1
        for joker in range(shape.joker_states if joker_filled else 1):
            uppers = rng.integers(0, shape.threshold + 1, BLOCK)
            block_values(shape, tables.arrays, lattice, values, mask, joker, uppers, *block, out)
            each = [turn_expectations(shape, tables.arrays, lattice, values, mask, joker, upper, *scalar) for upper in uppers]
            assert out.tobytes() == np.array(each).tobytes(), (mask, joker, uppers)
