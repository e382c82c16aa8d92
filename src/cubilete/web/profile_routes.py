"""The routes of profiles (profiles.py): claiming a name, the signed-in device's profile (read, rename,
delete, its seats with their tokens), passkeys (added by a signed-in device, signing in
another), and what anyone may see of a profile: its page (/profile/{name}) and its name, finished games
and record."""

from __future__ import annotations

import re
from dataclasses import asdict
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from .api_models import Name
from .games import Games
from .i18n import request_language
from .pages import PAGE_METHODS, render_page
from .passkeys import PasskeyHostRefused, Passkeys
from .profiles import Profile, Profiles
from .rate_limits import RouteClass, limited
from .ratings import profile_ratings
from .records import MAX_PROOFS, PlayerRecords, SeatProof
from .services import profiles_of, services

# A host a passkey can belong to: a domain name's labels, or an IP address (IPv6 without its brackets).
HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|[0-9a-f:.]+")


class CredentialIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    credential: dict[str, Any] = Field(description="the browser's PublicKeyCredential, as its toJSON() gives it")


class ProfileIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"example": {"name": "Beto"}})
    name: Name


class NewProfileIn(ProfileIn):
    creation_password: str | None = Field(
        None, max_length=256, description="the server's password, when its host set one (--creation-password)"
    )


def profile_json(profile: Profile) -> dict[str, Any]:
    return {"id": profile.id, "name": profile.name}


async def signed_in(request: Request) -> Profile:
    """The request's profile (401 `profile_needed` without one), read in a worker thread."""
    return await run_in_threadpool(profiles_of(request).required, request)


def relying_party(request: Request) -> tuple[str, str]:
    """A passkey's relying party: this server's host name, and the origin its pages are served at (the
    public URL behind a proxy, else the address the browser asked; not an invite link's LAN address)."""
    public_url = services(request).links.public_url
    origin = public_url.rstrip("/") if public_url else f"{request.url.scheme}://{request.headers.get('host', '')}"
    try:
        host = urlsplit(origin).hostname or ""
    except ValueError:  # a stray "[" in the Host header
        host = ""
    if not HOST_NAME.fullmatch(host):
        raise PasskeyHostRefused("passkey_host")
    return host, origin


# The signed-in profile's games and partners (its devices keep the seats; the home page lists the partners).
my_games_router = APIRouter()


@my_games_router.get("/api/profiles/me/seats", summary="The profile's seats, with their tokens, for this device to keep")
async def my_seats(request: Request) -> list[dict[str, Any]]:
    profile = await signed_in(request)
    seats = await run_in_threadpool(profiles_of(request).seats, profile)
    return [{"game": seat.game, "seat": seat.seat, "token": seat.token} for seat in seats]


@my_games_router.get("/api/profiles/me/played-with", summary="The profiles this one played with lately, to play again")
async def played_with(request: Request) -> list[dict[str, Any]]:
    """The latest first (8 at most): each one's name and the last game together's `game`, `rules`,
    `turn_clock` (as `POST /api/games` takes it) and `hints_allowed`; a seat may be reserved for each."""
    profile = await signed_in(request)
    return await run_in_threadpool(profiles_of(request).played_with, profile)


