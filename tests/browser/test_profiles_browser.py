"""Profiles in two browser contexts (two devices): one claims a name, starts a game by clicking the form
and adds a passkey (Chromium's virtual authenticator, through the DevTools protocol); the other signs in
with that passkey and its home page lists the same game. WebAuthn needs a secure context: the pages are
opened at http://localhost."""

from __future__ import annotations

import pytest
from harness import Server, free_port, next_action
from playwright.sync_api import expect

from cubilete.web.i18n import messages

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}
PASSKEY_STEP_MS = 20_000  # a passkey's round (page, server, authenticator) on a busy machine


def play_together(device, url: str, creator_secret: str, friend_secret: str) -> None:
    """The players' history, set up by the API: a game of the creator's whose invite the friend's profile
    claimed. Only then may either reserve a seat for the other ("play with Beto again", issue 32)."""
    players = [{"name": "Ana", "kind": "human"}, {"name": "Beto", "kind": "human", "invited": True}]
    created = device.request.post(
        f"{url}/api/games", data={"game": "penta", "players": players},
        headers={"Authorization": f"Bearer {creator_secret}"},
    ).json()
    claim = device.request.post(
        f"{url}/api/games/{created['id']}/seats/1/claim", data={"invite": created["seats"][1]["invite"]},
        headers={"Authorization": f"Bearer {friend_secret}"},
    )
    assert claim.ok, claim.text()


def profile_secret(device) -> str:
    """The device's profile secret, as the page keeps it."""
    return device.evaluate("JSON.parse(localStorage.getItem('cubilete-profile')).secret")


@pytest.fixture
def localhost(tmp_path):
    """A server of its own (no solver tables: the test plays no move), reached as localhost."""
    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", free_port(), tmp_path / "server.log")
    server.start()
    yield f"http://localhost:{server.port}"
    server.stop()


@pytest.fixture
def authenticator(cdp_session):
    """Makes a virtual passkey authenticator in a page's browser context (answers its DevTools session and
    id), and removes each one after the test, before its session detaches and its context closes: a WebAuthn
    request still pending then (a step that failed on a busy machine) fails at once rather than holding the close."""
    made = []

    def add(page) -> tuple[object, str]:
        session = cdp_session(page)
        session.send("WebAuthn.enable")
        found = session.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
        made.append((page, session, found["authenticatorId"]))
        return session, found["authenticatorId"]

    try:
        yield add
    finally:
        for page, session, authenticator_id in made:
            if page.context.browser.is_connected():  # else the watchdog killed it
                session.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": authenticator_id})
                session.send("WebAuthn.disable")


