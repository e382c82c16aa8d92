"""The JSON bodies the API takes (pydantic models, documented at /docs), and how a body that does not
fit them is refused: pydantic's problem as a refusal code and its parameters."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from .i18n import LANGUAGES

Language = Literal["es", "id", "en"]
NAME_LENGTH = 24
MAX_PLAYERS = 6
MAX_SEED = 2**63 - 1
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_LENGTH)]
Token = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]


def validation_refusal(problem: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A request validation problem (pydantic's error) as a refusal code and its parameters."""
    kind, where = problem["type"], tuple(problem["loc"][1:])
    if kind == "json_invalid":
        return "bad_json", {"position": problem["loc"][-1]}
    if (where[:1] == ("players",) and where[2:] in (("name",), ("profile",))) or where == ("name",):
        if kind == "string_too_short":
            return "blank_name", {}
        if kind == "string_too_long":
            return "name_too_long", {"most": NAME_LENGTH}
    if where == ("players",) and kind in ("too_short", "too_long"):
        return "players_count", {"low": 1, "high": MAX_PLAYERS}
    if where[:1] == ("players",) and where[2:] == ("kind",):
        return "player_kind", {}
    if where == ("seed",):
        return "bad_seed", {"most": MAX_SEED}
    if where == ("lang",):
        return "language_choice", {"languages": list(LANGUAGES)}
    place = ".".join(str(part) for part in where) or "body"
    return "invalid_request", {"detail": f"{place}: {problem['msg']}"}


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name
    kind: Literal["human", "bot"]
    level: str | None = Field(None, description="a bot's level, see GET /api/games/options")
    invited: bool = Field(
        False,
        description="a friend's seat, claimed once from its invite link (its token goes only to the claimant);"
        " in a public game, open to anyone to join until then",
    )
    profile: Name | None = Field(
        None,
        description="a friend's seat reserved for the profile of this name: held by that profile from the start"
        " (no invite); only a creator signed in to a profile may reserve seats",
    )


class NewGame(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "example": {
                "game": "penta",
                "rules": "seed",
                "players": [{"name": "Ana", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "optimal"}],
                "seed": 7,
                "lang": "es",
            }
        },
    )
    game: str = Field(description="penta, generala or 5000")
    rules: str | None = Field(None, description="a rule set of the game; default: the seed rules")
    players: list[PlayerIn] = Field(min_length=1, max_length=MAX_PLAYERS)
    seed: int | None = Field(
        None, ge=0, le=MAX_SEED, description="the dice seed, only for a game with one human seat; default: random"
    )
    lang: Language | None = None
    turn_clock: Literal[0, 30, 60, 300, "1d", "3d", "7d"] = Field(
        0, description='seconds per turn, 0 for no clock; or days per move by correspondence: "1d", "3d" or "7d"'
    )
    public: bool = Field(False, description="listed for anyone on the server to join a free seat")
    hints_allowed: bool = Field(
        False,
        description="with friends' seats: hints and win chances on for everyone (a friend sees it before taking"
        " the seat); without, they are off. Games without friends always have them",
    )
    creation_password: str | None = Field(
        None, max_length=256, description="the server's password for creating games, when its host set one"
    )


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(description="the seat acting, 0 first")
    token: Token = Field(description="that seat's token, returned when the game was created")
    at: int | None = Field(None, description="the number of events the client has seen; a mismatch is refused")
    action: dict[str, Any] = Field(
        description='{"type": "roll"}, {"type": "keep", "held": [0, 2]}, {"type": "score", "box": "chance"},'
        ' {"type": "bank"}, {"type": "set_aside", "held": [1]} or {"type": "auto"} (score as the computer would)'
    )


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    token: Token | None = None


class ClockIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    at: int = Field(description="the number of events the browser saw when its countdown reached 0")


class TokenIn(BaseModel):
    """The token of the seat named in the path."""

    model_config = ConfigDict(extra="forbid")
    token: Token


class InviteIn(BaseModel):
    """The invite code of the friend's seat named in the path."""

    model_config = ConfigDict(extra="forbid")
    invite: Token


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name


class ReactionIn(BaseModel):
    """A seat, its token, and the key of the preset reaction it shows the table (web/reactions.py)."""

    model_config = ConfigDict(extra="forbid")
    seat: int
    token: Token
    reaction: str = Field(max_length=32, description="one of the keys of web/reactions.py's REACTIONS")


class SeatProof(BaseModel):
    """A seat and its token: required wherever a request acts for a seat."""

    model_config = ConfigDict(extra="forbid")
    seat: int
    token: Token


class DailyStartIn(BaseModel):
    """A daily challenge's try without a profile (unranked): the player's name."""

    model_config = ConfigDict(extra="forbid")
    name: Name | None = None


class DailyChoicesIn(BaseModel):
    """A finished daily game, its seat and that seat's token."""

    model_config = ConfigDict(extra="forbid")
    id: str = Field(max_length=32)
    seat: int
    token: Token
