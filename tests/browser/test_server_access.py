"""A friends' server set up from the environment alone (CUBILETE_CREATION_PASSWORD,
CUBILETE_NO_OPEN_TABLES): the home form asks the password once, says so in the player's language
when it is wrong, and keeps it for the next game; no open tables are offered; making a profile asks it
too."""

from __future__ import annotations

import pytest
from harness import Server, free_port
from playwright.sync_api import expect

PASSWORD = "jueves"


@pytest.fixture
def friends_server(tmp_path):
    env = {"CUBILETE_CREATION_PASSWORD": PASSWORD, "CUBILETE_NO_OPEN_TABLES": "1"}
    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", free_port(), tmp_path / "server.log", env=env)
    yield server.start()
    server.stop()


@pytest.mark.slow  # a server of its own; the quick suite checks the password in tests/web/test_web_access.py
def test_the_home_form_asks_the_servers_password_once(friends_server, new_page):
    page = new_page()
    page.goto(f"{friends_server.url}/")
    page.click("[data-game='penta']")  # one seat on this device: a solo game, no bots
    password = page.locator("[data-creation-password]")
    expect(password).to_be_visible()
    expect(page.locator("[data-public-row]")).to_be_hidden()

    password.fill("martes")
    page.click("[data-action='start']")
    expect(page.locator("[data-error]")).to_contain_text("Esa no es la contraseña de este servidor")
    expect(password).to_be_focused()

    password.fill(PASSWORD)
    page.click("[data-action='start']")
    page.wait_for_url("**/game/*")
    first_game = page.url

    page.goto(f"{friends_server.url}/")  # the next game: the password is kept, not asked again
    page.click("[data-game='penta']")
    expect(password).to_be_hidden()
    page.click("[data-action='start']")
    page.wait_for_url(lambda url: "/game/" in url and url != first_game)


@pytest.mark.slow  # a server of its own through a whole scenario: the slow step runs it
def test_making_a_profile_asks_the_servers_password(friends_server, new_page):
    page = new_page(locale="en-US")
    page.goto(f"{friends_server.url}/")
    page.fill("[data-profile-name]", "Ana")
    page.click("[data-action='create-profile']")
    expect(page.locator("[data-profile-error]")).to_contain_text("This server asks for its password to make a profile")
    password = page.locator("[data-creation-password]")
    expect(password).to_be_visible()
    password.fill(PASSWORD)
    page.click("[data-action='create-profile']")
    page.click("[data-action='recovery-code-kept']")
    expect(page.locator("[data-profile-link]")).to_have_text("Ana")
    expect(password).to_be_hidden()  # kept: the next game asks it no more
