"""Every section of docs/rules.md that the code or the tests cite exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules.md"
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
CITING_LINE = re.compile(r"docs/rules\.md(#[\w-]+)?")


def cited_anchors() -> set[tuple[str, str]]:
    """(file, anchor) for each `docs/rules.md#id` and each further `#id` on a line that cites the file."""
    cited = set()
    for path in [*ROOT.joinpath("src").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if CITING_LINE.search(line) and path.name != Path(__file__).name:
                tail = line[line.index("docs/rules.md") :]
                cited.update((path.name, anchor) for anchor in re.findall(r"#([\w-]+)", tail))
    return cited


def test_every_cited_section_exists():
    anchors = set(ANCHOR.findall(RULES.read_text(encoding="utf-8")))
    cited = cited_anchors()
    assert len(cited) > 20, "the engine cites the rule book"
    assert {(name, anchor) for name, anchor in cited if anchor not in anchors} == set()


def test_anchors_are_unique_and_links_resolve():
    text = RULES.read_text(encoding="utf-8")
    anchors = ANCHOR.findall(text)
    assert len(anchors) == len(set(anchors))
    links = set(re.findall(r"\]\(#([\w-]+)\)", text))
    assert links - set(anchors) == set()
