"""Undo within a turn (issue 16): append-only history, snapshot back, at most once."""

from __future__ import annotations

import pytest

import engine
from games.core.errors import NotYourTurn, StaleVersion
from games.core.states import game_state, replay
from games.management.commands.verify_games import game_mismatch
from games.models import Game, Move
from games.play import submit as play_submit
from tests.games.factories import client_for, page_version, started_game

pytestmark = pytest.mark.django_db


def quiet_action(state: engine.GameState) -> engine.Action:
    """Return a legal tile placement that starts and scores nothing."""
    for action in engine.legal_actions(state):
        if isinstance(action, engine.PlaceTile) and engine.preview(state, action).quiet:
            return action
    raise AssertionError("no quiet placement")


def play(game: Game, user: object, action: engine.Action | str) -> Game:
    play_submit.game_submit_action(
        game_id=game.pk, user=user, action=str(action), expected_version=game.version
    )
    game.refresh_from_db()
    return game


def test_undo_puts_the_snapshot_back_keeps_the_move_marked_and_applies_once() -> None:
    game, seats = started_game(2)
    start = game_state(game)
    game = play(game, seats[1], quiet_action(start))
    assert play_submit.undoable_count(game=game, state=game_state(game)) == 1
    with pytest.raises(NotYourTurn):
        play_submit.game_undo(game_id=game.pk, user=seats[2], expected_version=game.version)
    result = play_submit.game_undo(game_id=game.pk, user=seats[1], expected_version=1)
    game.refresh_from_db()
    assert game.version == 2 and result.move.ply == 2 and result.move.is_undo
    assert game_state(game) == start == replay(game)
    assert list(game.moves.values_list("ply", "undone")) == [(1, True), (2, False)]
    assert game_mismatch(game) is None
    with pytest.raises(StaleVersion):  # the same request again: at most once
        play_submit.game_undo(game_id=game.pk, user=seats[1], expected_version=1)
    with pytest.raises(play_submit.NothingToUndo):  # nothing of this turn is left
        play_submit.game_undo(game_id=game.pk, user=seats[1], expected_version=2)
    assert Move.objects.filter(game=game).count() == 2


def test_a_finished_turn_cannot_be_taken_back_and_verify_catches_a_lone_undone_mark() -> None:
    game, seats = started_game(2)
    game = play(game, seats[1], quiet_action(game_state(game)))
    game = play(game, seats[1], quiet_action(game_state(game)))  # the turn ends: tiles drawn
    assert game.to_act_seat == 2
    assert play_submit.undoable_count(game=game, state=game_state(game)) == 0
    Move.objects.filter(game=game, ply=1).update(undone=True)
    assert game_mismatch(game) == "undo rows and plies taken back do not pair"


def test_the_act_view_takes_back_and_the_other_page_sees_a_new_version() -> None:
    game, seats = started_game(2)
    game = play(game, seats[1], quiet_action(game_state(game)))
    me, other = client_for(seats[1]), client_for(seats[2])
    page = me.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
    assert b'data-action="undo"' in page.content
    response = me.post(
        f"/games/{game.pk}/act", {"action": "undo", "version": 1}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and page_version(response.content) == 2
    assert b'data-action="undo"' not in response.content
    assert "took back" in response.content.decode()
    poll = other.get(f"/games/{game.pk}/poll?version=1", HTTP_HX_REQUEST="true")
    assert poll.status_code == 200 and page_version(poll.content) == 2
    again = me.post(
        f"/games/{game.pk}/act", {"action": "undo", "version": 1}, HTTP_HX_REQUEST="true"
    )
    assert again.status_code == 409
