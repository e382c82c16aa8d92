"""Issue 34 ("Coming back without rough edges"), what a new player met in the home page's profile section and
around push, replayed by clicking: the recovery code on a 375-px phone (item 2), signing out (item 3), a
wrong recovery code and the two forms (item 4), the count of games waiting where push is not to be had
(item 6), and failures said in our words rather than the browser's (item 7). Each device is a browser
context of its own; the pages are opened at http://localhost (passkeys, the clipboard and push need a
secure context)."""

from __future__ import annotations

import pytest
from a11y import axe_violations
from harness import Server, free_port
from layout_checks import not_on_screen
from playwright.sync_api import expect
from test_profiles_browser import AUTHENTICATOR, PASSKEY_STEP_MS

LAPTOP = {"width": 1280, "height": 800}
IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)
# The installed app's badge (Badging API), as the page last set it: headless Chromium draws no icon.
RECORD_BADGE = "navigator.setAppBadge = async (count) => { window.badge = count; };"


@pytest.fixture(scope="module")
def service_workers() -> str:
    """The push switch waits for the page's service worker."""
    return "allow"


@pytest.fixture(scope="module")
def localhost(tmp_path_factory):
    """One server for the file (no solver tables: no move is played), reached as localhost."""
    folder = tmp_path_factory.mktemp("profile-forms")
    server = Server(f"sqlite:///{folder / 'games.sqlite3'}", free_port(), folder / "server.log")
    server.start()
    yield f"http://localhost:{server.port}"
    server.stop()


def new_profile(page, url: str, name: str) -> dict:
    """A profile claimed elsewhere (another device of the player's): its answer, with its recovery code."""
    made = page.request.post(f"{url}/api/profiles", data={"name": name})
    assert made.ok, made.text()
    return made.json()


def game_of_profile(page, url: str, secret: str) -> str:
    """A game the profile's device started with a friend invited: its first seat, the profile's, is to move."""
    players = [{"name": "Ana", "kind": "human"}, {"name": "Beto", "kind": "human", "invited": True}]
    created = page.request.post(
        f"{url}/api/games", data={"game": "penta", "players": players}, headers={"Authorization": f"Bearer {secret}"}
    )
    assert created.ok, created.text()
    return created.json()["id"]


def sign_in_with_code(page, code: str) -> None:
    page.fill("[data-profile-recovery]", code)
    page.click("[data-action='recover-profile']")


def start_with_a_friend(page, url: str) -> None:
    """Start a Penta game from the form, this device's seat first and a friend's invited, and open it."""
    page.goto(f"{url}/")
    page.click("[data-game-choice='penta']")
    page.fill("[name='name-0']", "Ana")
    page.click("[data-action='add-player']")
    page.select_option("[name='kind-1']", "friend")
    page.click("[data-action='start']")
    page.click("[data-action='go-to-game']")
    expect(page.locator("#table[data-ready]")).to_be_attached()


@pytest.mark.slow  # the quick suite types a wrong code: the slow step runs this one
def test_item_2_the_recovery_code_fits_a_phone_and_is_copied_downloaded_and_typed_in_its_groups(localhost, new_page):
    phone = new_page(locale="en-US")  # 375x667
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=localhost)
    phone.goto(f"{localhost}/")
    phone.fill("[data-profile-name]", "Ana")
    phone.click("[data-action='create-profile']")
    code = phone.locator("[data-profile-code-shown]")
    expect(code).to_be_visible()
    secret = phone.evaluate("JSON.parse(localStorage.getItem('cubilete-profile')).secret")
    expect(code).to_have_text(secret)  # its groups are boxes, not spaces: the code selected and copied is the code
    assert code.inner_text() == secret
    written_down = " ".join(code.locator("span").all_inner_texts())  # as the player copies it onto paper
    code.scroll_into_view_if_needed()
    assert not_on_screen(phone, "[data-profile-code-shown] span") == []  # every group on the screen's width
    assert phone.evaluate("document.documentElement.scrollWidth") == 375  # the page no wider than the phone
    assert axe_violations(phone) == []

    phone.click("[data-action='copy-recovery-code']")
    expect(phone.locator("[data-profile-note]")).to_have_text("Copied.")
    assert phone.evaluate("navigator.clipboard.readText()") == secret
    with phone.expect_download() as downloading:
        phone.click("[data-action='download-recovery-code']")
    download = downloading.value
    assert download.suggested_filename == "cubilete-recovery-code.txt"
    with open(download.path(), encoding="utf-8") as file:
        assert file.read() == f"Recovery code of the profile Ana on {localhost}:\n{secret}\n"
    phone.click("[data-action='recovery-code-kept']")
    expect(phone.locator("[data-profile-link]")).to_have_text("Ana")

    laptop = new_page(locale="en-US", viewport=LAPTOP)
    laptop.goto(f"{localhost}/")
    sign_in_with_code(laptop, written_down)
    expect(laptop.locator("[data-profile-link]")).to_have_text("Ana")


