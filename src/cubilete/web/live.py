"""A game followed live over a WebSocket: each change is pushed to every browser of the game.

Every message the server sends is a JSON object with a `type`, so that a page ignores what it does not
know (a page loaded before an upgrade, a server of the next release): the browser connects with the
number of events it has seen (`since`) and receives the game with every step since then
(`{"type": "view", ...}`); after that, one view per change the broker announces, and a seat's
reaction (web/reactions.py) as a message of its own, `{"type": "reaction", "reaction": {"seat": 1,
"key": "wow"}}`. The page may send `{"type": "since", "since": n}` at any time (after waking up) to
receive the steps after n again, and `{"type": "seats", "seats": {"0": token, ...}}` once to say which
seats it plays: while it is connected they are present (web/presence.py), and each view it receives
lists the human seats no page is connected for (`away`); when only that list changes (a seat's page
connects or leaves), the page is sent the list alone, `{"type": "away", "away": [1]}`, not the game again;
and `{"type": "visible", "visible": false}` (or true) when the page is hidden or shown again, so that push
tells a seat it is its turn only while none of its pages is in sight (passed on at most once a second:
web/page_visibility.py; it changes no page's view). The same without `type` (`{"since": n}`, `{"seats": ...}`,
`{"visible": ...}`, as pages before 0.3.0 send them) is read alike. Anything else closes the
socket with BAD_REQUEST and a reason. A game that is not there, cannot be read, or whose database
fails closes the socket with a code of its own and the refusal's code as reason. A game whose
spectators fill its bound (web/socket_limits.py) lets in only a page whose first message proves a seat
(as a seat's page sends it at once), within PROOF_SECONDS; any other is closed with 4429. So must a page of
a daily challenge whose day has not ended (web/daily_secrecy.py); any other is closed with 4403.
Views are built in a worker thread under the game's lock, so that they are never torn.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import suppress
from functools import partial
from typing import Any, NamedTuple

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from ..engine.errors import CubileteError, InvalidRecord
from ..storage import DATABASE_FAILURES
from .broker import Broker, News, Reacted, SeatsPresent
from .catch_up import GameNotFound
from .games import Games
from .page_visibility import PacedVisibility
from .presence import Presence
from .seats import HUMAN
from .services import Services
from .socket_limits import TOO_MANY
from .views import game_view

NOT_FOUND = 4404  # a WebSocket close code in the range left to applications
BAD_REQUEST = 4400
DAILY_SECRET = 4403  # a daily challenge still secret, and the page proved no seat of it
INVALID_RECORD = 4422  # the stored game cannot be read (its reason: the refusal's code)
TRY_AGAIN_LATER = 1013  # the database failed (its reason: database_unavailable)
_CLOSES = (  # a refusal of the game: the socket's close code and reason
    (GameNotFound, NOT_FOUND, "no such game"),
    (InvalidRecord, INVALID_RECORD, "invalid_record"),
    (DATABASE_FAILURES, TRY_AGAIN_LATER, "database_unavailable"),
)
CHANGED = -1  # in a follower's queue: the game changed; a number >= 0: the browser asks from there; None: it left
MOST_SEATS_CLAIMED = 8  # a page plays at most this many seats (a game has six at most)
MOST_TOKEN_LENGTH = 64
NOT_A_CATCH_UP = 'not {"since": n} with n a whole number'
REQUEST_TYPES = ("since", "seats", "visible")  # what a page sends
PROOF_SECONDS = 5.0  # a page let in beyond the spectators' bound proves a seat within this long
GAME_FULL = "too many live connections to this game"


class BadRequest(Exception):
    """In a follower's queue: the browser sent something that is not a catch-up request."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SeatClaim(dict[int, str]):
    """In a follower's queue: the seats the browser says it plays, with their tokens."""


class Visible(NamedTuple):
    """In a follower's queue: the page is now visible, or hidden."""

    visible: bool


Wake = int | SeatClaim | Visible | BadRequest | Reacted | SeatsPresent | None


