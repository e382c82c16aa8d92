"""`cubilete serve` as the README starts it listens on 127.0.0.1: it says, in the user's language, that
friends' phones cannot reach it and how to let them in; a server others reach says nothing of it."""

from __future__ import annotations

import pytest
from harness import Server, free_port

from cubilete.cli.commands.serve import this_device_only
from cubilete.cli.texts import Texts

HINTS = {
    "en": "friends' phones cannot open its links",
    "es": "los teléfonos de tus amigos no pueden abrir sus enlaces",
    "id": "ponsel teman Anda tidak dapat membuka tautannya",
}


@pytest.mark.parametrize("lang", sorted(HINTS))
def test_the_hint_says_how_to_let_friends_in_in_every_language(lang):
    hint = this_device_only(Texts(lang))
    assert HINTS[lang] in hint and "cubilete serve --host 0.0.0.0" in hint


def serve(tmp_path, *options: str) -> Server:
    log = tmp_path / f"server{len(options)}.log"
    env = {"LANG": "es_ES.UTF-8", "LC_ALL": ""}
    return Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", free_port(), log, env=env, options=options)


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_serve_on_loopback_says_friends_cannot_reach_it_and_a_public_url_does_not(tmp_path):
    for options, hinted in (((), True), (("--public-url", "https://dice.example"), False)):
        server = serve(tmp_path, *options).start()
        try:
            printed = server.log.read_text()
        finally:
            server.stop()
        assert "cubilete is listening on:" in printed
        assert (HINTS["es"] in printed and "--host 0.0.0.0" in printed) is hinted, printed
