"""`cubilete admin list|show|delete|expire|stats|migrate|daily|boards [--database URL]`: what a server
holds, for its host: its games (list, show ID), deleting some (delete ID...), expiring those nobody has
played for a while (expire --older-than 30d [--unplayed-only]), the totals with the database's size
(stats), bringing the database to this release's schema (migrate), taking a profile's try off a day's
daily board (daily remove --date D --game G --profile NAME), the profiles (profiles list, show NAME,
delete NAME...), and taking a profile off the boards or putting it back (boards hide NAME, boards
unhide NAME; docs/ratings.md).

Give the database `cubilete serve` uses (or CUBILETE_DATABASE_URL). A running server keeps the games
it holds in memory until it restarts: delete and expire the games nobody is playing. Only `migrate`
(and `serve`) migrate: the others refuse a database of an older schema, which the older release's
processes may still be serving."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from .. import url_options
from ..output import CommandError, Parser, Report, emit

if TYPE_CHECKING:
    from ...storage import Storage

_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_DURATION = re.compile(r"(\d+)([smhdw])")


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser("admin", help="list, delete and expire a server's games", description=__doc__)
    common = Parser(add_help=False)
    common.add_argument(
        "--database", type=url_options.database_url,
        metavar="URL",
        help="the database `cubilete serve` uses (default: the SQLite file in your user data directory)",
    )
    common.add_argument("--json", action="store_true", help="print JSON")
    actions = parser.add_subparsers(dest="action", required=True, parser_class=Parser)

    def add(name: str, help_text: str) -> Parser:
        added: Parser = actions.add_parser(
            name, help=help_text, description=help_text, parents=[common], environment=True
        )
        return added

    add("list", "every game: id, game, rules, created, last move, events, finished, players").set_defaults(run=run_list)
    show = add("show", "one game: its seats, table options and progress")
    show.add_argument("game_id", metavar="ID")
    show.set_defaults(run=run_show)
    remove = add("delete", "delete games and their moves")
    remove.add_argument("game_ids", metavar="ID", nargs="+")
    remove.set_defaults(run=run_delete)
    expire = add("expire", "delete the games with no move, no change of seats and no end for a while")
    expire.add_argument(
        "--older-than",
        metavar="DURATION",
        type=duration,
        required=True,
        help="idle for longer than this: a number and s, m, h, d or w, e.g. 30d or 1d12h",
    )
    expire.add_argument(
        "--unplayed-only", action="store_true", help="only games nobody moved in since they were created"
    )
    expire.set_defaults(run=run_expire)
    add("stats", "how many games, finished games and events, and the database's size").set_defaults(run=run_stats)
    add("migrate", "bring the database to this release's schema (stop the older release's processes first)").set_defaults(
        run=run_migrate
    )
    daily: Parser = actions.add_parser("daily", help="the daily challenge's boards", description="the daily challenge's boards")
    daily_actions = daily.add_subparsers(dest="daily_action", required=True, parser_class=Parser)
    remove_try: Parser = daily_actions.add_parser(
        "remove", help="take a profile's try off a day's board (its game stays)", parents=[common], environment=True,
        description="take a profile's ranked try of a day's challenge off the board, with its choices; the game stays",
    )
    remove_try.add_argument("--date", required=True, type=day, help="the UTC day, YYYY-MM-DD")
    remove_try.add_argument("--game", required=True, help="penta, generala or 5000")
    remove_try.add_argument("--profile", required=True, metavar="NAME", help="the profile's name")
    remove_try.set_defaults(run=run_daily_remove)
    profiles = add("profiles", "the profiles: list, show NAME, delete NAME... (with every row of each)")
    profiles.add_argument("change", choices=("list", "show", "delete"))
    profiles.add_argument("names", metavar="NAME", nargs="*", help="the profiles' names (show: one; delete: one or more)")
    profiles.set_defaults(run=run_profiles)
    boards = add("boards", "take a profile off every board (hide NAME), or put it back (unhide NAME)")
    boards.add_argument("change", choices=("hide", "unhide"))
    boards.add_argument("name", metavar="NAME", help="the profile's name")
    boards.set_defaults(run=run_boards)


def day(text: str) -> str:
    """A UTC day as YYYY-MM-DD."""
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"a day as YYYY-MM-DD, not {text!r}") from None


def duration(text: str) -> timedelta:
    """30d, 12h, 1d12h...: a sum of numbers with units."""
    parts = _DURATION.findall(text)
    if not parts or "".join(number + unit for number, unit in parts) != text:
        raise argparse.ArgumentTypeError(f"a number and s, m, h, d or w (e.g. 30d, 1d12h), not {text!r}")
    return sum((timedelta(**{_UNITS[unit]: int(number)}) for number, unit in parts), timedelta())


@contextmanager
def _storage(args: argparse.Namespace) -> Iterator[Storage]:
    from ...storage import Storage  # SQLAlchemy only for this command

    storage = Storage(args.database, migrate=False)
    try:
        yield storage
    finally:
        storage.close()


def _when(moment: datetime | None) -> str:
    return "-" if moment is None else moment.strftime("%Y-%m-%d %H:%M")


def _size(octets: int) -> str:
    return f"{octets / 1e6:.1f} MB" if octets >= 1e6 else f"{octets / 1e3:.0f} KB"


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)


def run_list(args: argparse.Namespace) -> int:
    from ...storage.admin import list_games

    with _storage(args) as storage:
        games = list_games(storage)
    header = ["ID", "GAME", "RULES", "CREATED", "LAST MOVE", "EVENTS", "FINISHED", "PLAYERS"]
    rows = [
        [
            game.id,
            game.game,
            game.rules,
            _when(game.created),
            _when(game.last_move),
            str(game.events),
            "yes" if game.finished else "no",
            ", ".join(game.players),
        ]
        for game in games
    ]
    text = _table([header, *rows]) if rows else "No games."
    emit(Report({"games": [game.as_json() for game in games]}, text), args.json)
    return 0


def run_show(args: argparse.Namespace) -> int:
    from ...storage.admin import list_games

    with _storage(args) as storage:
        found, stored = list_games(storage, [args.game_id]), storage.load(args.game_id)
    if not found or stored is None:
        raise CommandError(f"no game {args.game_id} in this database")
    game = found[0]
    seats = [
        {"name": seat.get("name"), "kind": seat.get("kind"), "open": bool(seat.get("open"))} for seat in stored.seats
    ]
    data = {
        **game.as_json(),
        "lang": stored.lang,
        "seats": seats,
        "table_options": stored.table_options,
        "rematch": stored.rematch,
    }
    lines = [
        f"{game.id}: {game.game} ({game.rules}), {'finished' if game.finished else 'not finished'}",
        f"created {_when(game.created)}, last move {_when(game.last_move)}, {game.events} events",
        *(
            f"  seat {index}: {seat['name']} ({seat['kind']}{', open' if seat['open'] else ''})"
            for index, seat in enumerate(seats)
        ),
        f"table options: {stored.table_options}",
    ]
    emit(Report(data, "\n".join(lines)), args.json)
    return 0


def run_delete(args: argparse.Namespace) -> int:
    from ...storage.admin import delete_games

    with _storage(args) as storage:
        deleted = delete_games(storage, args.game_ids)
    missing = [game_id for game_id in args.game_ids if game_id not in deleted]
    text = f"Deleted {len(deleted)} game(s)" + (f"; not found: {', '.join(missing)}" if missing else "")
    emit(Report({"deleted": deleted, "not_found": missing}, text), args.json)
    return 1 if missing else 0


def run_expire(args: argparse.Namespace) -> int:
    from ...storage.admin import delete_games, idle_games

    with _storage(args) as storage:
        deleted = delete_games(storage, idle_games(storage, args.older_than, args.unplayed_only))
    emit(Report({"deleted": deleted}, f"Expired {len(deleted)} game(s)"), args.json)
    return 0


def run_stats(args: argparse.Namespace) -> int:
    from ...storage.admin import holdings
    from ...storage.connections import shown_url

    with _storage(args) as storage:
        held = holdings(storage)
    size = "unknown" if held.size is None else _size(held.size)
    text = (
        f"{shown_url(storage.url)}: {held.games} games ({held.finished} finished), {held.events} events, {size} on disk"
    )
    emit(Report({"database": shown_url(storage.url), **asdict(held)}, text), args.json)
    return 0


def run_migrate(args: argparse.Namespace) -> int:
    from ...storage import Storage
    from ...storage.connections import shown_url

    storage = Storage(args.database)
    storage.close()
    emit(Report({"database": shown_url(storage.url)}, f"{shown_url(storage.url)}: at this release's schema"), args.json)
    return 0


def run_daily_remove(args: argparse.Namespace) -> int:
    with _storage(args) as storage:
        removed = storage.daily.remove(args.date, args.game, args.profile)
    where = f"{args.profile}'s {args.game} try of {args.date}"
    text = f"Removed {where} from the board" if removed else f"No {where}"
    emit(Report({"removed": removed}, text), args.json)
    return 0 if removed else 1


def run_boards(args: argparse.Namespace) -> int:
    """The profile leaves every board (its ratings and games stay), or comes back; as its own switch does."""
    hidden = args.change == "hide"
    with _storage(args) as storage:
        profile = storage.profiles.by_name(args.name)
        if profile is None:
            raise CommandError(f"no profile {args.name} in this database")
        storage.ratings.hide(profile.id, hidden)
    text = f"{profile.name} is {'hidden from' if hidden else 'back on'} the boards"
    emit(Report({"name": profile.name, "hidden_from_boards": hidden}, text), args.json)
    return 0


def run_profiles(args: argparse.Namespace) -> int:
    """List the profiles, show some, or delete some (their devices, passkeys, seat links and pushes go too)."""
    from ...storage.admin_profiles import delete_profiles, list_profiles

    if (args.change == "list") == bool(args.names):
        raise CommandError("admin profiles list takes no name" if args.names else f"admin profiles {args.change} takes names")
    with _storage(args) as storage:
        if args.change == "delete":
            deleted = delete_profiles(storage, args.names)
            missing = [name for name in args.names if name.casefold() not in {done.casefold() for done in deleted}]
            text = f"Deleted {len(deleted)} profile(s)" + (f"; no profile {', '.join(missing)}" if missing else "")
            emit(Report({"deleted": deleted, "not_found": missing}, text), args.json)
            return 1 if missing else 0
        found = list_profiles(storage, None if args.change == "list" else args.names)
    if args.change == "show" and not found:
        raise CommandError(f"no profile {', '.join(args.names)} in this database")
    header = ["NAME", "CREATED", "DEVICES", "PASSKEYS", "SEATS", "BOARDS"]
    rows = [
        [profile.name, _when(profile.created), str(profile.devices), str(profile.passkeys), str(profile.seats),
         "hidden" if profile.hidden_from_boards else "shown"]
        for profile in found
    ]
    text = _table([header, *rows]) if rows else "No profiles."
    emit(Report({"profiles": [profile.as_json() for profile in found]}, text), args.json)
    return 0
