"""The confirm step's preview endpoint (issue 16): the engine's words, or its refusal."""

from __future__ import annotations

import pytest

from tests.engine.rules_helpers import position
from tests.games.factories import client_for, game_at_state

pytestmark = pytest.mark.django_db

REVOLT_BOARD = {"f5": "r", "g5": "2K", "h5": "r", "h3": "r"}


def test_the_preview_says_what_starts_and_refuses_what_the_engine_refuses() -> None:
    game, seats = game_at_state(position(REVOLT_BOARD, hands={1: "r r k", 2: "r b"}))
    me, other = client_for(seats[1]), client_for(seats[2])
    url = f"/games/{game.pk}/preview"
    revolt = me.get(url, {"action": "leader king h4", "version": game.version})
    text = revolt.content.decode()
    assert revolt.status_code == 200 and 'data-legal="1"' in text
    name = seats[2].username
    assert f"Starts a revolt over the king: you 2 against {name} 2, before support." in text
    illegal = me.get(url, {"action": "tile black e1", "version": game.version})
    assert illegal.status_code == 400 and 'data-legal="0"' in illegal.content.decode()
    assert "land" in illegal.content.decode()  # the engine's reason, in words
    assert me.get(url, {"action": "tile", "version": game.version}).status_code == 400
    assert me.get(url, {"action": "leader king h4", "version": 99}).status_code == 409
    assert other.get(url, {"action": "leader king h4"}).status_code == 403
    with_undo = me.get(url, {"action": "undo"})
    assert with_undo.status_code == 409  # nothing played yet this turn


def test_the_preview_speaks_the_pages_language() -> None:
    game, seats = game_at_state(position(REVOLT_BOARD, hands={1: "r r k", 2: "r b"}))
    me = client_for(seats[1])
    me.post("/i18n/setlang/", {"language": "zh-hans"})
    answer = me.get(f"/games/{game.pk}/preview", {"action": "leader king h4"})
    assert "引发争夺国王的叛乱" in answer.content.decode()


def test_the_catastrophes_preview_names_what_it_removes_in_both_languages() -> None:
    """Issue 32: the tile destroyed, a leader left without a temple, a kingdom split."""
    board = {"c5": "r", "c6": "2P", "d5": "k", "e5": "r", "e6": "1K"}
    game, seats = game_at_state(position(board, hands={1: "b b"}))
    me = client_for(seats[1])
    url = f"/games/{game.pk}/preview"
    text = me.get(url, {"action": "catastrophe d5"}).content.decode()
    assert "Destroys the black settlement there." in text
    assert "Splits a kingdom into 2 parts." in text
    text = me.get(url, {"action": "catastrophe e5"}).content.decode()
    assert "Destroys the red temple there." in text
    assert "Removes your king on e6: no temple is left beside it." in text
    me.post("/i18n/setlang/", {"language": "zh-hans"})
    text = me.get(url, {"action": "catastrophe d5"}).content.decode()
    assert "王国" in text and "2" in text and "Splits" not in text