def profile_router(games: Games, profiles: Profiles) -> APIRouter:
    router = APIRouter()
    records = PlayerRecords(games)

    @router.post(
        "/api/profiles",
        status_code=201,
        summary="Claim a name on this server",
        dependencies=[limited(RouteClass.PROFILES)],
    )
    async def create(request: Request, body: NewProfileIn) -> dict[str, Any]:
        """Answers the profile and this device's secret: shown once as the recovery code, then sent as
        `Authorization: Bearer <secret>`. 409 `name_taken` if a profile has the name (without case); on a
        server with a creation password, 403 without it (`profile_password_needed`) or with another."""
        services(request).access.check_password(body.creation_password, "profile_password_needed")
        profile, secret = await run_in_threadpool(profiles.create, body.name)
        return profile_json(profile) | {"secret": secret}

    @router.get(
        "/api/profiles/me",
        summary="The profile this device is signed in to",
        dependencies=[limited(RouteClass.PROFILES)],
    )
    async def me(request: Request) -> dict[str, Any]:
        """401 `profile_needed` without a device secret (or recovery code) of a profile."""
        return profile_json(await signed_in(request))

    @router.patch("/api/profiles/me", summary="Rename the profile (its seats keep their names)")
    async def rename(request: Request, body: ProfileIn) -> dict[str, Any]:
        profile = await signed_in(request)
        return profile_json(await run_in_threadpool(profiles.rename, profile, body.name))

    @router.delete("/api/profiles/me", status_code=204, summary="Delete the profile; its seats stay in their games")
    async def delete(request: Request) -> Response:
        profile = await signed_in(request)
        await run_in_threadpool(profiles.delete, profile)
        return Response(status_code=204)

    @router.get("/api/profiles/me/devices", summary="The devices signed in to the profile")
    async def my_devices(request: Request) -> list[dict[str, Any]]:
        """Each device's id, when it signed in, and whether it is this one (`current`)."""
        profile = await signed_in(request)
        devices = await run_in_threadpool(profiles.devices, profile, request)
        return [asdict(device) for device in devices]

    @router.delete("/api/profiles/me/devices/{device}", status_code=204, summary="Sign a device out of the profile")
    async def revoke_device(request: Request, device: str) -> Response:
        """Its secret (or the recovery code) signs in no more. 404 `device_not_found`."""
        profile = await signed_in(request)
        await run_in_threadpool(profiles.revoke, profile, device)
        return Response(status_code=204)

    @router.get("/api/profiles/{name}", summary="What anyone sees of a profile: its finished games and record")
    async def public(request: Request, name: str) -> dict[str, Any]:
        """The profile's name, and per game and rule set and per finished game (oldest first) what a
        player's record holds; nothing of its unfinished games; its ratings, performance and rating
        history per game (docs/ratings.md), whether it is hidden from boards, and whether the signed-in reader
        has played with it (and so may reserve it a seat). 404 `profile_not_found`."""
        profile = await run_in_threadpool(profiles.named, name)
        seats = await run_in_threadpool(profiles.seats, profile, MAX_PROOFS)
        proofs = [SeatProof(seat.game, seat.seat, seat.token) for seat in seats]
        record = await records.record(profile.name, proofs, request_language(request), any_name=True)
        played_with_you = await run_in_threadpool(profiles.played_with_reader, request, profile)
        ratings = await run_in_threadpool(profile_ratings, games.storage.ratings, profile.id)
        mine = {"name": profile.name, "rule_sets": record["rule_sets"], "games": record["games"]}
        return mine | {"played_with_you": played_with_you} | ratings

    @router.api_route("/profile/{name}", methods=PAGE_METHODS, response_class=HTMLResponse, include_in_schema=False)
    def profile_page(request: Request, name: str) -> str:
        """The record page, filled from the profile's public answer rather than the browser's seats."""
        return render_page("player", request_language(request), {"name": name, "profile": True})

    return router


def passkey_router(passkeys: Passkeys) -> APIRouter:
    router = APIRouter()

    @router.post(
        "/api/profiles/me/passkeys/options",
        summary="Options for the browser to make a passkey for the profile",
        dependencies=[limited(RouteClass.PROFILES)],
    )
    async def passkey_options(request: Request) -> Response:
        profile = await signed_in(request)
        options = await run_in_threadpool(passkeys.registration_options, profile, relying_party(request)[0])
        return Response(options, media_type="application/json")

    @router.post(
        "/api/profiles/me/passkeys",
        status_code=201,
        summary="Keep the browser's new passkey for the profile",
        dependencies=[limited(RouteClass.PROFILES)],
    )
    async def add_passkey(request: Request, body: CredentialIn) -> dict[str, Any]:
        """401 `passkey_expired` (the options' challenge is used once, for 5 minutes) or `passkey_refused`."""
        profile = await signed_in(request)
        await run_in_threadpool(passkeys.register, profile, body.credential, *relying_party(request))
        return profile_json(profile)

    @router.post(
        "/api/passkeys/options",
        summary="Options for the browser to sign in with a passkey it holds",
        dependencies=[limited(RouteClass.PROFILES)],
    )
    async def sign_in_options(request: Request) -> Response:
        options = await run_in_threadpool(passkeys.sign_in_options, relying_party(request)[0])
        return Response(options, media_type="application/json")

    @router.post(
        "/api/passkeys/sign-in",
        summary="Sign in with a passkey: a new secret for this device",
        dependencies=[limited(RouteClass.PROFILES)],
    )
    async def passkey_sign_in(request: Request, body: CredentialIn) -> dict[str, Any]:
        """Answers the profile and this device's own secret, as a new profile's answer does."""
        profile, secret = await run_in_threadpool(passkeys.sign_in, body.credential, *relying_party(request))
        return profile_json(profile) | {"secret": secret}

    return router
