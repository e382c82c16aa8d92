"""The runner owns the dice: same seed, same game; records replay exactly and refuse tampering."""

import hashlib
import hmac
import json

import pytest

from cubilete.engine.actions import Score
from cubilete.engine.dice_seeds import (
    SPLITMIX_GAMMA,
    ChosenSeed,
    CommonSeed,
    LegacySeed,
    SecretSeed,
    hmac_dice,
    keyed_hmac,
    splitmix64,
)
from cubilete.engine.errors import IllegalAction, InvalidRecord, NotYourTurn, UnknownGame, UnknownVariant
from cubilete.engine.events import RollEvent, replay
from cubilete.engine.games import GAMES, new_state, rules_for, state_from_json
from cubilete.engine.runner import Match, play


class FirstLegal:
    def choose(self, state):
        return state.legal_actions()[0]


class LastLegal:
    def choose(self, state):
        return state.legal_actions()[-1]


@pytest.mark.parametrize("game, seats", [("penta", 2), ("generala", 3), ("5000", 2)])
def test_same_seed_same_game_and_records_replay(game, seats):
    bots = [LastLegal()] * seats
    first = play(rules_for(game), bots, seed=42)
    second = play(rules_for(game), bots, seed=42)
    assert first.state.is_over and first.events == second.events
    assert play(rules_for(game), bots, seed=43).events != first.events
    record = json.loads(json.dumps(first.to_json()))
    replayed = Match.from_json(record)
    assert replayed.state == first.state and replayed.to_json() == record


# The first rolls of a few seeds, pinned: the same on every Python version and forever.
CHOSEN_GOLDEN = {
    0: [(6, 5, 2, 5, 4), (6, 3, 3, 1, 3), (3, 5, 6, 2, 1)],
    42: [(5, 6, 4, 4, 3), (4, 6, 2, 3, 6), (3, 5, 1, 4, 1)],
    243: [(6, 4, 3, 5, 6), (6, 4, 1, 3, 5), (1, 4, 4, 4, 6)],
    2**62 + 1: [(6, 1, 6, 6, 5), (5, 4, 3, 5, 4), (6, 5, 5, 4, 3)],
}
SECRET = bytes(range(32))
SECRET_GOLDEN = [(4, 2, 4, 3, 2), (4, 2, 5, 4, 1), (6, 1, 6, 4, 3)]
# Computed with the format-1 code before format 2 existed (random.Random("cubilete/<seed>/<k>")).
LEGACY_GOLDEN = {
    0: [(4, 6, 1, 4, 4), (3, 1, 2, 5, 5), (5, 4, 4, 4, 6)],
    42: [(5, 6, 3, 1, 6), (1, 1, 1, 3, 3), (3, 6, 2, 1, 4)],
    243: [(4, 4, 4, 4, 4), (1, 3, 3, 5, 2), (6, 3, 4, 6, 2)],
    2**62 + 1: [(6, 3, 2, 1, 3), (2, 5, 3, 6, 1), (3, 5, 3, 4, 2)],
}


@pytest.mark.parametrize("seed", sorted(CHOSEN_GOLDEN))
def test_golden_first_rolls_of_chosen_and_legacy_seeds(seed):
    assert [ChosenSeed(seed).roll(k, 5) for k in range(3)] == CHOSEN_GOLDEN[seed]
    assert [LegacySeed(seed).roll(k, 5) for k in range(3)] == LEGACY_GOLDEN[seed]
    assert ChosenSeed(seed).roll(1, 2) == CHOSEN_GOLDEN[seed][1][:2]  # fewer dice: the same stream


def test_golden_first_rolls_of_a_secret():
    assert [SecretSeed(SECRET).roll(k, 5) for k in range(3)] == SECRET_GOLDEN


def test_the_dice_follow_the_documented_derivation():
    """Block j of roll k is HMAC-SHA256(key, "cubilete/roll/k/j"); bytes of 252 and up are skipped."""
    def documented(key, k, count):
        stream = b"".join(hmac.new(key, f"cubilete/roll/{k}/{j}".encode(), hashlib.sha256).digest() for j in range(4))
        return tuple(1 + b % 6 for b in stream if b < 252)[:count]

    for k in range(50):
        assert hmac_dice(keyed_hmac(SECRET), k, 5) == documented(SECRET, k, 5)
        assert ChosenSeed(7).roll(k, 5) == documented(b"cubilete/seed/7", k, 5)


def test_every_face_is_equally_likely():
    counts = [0] * 6
    for k in range(3000):
        for die in hmac_dice(keyed_hmac(SECRET), k, 5):
            counts[die - 1] += 1
    # 15,000 dice: each face 2,500 expected, SD 46; 6 SDs apart would flag a biased derivation
    assert all(abs(count - 2500) < 280 for count in counts), counts


def test_without_a_seed_a_match_draws_a_secret_that_only_its_record_holds():
    match = Match(rules_for("penta"), ["Ana", "Bo"])
    assert not match.seed_chosen_by_client and match.seed is None
    secret = match.dice_seed.secret
    assert len(secret) == 32 and secret != Match(rules_for("penta"), ["Ana"]).dice_seed.secret
    assert secret.hex() not in repr(match.dice_seed)
    match.roll()
    match.act(Score("chance"), seat=0)
    record = json.loads(json.dumps(match.to_json()))
    assert record["format"] == 2 and record["dice"] == {"secret": secret.hex()}
    resumed = Match.from_json(record)
    assert resumed.dice_seed == match.dice_seed and resumed.roll() == match.roll()


