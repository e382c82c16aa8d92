"""The dice of a turn as index tables: every roll of five dice and every multiset of held dice.

A "keep" is a multiset of 0 to 5 dice values. Keeps are numbered so that the 252
rolls come first, in the engine's `roll_outcomes` order (keep index = roll index),
followed by the keeps of 4, 3, 2, 1 and 0 dice; the empty keep is last. Two
relations link them, each one die apart, which is all a turn needs:

- `child[k, f]`: the keep k plus one die showing face f. Rolling the free dice one
  at a time, the value of holding k is the mean over f of the value of holding
  child[k, f] (this reproduces the multinomial roll probabilities exactly).
- `parents[k]`: the keeps with one die fewer than k (one per distinct face in k),
  padded with `keeps` (an index one past the last keep) to a fixed width.
  Chaining them reaches every sub-multiset, so the best keep from a roll is a
  running maximum along them instead of a search over all 32 subsets.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from typing import NamedTuple

import numpy as np

from ..engine.dice import DICE_COUNT, FACES, Dice, roll_outcomes


class DiceLattice(NamedTuple):
    """The arrays the kernels read (a NamedTuple so that Numba can take it as one argument)."""

    roll_probability: np.ndarray  # float64[rolls]: exact chance of each roll of all the dice
    child: np.ndarray  # int32[keeps, faces]: keep plus one die of that face; -1 for full keeps
    parents: np.ndarray  # int32[keeps, dice]: keeps with one die fewer, padded with `keeps`


@cache
def keeps() -> tuple[Dice, ...]:
    """Every multiset of held dice in lattice order: the rolls first, the empty keep last."""
    rolls = tuple(outcome for outcome, _ in roll_outcomes(DICE_COUNT))
    smaller = tuple(
        keep
        for size in range(DICE_COUNT - 1, -1, -1)
        for keep in combinations_with_replacement(FACES, size)
    )
    return rolls + smaller


@cache
def keep_indices() -> dict[Dice, int]:
    """The lattice index of each keep (sorted values)."""
    return {keep: index for index, keep in enumerate(keeps())}


@cache
def dice_lattice() -> DiceLattice:
    every_keep = keeps()
    index = keep_indices()
    child = np.full((len(every_keep), len(FACES)), -1, dtype=np.int32)
    parents = np.full((len(every_keep), DICE_COUNT), len(every_keep), dtype=np.int32)
    for k, keep in enumerate(every_keep):
        if len(keep) < DICE_COUNT:
            for f, face in enumerate(FACES):
                child[k, f] = index[tuple(sorted(keep + (face,)))]
        for j, face in enumerate(sorted(set(keep))):
            smaller = list(keep)
            smaller.remove(face)
            parents[k, j] = index[tuple(smaller)]
    return DiceLattice(
        roll_probability=np.array([float(p) for _, p in roll_outcomes(DICE_COUNT)]),
        child=child,
        parents=parents,
    )
