"""`cubilete rules` and `cubilete score`, through the real entry point, bad input included."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import cubilete
from cubilete.cli.main import main
from cubilete.engine.games import GAMES


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("lang", ["es", "id", "en"])
def test_rules_pages_exist_in_every_language(capsys, game, lang):
    code, out, _ = run(capsys, "rules", game, "--lang", lang, "--json")
    page = json.loads(out)
    assert code == 0 and page["lang"] == lang and page["text"].startswith("# ")


def test_penta_pages_carry_the_seed_strings(capsys):
    _, es, _ = run(capsys, "rules", "penta", "--lang", "es")
    assert "«Validar el turno»" in es
    assert "«Ninguna casilla abierta puntúa: hay que sacrificar una»" in es
    _, id_, _ = run(capsys, "rules", "penta", "--lang", "id")
    assert '"Tidak ada kotak terbuka yang menghasilkan poin: salah satu harus dikorbankan"' in id_
    _, en, _ = run(capsys, "rules", "penta", "--lang", "en")
    assert "No open box scores: one must be sacrificed" in en
    _, five, _ = run(capsys, "rules", "5000", "--lang", "es")
    assert "¡Puedes jugar solo contra Bots!" in five


def test_rules_language_defaults_to_the_locale(capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "id_ID.UTF-8")
    _, out, _ = run(capsys, "rules", "penta", "--json")
    assert json.loads(out)["lang"] == "id"


def score(capsys, *argv):
    code, out, err = run(capsys, "score", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_score_lists_exactly_the_legal_boxes(capsys):
    got = score(capsys, "penta", "--dice", "4,4,4,4,4", "--sheet", '{"penta": 50}')
    assert got == {
        "game": "penta",
        "rules": "seed",
        "dice": [4, 4, 4, 4, 4],
        "boxes": [{"box": "fours", "points": 20, "bonus": 100}],
        "no_box_scores": False,
    }


def test_score_golden_examples(capsys):
    ones = score(capsys, "generala", "--dice", "1,1,1,4,5")["boxes"]
    assert {"box": "ones", "points": 3, "bonus": 0} in ones
    libre = score(capsys, "generala", "--dice", "1,4,4,5,6")["boxes"]
    assert {"box": "libre", "points": 20, "bonus": 0} in libre
    full = score(capsys, "penta", "--dice", "1,1,3,4,6", "--sheet",
                 '{"ones": 2, "threes": 3, "fours": 4, "sixes": 6, "chance": 15,'
                 ' "three_of_a_kind": 0, "four_of_a_kind": 0}')
    assert full["no_box_scores"] is True and len(full["boxes"]) == 6
    assert score(capsys, "penta", "--dice", "4,4,4,4,4", "--rules", "free", "--sheet",
                 '{"penta": 50, "fours": 8}')["boxes"][-1] == {"box": "chance", "points": 20, "bonus": 100}


def test_score_5000(capsys):
    assert score(capsys, "5000", "--dice", "1,1,5,6,4") == {
        "game": "5000", "dice": [1, 1, 5, 6, 4], "points": 250, "scoring_dice": 3
    }
    assert score(capsys, "5000", "--dice", "1,1,1")["points"] == 1100
    assert score(capsys, "5000", "--dice", "2,3")["points"] == 0
    assert score(capsys, "5000", "--dice", "1,1,1", "--rules", "three-ones-1000")["points"] == 1000


def test_score_human_output_shows_the_warning(capsys):
    code, out, _ = run(capsys, "score", "penta", "--dice", "1,1,3,4,6", "--sheet",
                       '{"ones": 2, "threes": 3, "fours": 4, "sixes": 6, "chance": 15,'
                       ' "three_of_a_kind": 0, "four_of_a_kind": 0}')
    assert code == 0 and out.strip().endswith("No open box scores: one must be sacrificed")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["penta", "--dice", "1,2,3,4"], "expected 5 dice, got 4"),
        (["penta", "--dice", "1,2,3,4,7"], "1 to 6"),
        (["penta", "--dice", "a,b"], "separated by commas"),
        (["penta", "--dice", "1,2,3,4,5", "--sheet", "{bad"], "--sheet is not valid JSON"),
        (["penta", "--dice", "1,2,3,4,5", "--sheet", '{"sevens": 1}'], "no box 'sevens'"),
        (["penta", "--dice", "1,2,3,4,5", "--sheet", '{"ones": 9}'], "cannot hold 9"),
        (["penta", "--dice", "1,2,3,4,5", "--rules", "american"], "no rule set 'american'"),
        (["5000", "--dice", "1,1,1,1,1,1"], "at most 5 dice|1 to 5 dice"),
        (["yacht", "--dice", "1"], "invalid choice"),
    ],
)
def test_bad_input_is_a_clear_message_and_exit_2(capsys, argv, message):
    try:
        code = main(["score", *argv])
    except SystemExit as exit:  # argparse refuses unknown choices itself
        code = exit.code
    err = capsys.readouterr().err
    assert code == 2
    assert re.search(message, err), err


def test_console_script_help_and_exit_status():
    cubilete = [sys.executable, "-m", "cubilete.cli.main"]
    done = subprocess.run([*cubilete, "score", "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "--dice" in done.stdout
    bad = subprocess.run([*cubilete, "score", "penta", "--dice", "9"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("cubilete: error:")


HEAVY_MODULES = ("numba", "numpy", "rich", "textual", "uvicorn", "matplotlib")
IMPORTED_AFTER = """
import json, sys
from cubilete.cli.main import main
main({argv!r})
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.parametrize(
    "argv", [["score", "penta", "--dice", "1,2,3,4,5"], ["score", "5000", "--dice", "1,5"], ["rules", "penta"]]
)
def test_engine_only_commands_import_no_solver_terminal_or_server_library(argv):
    """`score` and `rules` need the engine only: a fresh process must not load what solving,
    progress bars or serving need (their import time is most of a slow start)."""
    source = str(Path(cubilete.__file__).parents[1])
    result = subprocess.run(
        [sys.executable, "-c", IMPORTED_AFTER.format(argv=argv)],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": source},
    )
    imported = json.loads(result.stdout.splitlines()[-1])
    assert "cubilete.engine.games" in imported  # the probe ran the command
    heavy = sorted({name.split(".")[0] for name in imported} & set(HEAVY_MODULES))
    assert heavy == []
