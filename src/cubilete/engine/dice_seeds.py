"""Where a match's dice come from: roll k of a match is a pure function of its seed and k.

Records of format 2 derive every roll with HMAC-SHA256, the same on every Python version:

    block j of roll k = HMAC-SHA256(key, b"cubilete/roll/<k>/<j>")   (k, j in decimal ASCII)

and the dice are read from blocks 0, 1, ... byte by byte: a byte b below 252 gives the die
1 + b % 6, a byte of 252 or more is skipped, so that each face is exactly equally likely
(rejection sampling). The key is either

- a 256-bit secret drawn from the operating system's CSPRNG (`secrets`), the default: kept
  server-side, nobody can predict or steer the dice; or
- `b"cubilete/seed/<seed>"` for an integer seed a client chose: replays, tests and
  simulations, where anyone who knows the seed knows every roll.

A `CommonSeed` instead gives every seat its own copy of one SplitMix64 stream seeded with
the integer: die n of a seat (counting its dice from 0, one at a time in the order they
are rolled) is 1 + splitmix64(seed + (n + 1) * gamma) % 6. Two seats that have rolled
the same number of dice have seen the same dice: common random numbers, so that a
simulation comparing two players sees luck cancel out (solvers' compiled simulators draw
the same stream).

Records of format 1 (before the change) derive roll k from Python's `random` seeded with
"cubilete/<seed>/<k>"; `LegacySeed` keeps that only so that those records still replay.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from dataclasses import dataclass, field
from itertools import count as count_from
from typing import Any, ClassVar

from .dice import FACES, Dice
from .validation import Record

SECRET_BYTES = 32
MAX_CHOSEN_SEED = 2**63 - 1  # what a signed 64-bit integer column or a JavaScript client keeps
ACCEPTED_BYTES = 256 - 256 % len(FACES)  # 252: bytes at or above it are skipped
SPLITMIX_GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment
WORD = 2**64 - 1

SEED = Record("dice seed")


def keyed_hmac(key: bytes) -> hmac.HMAC:
    """HMAC-SHA256 keyed once for `hmac_dice`: keying costs as much as hashing a block, at every block."""
    return hmac.new(key, digestmod=hashlib.sha256)


def hmac_dice(keyed: hmac.HMAC, roll_number: int, count: int) -> Dice:
    """The `count` dice of roll `roll_number` for the key of `keyed` (the format-2 derivation above).

    `keyed` is never updated, only copied, so one serves every roll, from any thread."""
    dice: list[int] = []
    for block in count_from():
        mac = keyed.copy()
        mac.update(f"cubilete/roll/{roll_number}/{block}".encode())
        digest = mac.digest()
        for byte in digest:
            if byte < ACCEPTED_BYTES:
                dice.append(FACES[byte % len(FACES)])
                if len(dice) == count:
                    return tuple(dice)
    raise AssertionError("unreachable: the blocks never end")


@dataclass(frozen=True)
class ChosenSeed:
    """An integer seed a client chose: the dice replay exactly, and whoever knows it knows them."""

    seed: int
    _keyed: hmac.HMAC = field(init=False, repr=False, compare=False)
    chosen_by_client: ClassVar[bool] = True

    def __post_init__(self) -> None:
        SEED.integer(self.seed, "a chosen seed", 0, MAX_CHOSEN_SEED)
        object.__setattr__(self, "_keyed", keyed_hmac(f"cubilete/seed/{self.seed}".encode()))

    def roll(self, roll_number: int, count: int) -> Dice:
        return hmac_dice(self._keyed, roll_number, count)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed}


@dataclass(frozen=True)
class SecretSeed:
    """A secret from the operating system's CSPRNG: dice nobody can predict, kept server-side."""

    secret: bytes = field(default_factory=lambda: secrets.token_bytes(SECRET_BYTES), repr=False)
    _keyed: hmac.HMAC = field(init=False, repr=False, compare=False)
    chosen_by_client: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if not isinstance(self.secret, bytes) or len(self.secret) != SECRET_BYTES:
            raise SEED.refuse(f"a secret is {SECRET_BYTES} bytes")
        object.__setattr__(self, "_keyed", keyed_hmac(self.secret))

    def roll(self, roll_number: int, count: int) -> Dice:
        return hmac_dice(self._keyed, roll_number, count)

    def to_json(self) -> dict[str, Any]:
        return {"secret": self.secret.hex()}


@dataclass(frozen=True)
class LegacySeed:
    """Format-1 records only: Python's `random`, which a new match never uses.

    Format 1 did not say who chose the seed, and its dice are a public function of it,
    so it counts as chosen by a client.
    """

    seed: int
    chosen_by_client: ClassVar[bool] = True

    def __post_init__(self) -> None:
        SEED.integer(self.seed, "a format-1 seed")

    def roll(self, roll_number: int, count: int) -> Dice:
        generator = random.Random(f"cubilete/{self.seed}/{roll_number}")
        return tuple(generator.choice(FACES) for _ in range(count))


@dataclass(frozen=True)
class CommonSeed:
    """The same dice for every seat: each draws from its own copy of one SplitMix64 stream
    (module docstring). For simulations that compare players; whoever knows it knows them."""

    seed: int
    chosen_by_client: ClassVar[bool] = True

    def __post_init__(self) -> None:
        SEED.integer(self.seed, "a common seed", 0, MAX_CHOSEN_SEED)

    def dice(self, first: int, count: int) -> Dice:
        """A seat's dice number first, first + 1, ... of the stream."""
        return tuple(FACES[splitmix64(self.seed + (n + 1) * SPLITMIX_GAMMA) % len(FACES)] for n in range(first, first + count))

    def to_json(self) -> dict[str, Any]:
        return {"common": self.seed}


def splitmix64(state: int) -> int:
    """SplitMix64's output for a state (the state already advanced by its gamma)."""
    z = state & WORD
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & WORD
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & WORD
    return z ^ (z >> 31)


DiceSeed = ChosenSeed | SecretSeed | LegacySeed | CommonSeed


def dice_seed_from_json(data: Any) -> ChosenSeed | SecretSeed | CommonSeed:
    """The "dice" field of a format-2 record: {"seed": <integer>}, {"secret": <64 hex digits>}
    or {"common": <integer>}."""
    data = SEED.fields(data, (), ("seed", "secret", "common"))
    if len(data) != 1:
        raise SEED.refuse('expected exactly one of "seed", "secret" and "common"')
    if "seed" in data:
        return ChosenSeed(data["seed"])
    if "common" in data:
        return CommonSeed(data["common"])
    secret = data["secret"]
    if not isinstance(secret, str) or len(secret) != 2 * SECRET_BYTES or secret.strip("0123456789abcdef"):
        raise SEED.refuse(f"a secret is {2 * SECRET_BYTES} lower-case hexadecimal digits")
    return SecretSeed(bytes.fromhex(secret))
