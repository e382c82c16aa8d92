"""axe-core in the browser tests: the copy that the `axe-playwright-python` package ships (no CDN),
injected into the page by Playwright; a page passes with no violation of axe's default rules."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

_AXE = Axe()


def axe_violations(page) -> list[str]:
    """Each violation of axe-core's default rules on the page as it is now, in one line per element."""
    found = _AXE.run(page).response["violations"]
    return [
        f"{violation['id']} ({violation['impact']}): {node['target']} {node['failureSummary']}".replace("\n", " ")
        for violation in found
        for node in violation["nodes"]
    ]