@pytest.mark.parametrize(
    ("locale", "create_title", "sign_in_title", "not_valid"),
    [
        (
            "es-AR",
            "Perfil nuevo",
            "¿Ya tienes un perfil? Entra",
            "Este código de recuperación no es válido: revísalo e inténtalo de nuevo.",
        ),
        pytest.param(  # the other languages' words are the catalogs' (tests/i18n): their pages in the slow step
            "id-ID",
            "Profil baru",
            "Sudah punya profil? Masuk",
            "Kode pemulihan ini tidak valid: periksa lalu coba lagi.",
            marks=pytest.mark.slow,
        ),
        pytest.param(
            "en-US",
            "New profile",
            "Already have a profile? Sign in",
            "This recovery code is not valid: check it and try again.",
            marks=pytest.mark.slow,
        ),
    ],
    ids=["es", "id", "en"],
)
def test_item_4_a_wrong_recovery_code_is_said_not_valid_in_a_part_apart_from_creating_one(
    localhost, new_page, locale, create_title, sign_in_title, not_valid
):
    page = new_page(locale=locale)
    page.goto(f"{localhost}/")
    creating = page.get_by_role("region", name=create_title)
    signing_in = page.get_by_role("region", name=sign_in_title)
    expect(creating.locator("[data-profile-name]")).to_be_visible()
    expect(signing_in.locator("[data-profile-recovery]")).to_be_visible()
    expect(creating.locator("[data-profile-recovery]")).to_have_count(0)
    expect(signing_in.locator("[data-profile-name]")).to_have_count(0)

    sign_in_with_code(page, "abcd efgh ijkl mnop")  # mistyped
    expect(page.locator("[data-profile-error]")).to_have_text(not_valid)
    assert page.evaluate("localStorage.getItem('cubilete-profile')") is None
    expect(signing_in.locator("[data-profile-recovery]")).to_be_visible()  # still signed out, free to try again
    assert axe_violations(page) == []  # the two parts, their titles and the error


@pytest.mark.slow  # the quick suite keeps this file's items 4, 6 and 7: the slow step runs this one
def test_item_3_signing_out_forgets_the_profiles_games_on_this_device_after_saying_so(localhost, new_page):
    laptop = new_page(locale="en-US", viewport=LAPTOP)
    ana = new_profile(laptop, localhost, "Carla")
    profile_games = [game_of_profile(laptop, localhost, ana["secret"]) for _ in range(2)]
    start_with_a_friend(laptop, localhost)  # a game of this device's own, before signing in
    own_game = laptop.url.rsplit("/", 1)[1]
    laptop.goto(f"{localhost}/")
    sign_in_with_code(laptop, ana["secret"])
    expect(laptop.locator("[data-profile-link]")).to_have_text("Carla")
    for game in [*profile_games, own_game]:
        expect(laptop.locator(f"[data-resume='{game}'] [data-turn-status='mine']")).to_have_text("Your turn")
    expect(laptop).to_have_title("(3) cubilete")

    laptop.click("[data-action='sign-out']")
    dialog = laptop.locator("[data-profile-confirm]")
    expect(dialog).to_contain_text("Sign out on this device?")
    expect(dialog).to_contain_text("This device forgets your profile, and 2 games of yours are no longer listed on it.")
    laptop.click("[data-action='cancel-profile']")
    expect(laptop.locator("[data-profile-link]")).to_have_text("Carla")  # nothing forgotten yet
    expect(laptop.locator("[data-resume]")).to_have_count(3)

    laptop.click("[data-action='sign-out']")
    laptop.click("[data-action='confirm-profile']")
    expect(laptop.locator("[data-action='create-profile']")).to_be_visible()
    expect(laptop.locator("[data-resume]")).to_have_count(1)
    expect(laptop.locator(f"[data-resume='{own_game}']")).to_be_visible()
    expect(laptop).to_have_title("(1) cubilete")
    held = laptop.evaluate("Object.keys(localStorage).filter((key) => key.startsWith('cubilete.tokens.'))")
    assert held == [f"cubilete.tokens.{own_game}"]  # the profile's seat tokens are gone from this device
    laptop.reload()
    expect(laptop.locator("[data-unfinished-section]")).to_be_visible()
    expect(laptop.locator("[data-resume]")).to_have_count(1)


