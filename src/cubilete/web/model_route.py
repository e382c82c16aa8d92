"""A FastAPI route whose endpoint takes the request, the path's parameters and one pydantic body,
served without FastAPI's per-request machinery (dependency solving, telemetry, endpoint context).

Every move of every game comes through such a route (web/app.py), and that machinery cost about an
eighth of a move's server CPU (benchmarks/bypasses.py measures it beside FastAPI's own route). FastAPI still reads the endpoint's signature,
so the route is documented (/openapi.json, /docs) like any other; only the serving differs.

A body is taken as FastAPI takes it (0.132 on, with its default strict_content_type): JSON when
the content type says JSON, else validated as bytes (and refused). A problem raises what FastAPI
raises, the same RequestValidationError or its 400 for a body that cannot be decoded, so the app's
handlers give the same refusals (tests/web/test_model_route.py compares the two).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response

# FastAPI's detail for a body it cannot decode (web/app.py answers it as the refusal body_unreadable).
BODY_PARSE_ERROR = "There was an error parsing the body"


class ModelBodyRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        dependant = self.dependant
        model = dependant.body_params[0].field_info.annotation if len(dependant.body_params) == 1 else None
        if (
            not inspect.iscoroutinefunction(self.endpoint)
            or not (isinstance(model, type) and issubclass(model, BaseModel))
            or dependant.dependencies or dependant.query_params or dependant.header_params or dependant.cookie_params
            or any(param.field_info.annotation is not str for param in dependant.path_params)  # passed as they come
        ):
            raise TypeError(
                f"{self.path}: a ModelBodyRoute's endpoint is a coroutine function taking the request, text path"
                " parameters and one body"
            )
        body_name, request_name, endpoint = dependant.body_params[0].name, dependant.request_param_name, self.endpoint

        async def handle(request: Request) -> Response:
            body = _validated(model, await request.body(), request.headers.get("content-type"))
            arguments = {body_name: body, **request.path_params}
            if request_name is not None:
                arguments[request_name] = request
            response: Response = await endpoint(**arguments)  # the endpoint answers a Response itself
            return response

        return handle


def _validated(model: type[BaseModel], raw: bytes, content_type: str | None) -> BaseModel:
    if not raw:
        raise RequestValidationError([{"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}])
    value: Any = raw  # a body that does not say it is JSON is validated as bytes, and refused, as FastAPI does
    if content_type is not None and _says_json(content_type):
        try:
            value = json.loads(raw)  # the standard library's: its error positions are the refusal's
        except json.JSONDecodeError as error:
            problem = {
                "type": "json_invalid", "loc": ("body", error.pos), "msg": "JSON decode error", "input": {},
                "ctx": {"error": error.msg},
            }
            raise RequestValidationError([problem], body=error.doc) from None
        except (ValueError, RecursionError) as error:  # not UTF-8, or nested too deep
            raise HTTPException(status_code=400, detail=BODY_PARSE_ERROR) from error
    try:
        return model.model_validate(value, from_attributes=True)  # as FastAPI validates a body
    except ValidationError as error:
        problems = [{**problem, "loc": ("body", *problem["loc"])} for problem in error.errors(include_url=False)]
        raise RequestValidationError(problems, body=value) from None


def _says_json(content_type: str) -> bool:
    """application/json or application/*+json, whatever its parameters (charset)."""
    kind, _, subtype = content_type.partition(";")[0].strip().lower().partition("/")
    return kind == "application" and (subtype == "json" or subtype.endswith("+json"))
