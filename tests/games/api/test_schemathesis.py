"""Schemathesis against the API's own ``openapi.json`` (issue 28): every answer as documented.

The schema is read from ``/api/v1/openapi.json`` through the WSGI application. Each
operation gets a bounded number of generated requests (``EXAMPLES`` valid ones and
``EXAMPLES`` invalid ones: parameters out of their bounds, of the wrong type, ids that
exist and that do not), each sent without a token and with a valid one. Every one of
schemathesis's checks must pass: no 5xx, every status code, content type, header and body
as the document says, bad parameters refused, good ones accepted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from tests.games.api.conftest import World

pytestmark = pytest.mark.django_db

EXAMPLES = 10  # per operation and mode: a bounded budget, some seconds in all


@pytest.fixture
def wsgi_in_test() -> Iterator[None]:
    """Keep the test's database connection open across WSGI requests, as Django's test
    client does (the handler would close it at each request's end)."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_answers_as_its_schema_says(
    world: World, settings: Any, mode: GenerationMode, wsgi_in_test: None
) -> None:
    settings.API_RATE_ANON = settings.API_RATE_TOKEN = "100000/min"  # limits are tested apart
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 17  # games, players, me; tournaments and leagues (issue 30)
    token = {"Authorization": f"Bearer {world.secret}"}
    for operation in operations:

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings_for_budget
        def check(case: Any) -> None:
            if mode == GenerationMode.POSITIVE and case.query:
                # a cursor is opaque: only one the API wrote is valid, which no schema can
                # describe (forged ones are refused with a 422: test_api)
                case.query.pop("cursor", None)
            case.call_and_validate()
            case.call_and_validate(headers=token)

        try:
            check()
        except Unsatisfiable:
            # an operation with no parameter to get wrong has no invalid request to make
            # (GET /leagues); every other one must be exercised
            assert mode == GenerationMode.NEGATIVE and operation.path == "/api/v1/leagues"


settings_for_budget = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