@pytest.mark.slow
def test_a_passkey_added_on_one_device_signs_in_another_that_sees_the_same_games(localhost, new_page, authenticator):
    phone = new_page(locale="en-US")
    phone_session, phone_authenticator = authenticator(phone)
    phone.goto(f"{localhost}/")
    phone.fill("[data-profile-name]", "Beto")
    phone.click("[data-action='create-profile']")
    code = phone.locator("[data-profile-code-shown]")
    expect(code).to_be_visible()  # the recovery code, shown once: this device's secret
    expect(code).to_have_text(phone.evaluate("JSON.parse(localStorage.getItem('cubilete-profile')).secret"))
    phone.click("[data-action='recovery-code-kept']")
    expect(phone.locator("[data-profile-link]")).to_have_text("Beto")
    expect(phone.locator("[data-profile-link]")).to_have_attribute("href", "/profile/Beto")

    phone.fill("[name='name-0']", "Beto")
    phone.click("[data-action='start']")
    phone.wait_for_url("**/game/*")
    game_id = phone.url.rsplit("/", 1)[1]
    phone.goto(f"{localhost}/")
    phone.click("[data-action='add-passkey']")
    expect(phone.locator("[data-profile-note]")).to_contain_text("Passkey added", timeout=PASSKEY_STEP_MS)
    [credential] = phone_session.send("WebAuthn.getCredentials", {"authenticatorId": phone_authenticator})[
        "credentials"
    ]
    assert credential["isResidentCredential"]

    laptop = new_page(locale="es-ES")
    laptop_session, laptop_authenticator = authenticator(laptop)
    laptop_session.send("WebAuthn.addCredential", {"authenticatorId": laptop_authenticator, "credential": credential})
    laptop.goto(f"{localhost}/")
    expect(laptop.locator(f"[data-resume='{game_id}']")).to_have_count(0)
    laptop.click("[data-action='passkey-sign-in']")
    expect(laptop.locator("[data-profile-link]")).to_have_text("Beto", timeout=PASSKEY_STEP_MS)
    expect(laptop.locator(f"[data-resume='{game_id}']")).to_be_visible()  # the profile's game, on this device too
    secrets = [page.evaluate("JSON.parse(localStorage.getItem('cubilete-profile')).secret") for page in (phone, laptop)]
    assert secrets[0] != secrets[1]  # each device has its own secret

    laptop.click("[data-action='sign-out']")
    expect(laptop.locator("[data-profile-confirm]")).to_contain_text("1 partida tuya deja de aparecer en su lista")
    laptop.click("[data-action='confirm-profile']")
    expect(laptop.locator("[data-action='passkey-sign-in']")).to_be_visible()
    assert laptop.evaluate("localStorage.getItem('cubilete-profile')") is None
    expect(laptop.locator(f"[data-resume='{game_id}']")).to_have_count(0)  # the profile's game left with it
    laptop.fill("[data-profile-recovery]", secrets[0])  # the recovery code the phone showed once
    laptop.click("[data-action='recover-profile']")
    expect(laptop.locator("[data-profile-link]")).to_have_text("Beto")
    expect(laptop.locator(f"[data-resume='{game_id}']")).to_be_visible()


@pytest.mark.slow
def test_play_with_a_profile_again_then_rename_and_delete_ones_own(localhost, new_page):
    page = new_page(locale="en-US")
    beto = page.request.post(f"{localhost}/api/profiles", data={"name": "Beto"}).json()
    page.goto(f"{localhost}/profile/Beto")
    expect(page.locator("[data-play-with]")).to_be_hidden()  # only a signed-in visitor may reserve a seat
    page.goto(f"{localhost}/")
    page.fill("[data-profile-name]", "Ana")
    page.click("[data-action='create-profile']")
    page.click("[data-action='recovery-code-kept']")
    expect(page.locator("[data-profile-link]")).to_have_text("Ana")
    page.goto(f"{localhost}/profile/Beto")
    expect(page.locator("[data-play-with]")).to_have_text("Play with Beto again")  # the profile's answer is drawn ...
    expect(page.locator("[data-play-with]")).to_be_hidden()  # ... and a stranger, signed in, is not offered the seat
    play_together(page, localhost, profile_secret(page), beto["secret"])

    page.goto(f"{localhost}/profile/beto")
    play_with = page.locator("[data-play-with]")
    expect(play_with).to_have_text("Play with Beto again")
    play_with.click()
    expect(page.locator("[name='name-1']")).to_have_value("Beto")
    expect(page.locator("[name='kind-1']")).to_have_value("friend")
    page.fill("[name='name-0']", "Ana")
    page.click("[data-action='start']")
    page.wait_for_url("**/game/*")  # no invite to send: the seat is Beto's already
    game_id = page.url.rsplit("/", 1)[1]
    seats = page.request.get(
        f"{localhost}/api/profiles/me/seats", headers={"Authorization": f"Bearer {beto['secret']}"}
    )
    assert (game_id, 1) in [(seat["game"], seat["seat"]) for seat in seats.json()]

    page.goto(f"{localhost}/")
    page.fill("[data-profile-new-name]", "Anita")
    page.click("[data-action='rename-profile']")
    expect(page.locator("[data-profile-link]")).to_have_text("Anita")
    page.click("[data-action='delete-profile']")
    expect(page.locator("[data-profile-confirm]")).to_contain_text("Anita")
    page.click("[data-action='confirm-profile']")
    expect(page.locator("[data-action='create-profile']")).to_be_visible()
    assert page.request.get(f"{localhost}/api/profiles/Anita").status == 404