async def follow_game(websocket: WebSocket, services: Services, game_id: str, lang: str, since: int) -> None:
    await websocket.accept()
    games, audiences = services.games, services.audiences
    leave = audiences.admit(game_id)
    try:
        live = await asyncio.to_thread(partial(games.get, game_id, fresh=True))  # what any process acknowledged
        secret = services.daily.secret_now(live)  # a daily challenge is its seat's own until its day ends
        proven = await _seats_proven_first(websocket, games, game_id) if leave is None or secret else []
        if secret and not proven:
            with suppress(WebSocketDisconnect, RuntimeError, OSError):
                await websocket.close(DAILY_SECRET, "daily_secret")
            return
        if leave is None:  # the spectators fill the game: a seat's page still follows it
            leave = audiences.admit(game_id, proves_seat=True) if proven else None
            if leave is None:
                with suppress(WebSocketDisconnect, RuntimeError, OSError):
                    await websocket.close(TOO_MANY, GAME_FULL)
                return
        followed = Followed(games, services.broker, services.presence, game_id, lang)
        await _push_changes(websocket, followed, since, proven)
    except (GameNotFound, InvalidRecord, *DATABASE_FAILURES) as refused:
        code, reason = next((code, reason) for kinds, code, reason in _CLOSES if isinstance(refused, kinds))
        with suppress(WebSocketDisconnect, RuntimeError, OSError):  # unless the browser left meanwhile
            await websocket.close(code, reason)
    finally:
        if leave is not None:
            leave()


async def _seats_proven_first(websocket: WebSocket, games: Games, game_id: str) -> list[int]:
    """The seats the page's first message proves (none if it says anything else, or nothing in time)."""
    try:
        message = await asyncio.wait_for(websocket.receive(), PROOF_SECONDS)
        claim = request_of(message.get("text"))
    except (TimeoutError, BadRequest, WebSocketDisconnect, RuntimeError, OSError):
        return []
    if not isinstance(claim, SeatClaim):
        return []
    return await asyncio.to_thread(_proven_seats, games, game_id, claim)


class Followed(NamedTuple):
    """A game one socket follows, and where its news and its presence come from."""

    games: Games
    broker: Broker
    presence: Presence
    game_id: str
    lang: str


async def _push_changes(websocket: WebSocket, followed: Followed, since: int, proven: list[int]) -> None:
    """A view of the game now, then one per change the broker announces or catch-up the browser asks for;
    `proven`: the seats the page proved before it was let in (its one claim)."""
    loop = asyncio.get_running_loop()
    wakes: asyncio.Queue[Wake] = asyncio.Queue()
    game_id, presence = followed.game_id, followed.presence

    def changed(news: News) -> None:  # called from the publisher's thread
        loop.call_soon_threadsafe(wakes.put_nowait, news if isinstance(news, (Reacted, SeatsPresent)) else CHANGED)

    follower = presence.follow(game_id)  # first: presence news is counted before this socket draws its view
    if proven:
        presence.claim(game_id, follower, proven)
    unsubscribe = followed.broker.subscribe(game_id, changed)
    reader = asyncio.create_task(_read_requests(websocket, wakes))
    visibility = PacedVisibility(lambda visible: presence.show(game_id, follower, visible))
    seen, claimed, redraw, present_news = max(since, 0), int(bool(proven)), True, False
    humans: list[int] = []
    away: list[int] = []
    try:
        while True:
            if redraw:
                view, humans = await asyncio.to_thread(_view, followed, seen)
                await websocket.send_text(orjson.dumps(view).decode())
                seen, away = view["events"], view["away"]
            elif present_news and away != (now_away := _away(humans, presence.present(game_id))):
                away = now_away
                await websocket.send_text(orjson.dumps({"type": "away", "away": away}).decode())
            pending = [await wakes.get()]
            while not wakes.empty():  # several changes at once: one view covers them
                pending.append(wakes.get_nowait())
            for reaction in (wake for wake in pending if isinstance(wake, Reacted)):
                await websocket.send_text(_reaction_message(reaction))
            # only a change of the game or a catch-up redraws it: presence changes at most its away seats
            redraw = any(type(wake) is int for wake in pending)
            present_news = any(isinstance(wake, SeatsPresent) for wake in pending)
            claims = [wake for wake in pending if isinstance(wake, SeatClaim)]
            claimed += len(claims)
            if claimed > 1:  # each would be news to every page of the game: once per connection
                pending.append(BadRequest("the seats are said once per connection"))
            refused = next((wake for wake in pending if isinstance(wake, BadRequest)), None)
            if refused is not None:
                await websocket.close(BAD_REQUEST, refused.reason)
                return
            if None in pending:
                return
            if claims:
                proven = await asyncio.to_thread(_proven_seats, followed.games, game_id, claims[0])
                presence.claim(game_id, follower, proven)
            for wake in pending:
                if isinstance(wake, Visible):
                    visibility.said(wake.visible)
            catch_ups = (wake for wake in pending if type(wake) is int and wake != CHANGED)
            seen = min([seen, *catch_ups])
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    finally:
        visibility.stop()
        unsubscribe()
        presence.leave(game_id, follower)
        reader.cancel()