def test_item_6_without_push_the_home_page_its_title_and_the_badge_count_the_games_waiting(
    localhost, new_page, cdp_session
):
    iphone = new_page(locale="es-AR")  # Safari on an iPhone, outside the app on the Home Screen: no push there
    cdp_session(iphone).send("Emulation.setUserAgentOverride", {"userAgent": IPHONE_SAFARI, "platform": "iPhone"})
    iphone.context.add_init_script(RECORD_BADGE)
    for _ in range(2):
        start_with_a_friend(iphone, localhost)
    iphone.click("[data-action='settings']")
    switch = iphone.locator("#settings [data-push-opt-in]")
    expect(switch.locator("input[name='push']")).to_be_disabled()
    expect(switch.locator("[data-push-note]")).to_have_text(
        "En iPhone y iPad, las notificaciones necesitan la app en la pantalla de inicio: toca Compartir, luego "
        "Agregar a inicio, y ábrela desde allí. Mientras tanto, la página de inicio y el título de su pestaña "
        "cuentan las partidas en las que es tu turno."
    )

    iphone.goto(f"{localhost}/")
    expect(iphone.locator("[data-waiting-count]")).to_have_text("Es tu turno en 2 partidas")
    expect(iphone).to_have_title("(2) cubilete")
    assert iphone.evaluate("window.badge") == 2


def test_item_7_push_and_passkey_failures_are_said_in_our_words_and_the_browsers_text_logged(
    localhost, new_page, cdp_session
):
    laptop = new_page(locale="id-ID", viewport=LAPTOP)
    logged = []
    laptop.on("console", lambda message: logged.append(message.text) if message.type == "warning" else None)
    laptop.context.grant_permissions(["notifications"], origin=localhost)
    start_with_a_friend(laptop, localhost)
    laptop.click("[data-action='settings']")
    # headless Chromium has no push service: the page turns the switch off again as it says why, maybe before
    # Playwright's check() could see it on, so a click
    laptop.click("#settings [data-push-opt-in] input[name='push']")
    expect(laptop.locator("#settings [data-push-note]")).to_have_text(
        "Notifikasi tidak dapat diaktifkan: layanan push peramban ini tidak menerima langganan (dimatikan, jendela "
        "pribadi, atau tidak terjangkau): coba lagi nanti, atau di peramban lain"
    )
    assert any("Registration failed" in text for text in logged), logged  # the browser's words, for a developer

    session = cdp_session(laptop)
    session.send("WebAuthn.enable")
    authenticator = session.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})["authenticatorId"]
    try:
        laptop.goto(f"{localhost}/")
        laptop.fill("[data-profile-name]", "Dewi")
        laptop.click("[data-action='create-profile']")
        laptop.click("[data-action='recovery-code-kept']")
        laptop.click("[data-action='add-passkey']")
        expect(laptop.locator("[data-profile-note]")).to_contain_text("Kunci sandi ditambahkan", timeout=PASSKEY_STEP_MS)
        laptop.click("[data-action='add-passkey']")  # this authenticator holds one of the profile's already
        expect(laptop.locator("[data-profile-error]")).to_have_text(
            "Perangkat ini sudah menyimpan kunci sandi profil ini.", timeout=PASSKEY_STEP_MS
        )
    finally:
        session.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": authenticator})
        session.send("WebAuthn.disable")
