"""Game review: optimal play loses nothing, one bad choice shows with the loss `advise` gives,
luck and skill add up to the result, the CLI's JSON contract, and 5000 advice in every situation."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest

from cubilete.analysis.review import review, review_record
from cubilete.analysis.walk import CLASS_LIMITS, loss_class
from cubilete.cli.main import main
from cubilete.engine.actions import Bank, Keep, Roll
from cubilete.engine.events import ActionEvent, replay
from cubilete.engine.five_thousand import FIVE_THOUSAND_SEED, Phase
from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match, play
from cubilete.players import make_player
from cubilete.solvers.five_thousand.advice import rank_five_thousand
from cubilete.solvers.five_thousand.cache import two_player_solution
from cubilete.solvers.sheet.advice import advise

SEED = 20240611
CONTRACT = {"game", "rules", "players", "decisions"}
PLAYER_KEYS = {"seat", "name", "decisions", "mean_loss", "total_loss", "luck", "skill"}
DECISION_KEYS = {"index", "seat", "chosen", "best", "loss", "class"}


class OneBadChoice:
    """The optimal player, except that its `at`-th real choice (more than one option) is its worst.

    `situation` keeps the state of that choice, for asking `cubilete advise` about it.
    """

    def __init__(self, rules, at: int) -> None:
        self.optimal = make_player("optimal", rules)
        self.at = at
        self.choices = 0
        self.situation = None

    def choose(self, state):
        if state.game == "5000":
            if state.phase is not Phase.DECIDE or len(state.legal_actions()) < 2:
                return self.optimal.choose(state)
            options = rank_five_thousand(state).options
            worst = options[-1]
        else:
            options = advise(state)
            worst = options[-1]
        if len(options) < 2 or worst.regret == 0:
            return self.optimal.choose(state)
        self.choices += 1
        if self.choices != self.at:
            return self.optimal.choose(state)
        self.situation = state
        return worst.action


def advise_cli(capsys, tmp_path, situation) -> dict:
    path = tmp_path / "situation.json"
    path.write_text(json.dumps(situation))
    assert main(["advise", "--situation", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def real_choices(match) -> list[int]:
    """The indices of the action events taken where more than one action was legal."""
    befores = [match.initial, *replay(match.initial, match.events)]
    return [
        index
        for index, (event, state) in enumerate(zip(match.events, befores))
        if isinstance(event, ActionEvent) and len(state.legal_actions()) > 1
    ]


def check_luck_and_skill(result, match) -> None:
    for player in result.players:
        assert player.start + player.luck + player.skill + player.others == pytest.approx(player.final, abs=1e-6)
        assert player.skill == pytest.approx(-player.total_loss)
        if result.unit == "points":
            assert player.final == pytest.approx(match.state.scores()[player.seat], abs=1e-6)
            assert player.others == 0
        else:
            assert player.final == float(match.state.winner == player.seat)


@pytest.mark.parametrize("game, seats", [("penta", 2), ("generala", 2), ("5000", 2)])
def test_optimal_play_reviews_with_zero_loss(game, seats):
    rules = rules_for(game)
    match = play(rules, [make_player("optimal", rules) for _ in range(seats)], SEED)
    result = review(match)
    assert [d.index for d in result.decisions] == real_choices(match) and len(result.decisions) > 20
    assert all(d.loss == 0 and d.loss_class == "best" and d.chosen == d.best for d in result.decisions)
    assert [p.seat for p in result.players] == list(range(seats))
    assert all(p.total_loss == 0 and p.mean_loss == 0 for p in result.players)
    assert result.finished and not result.estimate
    check_luck_and_skill(result, match)


def test_one_bad_sheet_choice_shows_with_the_regret_advise_gives(capsys, tmp_path):
    rules = rules_for("penta")
    bad = OneBadChoice(rules, at=7)
    match = play(rules, [bad], SEED)
    result = review(match)
    costly = [d for d in result.decisions if d.loss > 0]
    assert len(costly) == 1
    decision = costly[0]
    state = bad.situation
    assert match.events[decision.index] == ActionEvent(0, decision.chosen)
    situation = {"game": "penta", "sheet": state.sheet.filled(rules), "dice": list(state.dice),
                 "rolls_left": state.rolls_left, "penta_bonus": state.sheet.bonus}
    options = advise_cli(capsys, tmp_path, situation)["options"]
    assert decision.loss == pytest.approx(options[-1]["regret"], abs=1e-9)
    assert decision.loss_class == loss_class(decision.loss, "points") != "best"
    player = result.players[0]
    assert player.total_loss == decision.loss and player.mean_loss == decision.loss / player.decisions
    check_luck_and_skill(result, match)


def test_one_bad_5000_choice_shows_with_the_win_chance_advise_gives(capsys, tmp_path):
    rules = FIVE_THOUSAND_SEED
    bad = OneBadChoice(rules, at=2)
    match = play(rules, [bad, make_player("optimal", rules)], SEED)
    result = review(match)
    costly = [d for d in result.decisions if d.loss > 0]
    assert len(costly) == 1 and costly[0].seat == 0
    decision = costly[0]
    state = bad.situation
    situation = {"game": "5000", "scores": list(state.totals), "to_move": state.current,
                 "turn_points": state.turn_points, "dice_left": state.dice_left}
    chances = {o["action"]: o["win_probability"] for o in advise_cli(capsys, tmp_path, situation)["options"]}
    assert decision.loss == pytest.approx(abs(chances["roll"] - chances["bank"]), abs=1e-12)
    assert {decision.chosen, decision.best} == {Roll(), Bank()}
    # the opponent's gain from the mistake is the mistake's loss
    assert result.players[1].others == pytest.approx(decision.loss, abs=1e-9)
    check_luck_and_skill(result, match)


def test_classes_follow_the_documented_limits():
    for unit, limits in CLASS_LIMITS.items():
        names = [name for _, name in limits]
        assert [loss_class(0.0, unit), loss_class(limits[-1][0], unit)] == [names[0], "blunder"]
        assert [loss_class(limit * 0.999, unit) for limit, _ in limits] == names


def write_game(tmp_path, game, seats=None):
    rules = rules_for(game)
    match = play(rules, [make_player("casual", rules) for _ in range(2)], SEED)
    path = tmp_path / f"{game}.json"
    path.write_text(json.dumps(match.to_json() if seats is None else {"record": match.to_json(), "seats": seats}))
    return path, match


@pytest.mark.parametrize("game", ["generala", "5000"])
def test_cli_json_has_the_contracts_keys(capsys, tmp_path, game):
    path, match = write_game(tmp_path, game)
    assert main(["review", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert CONTRACT <= set(data) and data["game"] == game and data["rules"] == "seed"
    assert [p["seat"] for p in data["players"]] == [0, 1]
    assert all(PLAYER_KEYS <= set(p) for p in data["players"])
    assert data["decisions"] and all(DECISION_KEYS <= set(d) for d in data["decisions"])
    assert all(d["loss"] >= 0 for d in data["decisions"])
    assert data == json.loads(json.dumps(review_record(match.to_json()).to_json()))
    assert main(["review", str(path)]) == 0
    assert "mean loss" in capsys.readouterr().out


def test_cli_reviews_only_the_human_seats_when_the_seats_are_known(capsys, tmp_path):
    path, _ = write_game(tmp_path, "penta", [{"name": "Ana", "kind": "human"}, {"name": "bot", "kind": "bot"}])
    assert main(["review", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["seat"] for p in data["players"]] == [0]
    assert {d["seat"] for d in data["decisions"]} == {0}
    assert main(["review", str(path), "--json", "--all-seats"]) == 0
    assert [p["seat"] for p in json.loads(capsys.readouterr().out)["players"]] == [0, 1]


def test_cli_reviews_a_game_of_the_database(capsys, tmp_path):
    from cubilete.storage import Storage

    rules = rules_for("penta")
    match = play(rules, [make_player("casual", rules)], SEED)
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    storage = Storage(url)
    storage.insert("g1", "en", [{"name": "Ana", "kind": "human"}], match.to_json())
    storage.close()
    assert main(["review", "g1", "--database", url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"][0]["name"] == match.names[0]
    assert main(["review", "nope", "--database", url]) == 2
    assert "neither a file nor a game id" in capsys.readouterr().err


def test_advise_at_a_5000_turn_start_answers_roll(capsys, tmp_path):
    situation = {"game": "5000", "scores": [1000, 0], "to_move": 1, "turn_points": 0, "dice_left": 5}
    data = advise_cli(capsys, tmp_path, situation)
    start = two_player_solution(FIVE_THOUSAND_SEED).start
    assert data == {"options": [{"action": "roll", "win_probability": float(start[0, 10])}]}


@pytest.mark.parametrize(
    "change, message",
    [
        ({"scores": [300, 1000]}, "enters the game with at least 500"),
        ({"scores": [1000, 250]}, "multiples of 100"),
        ({"scores": [1200, 1200]}, "knocks that player out"),
        ({"turn_points": 0, "dice_left": 3}, "rolling all 5 dice"),
        ({"turn_points": False}, "turn points"),
    ],
)
def test_impossible_5000_situations_are_refused(capsys, tmp_path, change, message):
    situation = {"game": "5000", "scores": [1000, 0], "to_move": 0, "turn_points": 300, "dice_left": 2, **change}
    path = tmp_path / "situation.json"
    path.write_text(json.dumps(situation))
    assert main(["advise", "--situation", str(path)]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "sheet, bonus, message",
    [
        ({"penta": 0, "ones": 5}, 100, "while the joker box holds points"),
        ({"ones": 5}, 100, "while the joker box holds points"),
        ({"penta": 50, "ones": 5}, 200, "paid at most once per box filled"),
    ],
)
def test_impossible_sheet_bonuses_are_refused(capsys, tmp_path, sheet, bonus, message):
    path = tmp_path / "situation.json"
    path.write_text(json.dumps({"game": "penta", "sheet": sheet, "penta_bonus": bonus}))
    assert main(["advise", "--situation", str(path)]) == 2
    assert message in capsys.readouterr().err
    assert advise_cli(capsys, tmp_path, {"game": "penta", "sheet": {"penta": 50, "ones": 5}, "penta_bonus": 100})["value"] > 0


def test_steps_the_clock_played_are_not_the_seats_decisions():
    """A turn the computer played for seat 0 when its clock ran out (events marked "clock", as the
    web app stores them) is left out of seat 0's decisions, also after the record is read back."""
    rules = rules_for("penta")
    match = play(rules, [make_player("optimal", rules) for _ in range(2)], SEED)
    record, turns, by_clock = match.to_json(), 0, []
    for index, (before, after) in enumerate(pairwise([match.initial, *replay(match.initial, match.events)])):
        mover = before.current
        if mover == 0 and turns in (2, 6):  # seat 0's second and fourth turns: every step by the clock
            record["events"][index]["clock"] = True
            by_clock.append(index)
        turns += after.current != mover
    result = review_record(json.loads(json.dumps(record)))
    assert set(by_clock) & set(real_choices(match))  # the clock did play real choices
    assert [d.index for d in result.decisions] == [i for i in real_choices(match) if i not in by_clock]
    seat_zero = next(player for player in result.players if player.seat == 0)
    assert seat_zero.decisions == len([d for d in result.decisions if d.seat == 0])
    check_luck_and_skill(result, match)


def test_cli_review_lists_kept_dice_in_ascending_order_as_the_options_do(capsys, tmp_path):
    """Issue 34 item 13b: the dice a decision kept read as the advice lists them (ascending), not as they lay."""
    match = Match(rules_for("penta"), ["Ana"], 4)
    match.roll()
    assert match.state.dice == (6, 6, 4, 3, 1)
    match.act(Keep((0, 1, 3)))  # 6 6 3 as they lay: the best keeps 6 6
    path = tmp_path / "penta.json"
    path.write_text(json.dumps(match.to_json()))
    assert main(["review", str(path)]) == 0
    assert "dice 6 6 4 3 1: keep 3 6 6 instead of keep 6 6," in capsys.readouterr().out