def claim_profile(page, url: str, name: str) -> None:
    """Claim a profile on the home page, as a player does (the recovery code kept)."""
    page.goto(f"{url}/")
    page.fill("[data-profile-name]", name)
    page.click("[data-action='create-profile']")
    page.click("[data-action='recovery-code-kept']")
    expect(page.locator("[data-profile-link]")).to_have_text(name)


@pytest.mark.slow  # the quick suite seats a signed-in player: the slow step runs this one
def test_a_signed_in_players_seat_is_her_profiles_name_and_default_names_read_in_the_friends_language(
    localhost, new_page
):
    """Issue 34, item 1: Ana signs in and starts a game with a friend, leaving the form's names; Rudi, on an
    Indonesian phone, reads her name, not "Jugador 1", and his own seat's name in Indonesian."""
    ana = new_page(locale="es-ES")
    claim_profile(ana, localhost, "Ana")
    ana.reload()
    expect(ana.locator("[name='name-0']")).to_have_value("Ana")  # her profile, not "Jugador 1"
    expect(ana.locator("[data-my-name]")).to_have_value("Ana")
    rows = ana.locator("[data-player-row]")
    if rows.count() < 2:
        ana.click("[data-action='add-player']")
    rows.nth(1).locator("[data-player-kind]").select_option("friend")
    expect(rows.nth(1).locator("[data-player-name]")).to_have_value("Jugador 2")
    ana.click("[data-action='start']")
    invite = ana.locator("[data-invite-link][data-seat='1']").get_attribute("href")

    rudi = new_page(locale="id-ID")
    rudi.goto(invite)
    waiting = messages("id")["Waiting for {name}, who plays on another device"].format(name="Ana")
    expect(rudi.locator("[data-message]")).to_have_text(waiting)
    expect(rudi.locator("th.seat[data-seat='1']")).to_have_text("Pemain 2")
    rudi.goto(f"{localhost}/")
    expect(rudi.locator("[data-resume]")).to_contain_text("Ana, Pemain 2")


@pytest.mark.slow  # the quick suite seats a signed-in player: the slow step runs this one
def test_the_home_page_lists_whom_she_played_with_and_plays_again_with_a_tap(localhost, new_page):
    """Issue 34, item 5: Ana played Generala with Beto (a 3-day clock, hints allowed); her home page lists
    him, linked to his page, and "Play again" sets up that game with his seat reserved for his profile,
    which the form says; it starts with no invite to send."""
    ana = new_page(locale="es-ES")
    claim_profile(ana, localhost, "Ana")
    beto = ana.request.post(f"{localhost}/api/profiles", data={"name": "Beto"}).json()
    players = [{"name": "Ana", "kind": "human"}, {"name": "Beto", "kind": "human", "invited": True}]
    last = ana.request.post(
        f"{localhost}/api/games", headers={"Authorization": f"Bearer {profile_secret(ana)}"},
        data={"game": "generala", "players": players, "turn_clock": "3d", "hints_allowed": True},
    ).json()
    claim = ana.request.post(
        f"{localhost}/api/games/{last['id']}/seats/1/claim", data={"invite": last["seats"][1]["invite"]},
        headers={"Authorization": f"Bearer {beto['secret']}"},
    )
    assert claim.ok, claim.text()

    ana.goto(f"{localhost}/")
    friend = ana.locator("[data-played-with='Beto']")
    expect(friend.get_by_role("link", name="Beto")).to_have_attribute("href", "/profile/Beto")
    friend.locator("[data-action='play-again']").click()
    expect(ana.locator("[data-game-choice='generala'] input")).to_be_checked()
    expect(ana.locator("[name='name-0']")).to_have_value("Ana")
    expect(ana.locator("[name='kind-1']")).to_have_value("friend")
    expect(ana.locator("[name='name-1']")).to_have_value("Beto")
    expect(ana.locator("[data-reserved-note]")).to_have_text(
        "Este puesto está reservado para el perfil de Beto: no hace falta invitación, la partida aparece en sus partidas."
    )
    expect(ana.locator("[data-turn-clock]")).to_have_value("3d")
    expect(ana.locator("[data-hints-allowed]")).to_be_checked()
    ana.click("[data-action='start']")
    ana.wait_for_url("**/game/*")  # no invite to send
    game_id = ana.url.rsplit("/", 1)[1]
    betos = ana.request.get(f"{localhost}/api/profiles/me/seats", headers={"Authorization": f"Bearer {beto['secret']}"})
    assert (game_id, 1) in [(seat["game"], seat["seat"]) for seat in betos.json()]
    view = ana.request.get(f"{localhost}/api/games/{game_id}").json()
    assert view["game"] == "generala" and view["hints"] == "agreed"