def test_a_chosen_seed_is_said_to_be_chosen():
    match = Match(rules_for("5000"), ["Ana", "Bo"], seed=243)
    assert match.seed_chosen_by_client and match.seed == 243
    assert match.to_json()["dice"] == {"seed": 243}
    match.roll()
    assert match.events == [RollEvent(CHOSEN_GOLDEN[243][0])]
    for bad in (-1, 2**63, True):
        with pytest.raises(InvalidRecord, match="seed"):
            Match(rules_for("5000"), ["Ana", "Bo"], seed=bad)


# Stored by the format-1 code before format 2 existed; "rules" is the seed rules' JSON.
FORMAT_1_RECORD = {
    "format": 1, "game": "penta", "players": ["Ana", "Bo"], "seed": 243,
    "events": [
        {"roll": [4, 4, 4, 4, 4]},
        {"seat": 0, "action": {"type": "keep", "held": [0, 1, 2]}},
        {"roll": [1, 3]},
        {"seat": 0, "action": {"type": "score", "box": "penta"}},
        {"roll": [6, 3, 4, 6, 2]},
    ],
}


def test_format_1_records_load_and_go_on_with_the_legacy_dice():
    record = {**FORMAT_1_RECORD, "rules": rules_for("penta").to_json()}
    match = Match.from_json(record)
    assert match.seed_chosen_by_client and match.seed == 243
    assert match.state.dice == (6, 3, 4, 6, 2) and match.state.current_player == 1
    assert match.to_json() == record  # stays format 1: the game's remaining rolls keep their derivation
    match.act(Score("chance"), seat=1)
    match.roll()
    assert match.events[-1] == RollEvent(LegacySeed(243).roll(3, 5))
    assert Match.from_json(match.to_json()).state == match.state


def test_a_resumed_match_rolls_what_the_original_would_have():
    match = Match(rules_for("penta"), ["Ana", "Bo"], seed=5)
    match.roll()
    match.act(Score("chance"), seat=0)
    resumed = Match.from_json(match.to_json())
    assert resumed.roll() == match.roll()


def test_splitmix64_gives_the_reference_outputs():
    """The first outputs of SplitMix64 seeded with 0 (Vigna's splitmix64.c)."""
    assert [splitmix64(n * SPLITMIX_GAMMA) for n in (1, 2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


@pytest.mark.parametrize("game", ["penta", "generala", "5000"])
def test_with_common_dice_every_seat_draws_the_same_stream_one_die_at_a_time(game):
    match = play(rules_for(game), [LastLegal(), FirstLegal()], CommonSeed(42))
    dice: list[list[int]] = [[], []]
    for event, before in zip(match.events, [match.initial, *replay(match.initial, match.events)]):
        if isinstance(event, RollEvent):
            dice[before.current_player] += event.dice
    stream = [1 + splitmix64(42 + n * SPLITMIX_GAMMA) % 6 for n in range(1, max(map(len, dice)) + 1)]
    assert dice[0] == stream[: len(dice[0])] and dice[1] == stream[: len(dice[1])]
    assert match.drawn == [len(dice[0]), len(dice[1])]
    assert match.seed == 42 and match.to_json()["dice"] == {"common": 42}
    replayed = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert replayed.state == match.state and replayed.events == match.events


def test_humans_roll_themselves_and_bots_stop_at_human_seats():
    match = Match(rules_for("penta"), ["bot", "Ana"], seed=1)
    state = match.advance([FirstLegal(), None])
    assert state.current_player == 1 and state.is_chance
    match.roll()
    with pytest.raises(NotYourTurn):
        match.act(Score("chance"), seat=0)
    before = match.to_json()
    with pytest.raises(IllegalAction):
        match.act(Score("no-such-box"), seat=1)
    assert match.to_json() == before


@pytest.mark.parametrize(
    "tamper, message",
    [
        (lambda r: r["events"][0].update(roll=[6, 6, 6, 6, 6]), "does not match the record's seed"),
        (lambda r: r.update(format=99), "format"),
        (lambda r: r.pop("dice"), "missing dice"),
        (lambda r: r["events"].insert(1, {"seat": 1, "action": {"type": "score", "box": "ones"}}), "turn"),
    ],
)
def test_tampered_records_are_refused(tamper, message):
    record = play(rules_for("penta"), [FirstLegal()] * 2, seed=3).to_json()
    tamper(record)
    with pytest.raises((InvalidRecord, IllegalAction), match=message):
        Match.from_json(record)


def test_registry_errors_name_the_choices():
    with pytest.raises(UnknownGame, match="penta, generala, 5000"):
        rules_for("yacht")
    with pytest.raises(UnknownVariant, match="seed, forced, free, no-joker, no-bonus"):
        rules_for("penta", "american")
    assert set(GAMES) == {"penta", "generala", "5000", "yahtzee", "yatzy", "kniffel"}


@pytest.mark.parametrize("game", ["penta", "generala", "5000"])
def test_states_round_trip_through_the_registry(game):
    state = new_state(rules_for(game), 2)
    assert state_from_json(json.loads(json.dumps(state.to_json()))) == state
    with pytest.raises(InvalidRecord):
        state_from_json({"game": game})


@pytest.mark.parametrize("seed", [CommonSeed(42), ChosenSeed(42)])
def test_a_match_rewound_to_its_checkpoint_rolls_again_what_it_would_have_rolled(seed):
    match = Match(rules_for("penta"), ["Ana", "Luis"], seed)
    match.roll()
    match.act(match.state.keep_values([]))
    checkpoint = match.checkpoint()
    state, events = match.state, list(match.events)
    match.roll()
    rolled = match.state.dice
    match.act(match.state.keep_values([]))
    match.rewind(checkpoint)
    assert (match.state, match.events, match.rolls, match.drawn) == (state, events, 1, [5, 0])
    match.roll()
    assert match.state.dice == rolled  # with common dice too: the seat's dice drawn are put back
