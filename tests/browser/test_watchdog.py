"""The watchdog on Playwright's calls without a timeout: a call that hangs ends, Chromium killed, with a
failure naming it, and the next test gets a new Chromium."""

from __future__ import annotations

import time

import pytest
from watchdog import Watchdog


def test_a_hung_evaluate_fails_naming_it_and_the_next_test_gets_a_new_chromium(chromium):
    page = chromium.current().new_page()
    watchdog = Watchdog(bound=1).start()
    try:
        hung = watchdog.guard("Page.evaluate", page.evaluate)
        assert hung("1 + 1") == 2  # within the bound: untouched
        with pytest.raises(pytest.fail.Exception, match=r"^Page\.evaluate did not return within 1 s: Chromium was killed"):
            hung("new Promise(() => {})")  # never settles
    finally:
        watchdog.stop()
    deadline = time.monotonic() + 10
    while chromium.browser.is_connected():
        assert time.monotonic() < deadline, "Chromium still connected"
        time.sleep(0.05)
    again = chromium.current().new_page()
    try:
        assert again.evaluate("1 + 1") == 2
    finally:
        again.close()