def _view(followed: Followed, since: int) -> tuple[dict[str, Any], list[int]]:
    """The page's view, and the game's human seats (those that can be away)."""
    live = followed.games.get(followed.game_id)
    present = followed.presence.present(followed.game_id)
    with live.lock:
        view = game_view(live, followed.lang, followed.games.now(), min(since, len(live.match.events)))
        humans = [index for index, seat in enumerate(live.seats) if seat.kind == HUMAN]
    return {"type": "view", **view, "away": _away(humans, present)}, humans


def _away(humans: list[int], present: frozenset[int]) -> list[int]:
    return [seat for seat in humans if seat not in present]


def _reaction_message(reaction: Reacted) -> str:
    return orjson.dumps({"type": "reaction", "reaction": {"seat": reaction.seat, "key": reaction.key}}).decode()


def _proven_seats(games: Games, game_id: str, claim: SeatClaim) -> list[int]:
    """The seats of the claim whose tokens are theirs (a seat handed to the computer since is not)."""
    live = games.get(game_id)
    proven = []
    for seat, token in claim.items():
        try:
            live.check_seat(seat, token)
        except CubileteError:
            continue
        proven.append(seat)
    return proven


async def _read_requests(websocket: WebSocket, wakes: asyncio.Queue[Wake]) -> None:
    """The browser's requests (to catch up, the seats it plays); a BadRequest for anything else, then
    None (as once it leaves)."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                wakes.put_nowait(request_of(message.get("text")))
            except BadRequest as refusal:
                wakes.put_nowait(refusal)
                break
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        wakes.put_nowait(None)


def request_of(text: str | None) -> int | SeatClaim | Visible:
    """A browser's request (JSON text): a catch-up (`{"type": "since", "since": n}`: from n, at least 0),
    the seats it plays (`{"type": "seats", "seats": {"0": token}}`), or whether it is in sight
    (`{"type": "visible", "visible": true}`); the `type` may be left out."""
    if text is None:
        raise BadRequest('not text: send {"type": "since", "since": n} as JSON text')
    try:
        request = json.loads(text, parse_constant=_not_a_number)
    except RecursionError:
        raise BadRequest("nested too deeply") from None
    except ValueError:
        raise BadRequest("not JSON") from None
    if not isinstance(request, dict):
        raise BadRequest(NOT_A_CATCH_UP)
    untyped = next((kind for kind in REQUEST_TYPES[1:] if kind in request), "since")  # as pages before 0.3.0 send
    kind = request.get("type", untyped)
    if kind == "seats":
        return _seat_claim(request.get("seats"))
    if kind == "visible":
        if type(request.get("visible")) is not bool:
            raise BadRequest('not {"visible": true} or {"visible": false}')
        return Visible(request["visible"])
    if kind != "since":
        raise BadRequest(f"a type is one of {', '.join(REQUEST_TYPES)}")
    since = request.get("since")
    if type(since) is not int:  # not a float (1e400 is infinite), nor a boolean
        raise BadRequest(NOT_A_CATCH_UP)
    return max(since, 0)


def _seat_claim(seats: Any) -> SeatClaim:
    """The seats of `{"seats": {"0": token}}`: a few, each a seat number (ASCII digits) and a token."""
    shape = BadRequest('not {"seats": {"0": token}} with a few seats')
    if not isinstance(seats, dict) or len(seats) > MOST_SEATS_CLAIMED:
        raise shape
    claim = SeatClaim()
    for seat, token in seats.items():
        seat_number = seat.isascii() and seat.isdigit() and len(seat) < 3
        if not (seat_number and isinstance(token, str) and len(token) <= MOST_TOKEN_LENGTH):
            raise shape
        claim[int(seat)] = token
    return claim


def _not_a_number(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")
