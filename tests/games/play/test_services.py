"""Services: creating, joining, starting, submitting, finishing and aborting games."""

from __future__ import annotations

import pytest

import engine
from games.core.errors import (
    GameNotActive,
    JoinRefused,
    MalformedAction,
    NotAPlayer,
    NotYourTurn,
    StaleVersion,
)
from games.core.states import game_state
from games.models import Game, Move, Seat
from games.play import effects, lifecycle
from games.play import submit as play_submit
from games.play.errors import IllegalAction
from tests.games.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def first_legal(game: Game) -> str:
    return str(engine.legal_actions(game_state(game))[0])


def test_create_seats_the_creator_and_stays_open() -> None:
    alice = UserFactory()
    game = lifecycle.game_create(creator=alice, num_players=3, is_public=False, open_scoring=True)
    assert game.status == Game.Status.OPEN
    assert list(game.seats.values_list("user", flat=True)) == [alice.pk]
    assert game.state is None


@pytest.mark.parametrize("n", [1, 5])
def test_create_rejects_player_counts_outside_2_to_4(n: int) -> None:
    with pytest.raises(JoinRefused):
        lifecycle.game_create(creator=UserFactory(), num_players=n)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_last_seat_starts_the_game_with_random_order_and_dynasties(n: int) -> None:
    game, seats = started_game(n, open_scoring=True)
    assert game.status == Game.Status.ACTIVE
    assert sorted(seats) == list(range(1, n + 1))
    dynasties = list(game.seats.values_list("dynasty", flat=True))
    assert len(set(dynasties)) == n and set(dynasties) <= {d.value for d in Seat.Dynasty}
    state = game_state(game)
    assert state.num_players == n and state.open_scoring
    assert state == engine.new_game(n, game.seed, open_scoring=True)
    assert game.to_act_seat == state.to_act == 1
    assert game.version == 0


def test_join_refusals() -> None:
    game, seats = started_game(2)
    with pytest.raises(GameNotActive):
        lifecycle.game_join(game_id=game.pk, user=UserFactory())
    open_game = lifecycle.game_create(creator=seats[1], num_players=3)
    with pytest.raises(JoinRefused):
        lifecycle.game_join(game_id=open_game.pk, user=seats[1])
    private = lifecycle.game_create(creator=seats[1], num_players=2, is_public=False)
    with pytest.raises(JoinRefused):
        lifecycle.game_join(game_id=private.pk, user=UserFactory())
    lifecycle.game_join(game_id=private.pk, user=UserFactory(), invite_token=private.invite_token)
    private.refresh_from_db()
    assert private.status == Game.Status.ACTIVE


def test_leave_before_start_and_empty_game_is_aborted() -> None:
    alice, bob = UserFactory(), UserFactory()
    game = lifecycle.game_create(creator=alice, num_players=3)
    lifecycle.game_join(game_id=game.pk, user=bob)
    lifecycle.game_leave(game_id=game.pk, user=bob)
    assert game.seats.count() == 1
    with pytest.raises(NotAPlayer):
        lifecycle.game_leave(game_id=game.pk, user=bob)
    lifecycle.game_leave(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_submit_appends_a_move_and_bumps_the_version(monkeypatch: pytest.MonkeyPatch) -> None:
    game, seats = started_game(3)
    action = first_legal(game)
    seen = []
    applied = effects.move_applied
    monkeypatch.setattr(effects, "move_applied", lambda **kw: seen.append(kw) or applied(**kw))
    result = play_submit.game_submit_action(
        game_id=game.pk, user=seats[1], action=action, expected_version=0
    )
    game.refresh_from_db()
    assert game.version == 1
    move = Move.objects.get(game=game)
    assert (move.ply, move.seat, move.action) == (1, 1, action) and result.move == move
    expected = engine.apply(
        engine.new_game(3, game.seed, open_scoring=False), engine.Action.parse(action)
    )
    assert game_state(game) == expected
    assert move.events == [e.to_dict() for e in expected.events]
    assert len(seen) == 1 and seen[0]["before"].to_act == 1 and seen[0]["move"] == move


def test_submit_returns_the_state_the_snapshot_holds_after_dropped_seats_answered() -> None:
    """The page is built from ``SubmitResult.state`` (issue 27): it is what the game stores,
    after the default policy played the dropped seat the turn passed to, not the state
    after the ply submitted."""
    game, seats = started_game(2)
    Seat.objects.filter(game=game, position=2).update(dropped_at=game.started_at)
    for _ply in range(2):  # a turn is two actions; then the dropped seat's turn is played
        result = play_submit.game_submit_action(
            game_id=game.pk, user=seats[1], action=first_legal(game), expected_version=game.version
        )
        game.refresh_from_db()
        assert result.state == game_state(game)
    assert game.version > 2 and game.to_act_seat == 1  # the dropped seat's plies were played
    assert result.state.to_act == 1


@pytest.mark.parametrize(
    ("who", "action", "version", "error"),
    [
        ("stranger", None, 0, NotAPlayer),
        ("other", None, 0, NotYourTurn),
        ("actor", None, 5, StaleVersion),
        ("actor", "tile purple a1", 0, MalformedAction),
        ("actor", "withdraw king", 0, IllegalAction),
    ],
)
def test_submit_errors_save_nothing(
    who: str, action: str | None, version: int, error: type
) -> None:
    game, seats = started_game(2)
    user = {"stranger": UserFactory(), "other": seats[2], "actor": seats[1]}[who]
    before = dict(Game.objects.filter(pk=game.pk).values("state", "version", "to_act_seat")[0])
    with pytest.raises(error):
        play_submit.game_submit_action(
            game_id=game.pk, user=user, action=action or first_legal(game), expected_version=version
        )
    after = dict(Game.objects.filter(pk=game.pk).values("state", "version", "to_act_seat")[0])
    assert after == before
    assert not Move.objects.filter(game=game).exists()


def test_illegal_action_carries_the_engine_code() -> None:
    game, seats = started_game(2)
    with pytest.raises(IllegalAction) as info:
        play_submit.game_submit_action(
            game_id=game.pk, user=seats[1], action="withdraw king", expected_version=0
        )
    assert info.value.code
    assert str(info.value)


def test_abort_stops_an_active_game() -> None:
    game, seats = started_game(2)
    lifecycle.game_abort(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.to_act_seat is None
    with pytest.raises(GameNotActive):
        play_submit.game_submit_action(
            game_id=game.pk, user=seats[1], action="pass", expected_version=0
        )
    with pytest.raises(GameNotActive):
        lifecycle.game_abort(game_id=game.pk)