def test_a_signed_in_players_name_at_the_table_links_to_her_profiles_page(localhost, new_page):
    """Issue 34, item 5b: Ana, signed in, starts a game with a friend; on Rudi's phone her column's name
    links to her profile's page, his own (no profile) is a name alone, and a tap on hers opens her page."""
    ana = new_page(locale="es-ES")
    claim_profile(ana, localhost, "Ana")
    ana.reload()
    rows = ana.locator("[data-player-row]")
    if rows.count() < 2:
        ana.click("[data-action='add-player']")
    rows.nth(1).locator("[data-player-kind]").select_option("friend")
    ana.click("[data-action='start']")
    invite = ana.locator("[data-invite-link][data-seat='1']").get_attribute("href")
    ana.click("[data-action='go-to-game']")
    expect(ana.locator("th.seat[data-seat='0'] a")).to_have_attribute("href", "/profile/Ana")

    rudi = new_page(locale="id-ID")
    rudi.goto(invite)
    expect(rudi.locator("th.seat[data-seat='1']")).to_have_text("Pemain 2")
    expect(rudi.locator("th.seat[data-seat='1'] a")).to_have_count(0)
    rudi.locator("th.seat[data-seat='0']").get_by_role("link", name="Ana").click()
    rudi.wait_for_url(f"{localhost}/profile/Ana")
    expect(rudi.locator("[data-player-name]")).to_have_text("Ana")


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_the_end_of_a_game_links_a_profiles_seat_to_its_page(localhost, new_page):
    """Issue 34, item 5b: Ana, signed in, played Penta with Beto on her phone (through the API: the ranking is
    what the test reads); the end of the game links her name to her profile's page, not Beto's."""
    ana = new_page(locale="es-ES")
    claim_profile(ana, localhost, "Ana")
    players = [{"name": "Ana", "kind": "human"}, {"name": "Beto", "kind": "human"}]
    created = ana.request.post(
        f"{localhost}/api/games", headers={"Authorization": f"Bearer {profile_secret(ana)}"},
        data={"game": "penta", "players": players},
    ).json()
    view = ana.request.get(f"{localhost}/api/games/{created['id']}").json()
    while not view["is_over"]:
        seat = view["current_player"]
        body = {"seat": seat, "token": created["seats"][seat]["token"], "action": next_action(view)}
        view = ana.request.post(f"{localhost}/api/games/{created['id']}/actions", data=body).json()
    ana.goto(f"{localhost}{created['url']}")
    ranking = ana.locator("[data-game-over] [data-ranking]")
    expect(ranking.locator("li[data-player='0'] .name a")).to_have_attribute("href", "/profile/Ana")
    expect(ranking.locator("li[data-player='1'] .name")).to_have_text("Beto")
    expect(ranking.locator("li[data-player='1'] .name a")).to_have_count(0)
