"""`cubilete stats --plot FILE`: the exact distribution drawn as a PNG or an SVG, and a clear
exit when the file type is unknown or the optional extra `plots` (matplotlib) is missing."""

from __future__ import annotations

import json
import struct
import sys
import xml.etree.ElementTree as ElementTree

import pytest

from cubilete.cli.main import main

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SVG = "{http://www.w3.org/2000/svg}"


def test_a_png_plot_is_a_valid_png_and_the_report_is_printed_as_before(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "generala.png"
    assert main(["stats", "generala", "--plot", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "generala" and data["distribution"]
    png = path.read_bytes()
    assert png[:8] == PNG_SIGNATURE and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (1200, 675)  # 8 x 4.5 inches at 150 dpi
    assert png.endswith(b"IEND\xaeB`\x82")


def test_an_svg_plot_draws_a_bar_per_total_and_names_the_game(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "GENERALA.SVG"  # the extension's case does not matter
    assert main(["stats", "generala", "--plot", str(path), "--json"]) == 0
    totals = len(json.loads(capsys.readouterr().out)["distribution"])
    root = ElementTree.parse(path).getroot()  # well-formed XML, an SVG document
    assert root.tag == f"{SVG}svg"
    patches = [group for group in root.iter(f"{SVG}g") if group.get("id", "").startswith("patch_")]
    assert totals <= len(patches) <= totals + 8  # a bar per total reached, and the frame's few
    text = path.read_text(encoding="utf-8")  # matplotlib draws text as paths, each after its words as a comment
    assert "generala (seed): final total of optimal solitaire play, exact" in text


def test_an_unknown_file_type_exits_2_before_any_computation(capsys, tmp_path):
    assert main(["stats", "penta", "--plot", str(tmp_path / "plot.pdf")]) == 2
    err = capsys.readouterr().err
    assert "--plot writes a .png or .svg file, not 'plot.pdf'" in err
    assert not (tmp_path / "plot.pdf").exists()


def test_without_the_plots_extra_the_error_says_which_extra_to_install(capsys, tmp_path, monkeypatch):
    for name in [name for name in sys.modules if name == "matplotlib" or name.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now raises ImportError
    path = tmp_path / "plot.png"
    assert main(["stats", "generala", "--plot", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before computing anything
    assert "--plot needs matplotlib" in captured.err and "pip install 'cubilete[plots]'" in captured.err
    assert not path.exists()


@pytest.mark.slow  # Penta's exact statistics take seconds; Generala's line is checked in the quick suite
def test_13_stats_names_the_upper_bonus_in_a_game_with_one(capsys):
    """Issue 34, item 13 (tests/cli/test_cli_sheet_solver.py checks that Generala has no such line)."""
    assert main(["stats", "penta"]) == 0
    assert "upper bonus" in capsys.readouterr().out
