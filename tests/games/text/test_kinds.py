"""Each kind the engine names is worded in one table of the site (issue 27).

Decisions (``DecisionKind``), actions (``ActionKind``) and events (``EventCode``): each
table is keyed by the engine's ``Literal`` type (mypy checks every key) and has an entry
for every kind (checked here), so a kind the engine adds cannot go unsaid.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.utils import translation

import engine
from games.text import gamelog
from games.text.actions import ACTION_TITLES, action_title
from games.text.decisions import DECISION_WORDS, SOME_DECISION, decision_words
from games.text.messages import decision_name
from games.text.seats import SeatInfo, seat_label
from games.text.waiting import waiting_text


def test_every_decision_kind_has_its_words() -> None:
    assert tuple(DECISION_WORDS) == engine.DECISION_KINDS
    for kind in engine.DECISION_KINDS:
        words = decision_words(kind)
        assert words != SOME_DECISION
        assert len({str(w) for w in words}) >= 3  # the four places say it their own way
    assert decision_words("an unknown kind") == SOME_DECISION


def test_every_action_kind_has_its_heading() -> None:
    assert tuple(ACTION_TITLES) == engine.ACTION_KINDS
    with translation.override("en"):
        assert action_title(engine.Action.parse("tile red f7")) == "red temple"
        assert action_title(engine.Action.parse("leader king e3")) == "king"
        assert action_title(engine.Action.parse("swap red")) == "swap tiles"
        assert action_title(engine.Action.parse("pass")) == "other"


def test_every_event_code_has_its_sentence() -> None:
    assert tuple(gamelog.SENTENCES) == engine.EVENT_CODES


@pytest.mark.parametrize("kind", engine.DECISION_KINDS)
def test_a_decision_is_said_from_the_one_table_everywhere(kind: engine.DecisionKind) -> None:
    """The refusal and the status line read the same table."""
    pending = engine.Decision(
        seat=2, kind=kind, conflict="revolt", color="red", support_color="red"
    )
    view = replace(engine.view_for(engine.new_game(2, seed=1), None), pending=pending, to_act=2)
    seats = {2: SeatInfo(position=2, username="Bo", dynasty="lion")}
    with translation.override("en"):
        words = DECISION_WORDS[kind]
        assert decision_name(kind) == str(words.task)
        said = {"who": seat_label(seats, 2), "color": "red", "conflict": "revolt"}
        assert waiting_text(view, seats) == str(words.waiting) % said
