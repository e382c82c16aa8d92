"""The route every move comes through (web/model_route.py) answers what FastAPI's own route answers:
the same endpoint served both ways, given the same bodies, valid or not."""

from __future__ import annotations

import json
from typing import Annotated, Any

import pytest
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, StringConstraints

from cubilete.web.model_route import ModelBodyRoute


class Move(BaseModel):  # the shape of the app's ActionIn
    model_config = ConfigDict(extra="forbid")
    seat: int
    token: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
    at: int | None = None
    action: dict[str, Any]


async def move(request: Request, game_id: str, body: Move) -> JSONResponse:
    return JSONResponse({"game_id": game_id, "path": request.url.path, **body.model_dump()})


def served_both_ways() -> FastAPI:
    app = FastAPI()

    @app.exception_handler(RequestValidationError)
    def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [{key: problem.get(key) for key in ("type", "loc", "msg", "ctx")} for problem in error.errors()]
        return JSONResponse({"problems": json.loads(json.dumps(problems, default=str))}, status_code=422)

    app.router.add_api_route("/fastapi/{game_id}", move, methods=["POST"])
    app.router.add_api_route("/model/{game_id}", move, methods=["POST"], route_class_override=ModelBodyRoute)
    return app


CLIENT = TestClient(served_both_ways())
CONTENT_TYPES = [
    None, "application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "application/merge-patch+json",
    "text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
]


def answers(body: bytes, content_type: str | None) -> list[tuple[int, Any]]:
    headers = {} if content_type is None else {"content-type": content_type}
    found = []
    for way in ("fastapi", "model"):
        response = CLIENT.post(f"/{way}/g1", content=body, headers=headers)
        answer = response.json()
        if isinstance(answer, dict) and "path" in answer:
            answer["path"] = answer["path"].replace(f"/{way}/", "/")
        found.append((response.status_code, answer))
    return found


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
move_like = st.fixed_dictionaries(
    {},
    optional={
        "seat": st.integers(-2, 7) | st.text(max_size=3) | st.none(),
        "token": st.sampled_from(["abc_DEF-1", "", "no spaces", "x" * 65]) | st.text(max_size=5),
        "at": st.integers(0, 99) | st.none() | st.text(max_size=2),
        "action": st.dictionaries(st.sampled_from(["type", "held", "box"]), json_values, max_size=2) | json_values,
        "colour": json_values,
    },
)
bodies = st.one_of(
    move_like.map(lambda value: json.dumps(value).encode()),
    json_values.map(lambda value: json.dumps(value).encode()),
    move_like.map(lambda value: json.dumps(value).encode()).flatmap(  # cut short somewhere
        lambda whole: st.integers(0, len(whole)).map(lambda end: whole[:end])
    ),
    st.binary(max_size=12),
    st.just(b"[" * 5000),
)


@settings(max_examples=300, deadline=None)
@given(body=bodies, content_type=st.sampled_from(CONTENT_TYPES))
def test_any_body_gets_the_answer_fastapi_gives(body, content_type):
    through_fastapi, through_model_route = answers(body, content_type)
    assert through_model_route == through_fastapi


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b'{"seat": 1, "token": "abc", "action": {"type": "roll"}}', 200),
        (b'{"seat": 1, "token": "abc", "action": {"type": "roll"}, "colour": 1}', 422),
        (b'{"seat": 1,', 422),
        (b"", 422),
        (b"\xff\xfe\x00", 400),
    ],
)
def test_known_bodies(body, status):
    through_fastapi, through_model_route = answers(body, "application/json")
    assert through_model_route == through_fastapi
    assert through_model_route[0] == status


async def with_a_query(game_id: str, body: Move, page: int = 0) -> JSONResponse:
    return JSONResponse({})


async def with_a_number_in_the_path(game_id: int, body: Move) -> JSONResponse:
    return JSONResponse({})


async def with_two_bodies(game_id: str, body: Move, other: Move) -> JSONResponse:
    return JSONResponse({})


def not_a_coroutine(game_id: str, body: Move) -> JSONResponse:
    return JSONResponse({})


@pytest.mark.parametrize("endpoint", [with_a_query, with_a_number_in_the_path, with_two_bodies, not_a_coroutine])
def test_an_endpoint_it_cannot_serve_is_refused_when_the_route_is_made(endpoint):
    router = FastAPI().router
    with pytest.raises(TypeError, match="is a coroutine function taking the request, text path parameters and one body"):
        router.add_api_route("/x/{game_id}", endpoint, methods=["POST"], route_class_override=ModelBodyRoute)
