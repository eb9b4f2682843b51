"""Fuzz the text inputs a visitor types (issue 28): records, typed actions, diagrams.

Hypothesis draws a bounded number of inputs (``EXAMPLES`` each, no shrinking past the
budget) for the analysis board's record import (pasted and uploaded), the game page's
typed-action box (with its version field) and the analysis board's diagram reader. Each
answer must be a page or a redirect, never a 500 or a traceback, and nothing may change:
no game, move or stored board is written, the game stays at its version.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from games.core.states import game_state
from games.models import Game, Move
from games.records.replay import RecordError, replay_record
from tests.games.factories import client_for, started_game
from tests.games.records.helpers import finished_game

pytestmark = pytest.mark.django_db

EXAMPLES = 40  # per input: a bounded budget, a few seconds each
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same inputs every run: a failure reproduces
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
WORDS = [
    "tile",
    "leader",
    "king",
    "priest",
    "farmer",
    "trader",
    "red",
    "blue",
    "black",
    "green",
    "catastrophe",
    "swap",
    "pass",
    "commit",
    "war",
    "monument",
    "treasure",
    "decline",
    "f7",
    "a1",
    "p11",
    "z99",
    "0",
    "-1",
    "1e9",
    "undo",
    "",
    "\u2028",
    "\x00",
    "é",
]
notations = st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join) | st.text(
    max_size=80
)


def _no_crash(response: Any) -> str:
    body = response.content.decode(errors="replace")
    assert response.status_code < 500, body[:500]
    assert "Traceback" not in body
    return body


def _counts() -> tuple[int, int]:
    return Game.objects.count(), Move.objects.count()


def test_record_import_refuses_what_it_cannot_replay() -> None:
    game, _seats = finished_game(2, seed=3)
    record = Client().get(f"/games/{game.pk}/record.json").json()
    keys = sorted(record)
    client = Client()
    before = _counts()

    @FUZZ
    @given(
        st.one_of(
            st.text(max_size=200),
            json_values.map(json.dumps),
            st.integers(100, 6000).map(lambda n: "[" * n + "]" * n),
            st.tuples(st.sampled_from(keys), json_values).map(
                lambda kv: json.dumps({**record, kv[0]: kv[1]})
            ),
            st.tuples(st.integers(0, 40), json_values).map(
                lambda iv: json.dumps(
                    {
                        **record,
                        "moves": [*record["moves"][: iv[0]], iv[1], *record["moves"][iv[0] :]],
                    }
                )
            ),
        ),
        st.booleans(),
    )
    def check(text: str, upload: bool) -> None:
        try:
            replay_record(text)
        except RecordError as exc:
            assert str(exc).startswith("Record refused")
        if upload:
            data: dict[str, Any] = {"record_file": SimpleUploadedFile("r.json", text.encode())}
        else:
            data = {"record": text}
        response = client.post("/analysis/load", data)
        _no_crash(response)
        assert response.status_code in (302, 400)
        assert _counts() == before

    check()


def test_typed_actions_are_refused_with_a_reason_and_change_nothing() -> None:
    game, seats = started_game(3)
    state = game_state(game)
    legal = {str(a) for a in engine.legal_actions(state)}
    player = client_for(seats[game.to_act_seat or 0])
    watcher = client_for(seats[(game.to_act_seat or 0) % 3 + 1])
    before = _counts()

    @FUZZ
    @given(
        notations,
        st.one_of(st.just("0"), st.integers().map(str), st.text(max_size=8)),
        st.booleans(),
    )
    def check(text: str, version: str, htmx: bool) -> None:
        try:
            if str(engine.Action.parse(text)) in legal and version.strip() == "0":
                return  # a legal move, which would rightly be played
        except ValueError:
            pass
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        for client in (player, watcher, Client()):
            response = client.post(
                f"/games/{game.pk}/act", {"action": text, "version": version}, **headers
            )
            _no_crash(response)
            assert response.status_code in (302, 400, 403, 404, 409), response.status_code
        preview = player.get(f"/games/{game.pk}/preview", {"action": text, "version": version})
        _no_crash(preview)
        game.refresh_from_db()
        assert game.version == 0 and _counts() == before

    check()


def test_the_diagram_reader_refuses_what_it_cannot_read() -> None:
    game, _seats = started_game(2)
    diagram = engine.render_diagram(game_state(game))
    lines = diagram.splitlines()
    client = Client()
    before = _counts()

    @FUZZ
    @given(
        st.one_of(
            st.text(max_size=300),
            st.lists(st.sampled_from(lines), max_size=len(lines) + 3).map("\n".join),
            st.tuples(st.integers(0, len(diagram)), st.text(max_size=5)).map(
                lambda it: diagram[: it[0]] + it[1] + diagram[it[0] + 1 :]
            ),
        )
    )
    def check(text: str) -> None:
        with contextlib.suppress(ValueError):
            engine.parse_diagram(text)
        response = client.post("/analysis/load", {"diagram": text})
        _no_crash(response)
        assert response.status_code in (302, 400)
        assert _counts() == before

    check()
