"""Bots move in the background (issue 15): one action a task, by version, never in a request."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

import engine
from games import tasks
from games.core import queue
from games.core.states import game_state
from games.models import Game, Move
from games.play import bots, submit
from games.text.seats import display_name
from tests.games.bots_helpers import PLY_LIMIT, bot_game
from tests.games.playing import passing

pytestmark = pytest.mark.django_db


def _to_the_bot(game: Game, human: Any, position: int) -> Game:
    """Have the person pass until the game waits on the bot; return the game then."""
    for _ply in range(10):
        game.refresh_from_db()
        if game.to_act_seat != position:
            return game
        state = game_state(game)
        action = passing(engine.legal_actions(state))
        submit.game_submit_action(
            game_id=game.pk, user=human, action=str(action), expected_version=game.version
        )
    raise AssertionError("the bot never came to act")


def test_a_bot_task_plays_one_action_through_the_submit_service() -> None:
    game, human, position = bot_game(("easy",))
    game = _to_the_bot(game, human, position)
    version = game.version
    ply = tasks.play_bot_move(game.pk, version)
    game.refresh_from_db()
    assert ply == version + 1 == game.version
    move = Move.objects.get(game=game, ply=ply)
    assert move.source == Move.Source.BOT
    assert move.seat != position


def test_a_bot_task_for_a_stale_version_does_nothing() -> None:
    game, human, position = bot_game(("easy",))
    game = _to_the_bot(game, human, position)
    version = game.version
    assert tasks.play_bot_move(game.pk, version) is not None
    game.refresh_from_db()
    moved = (game.version, Move.objects.filter(game=game).count())
    assert tasks.play_bot_move(game.pk, version) is None  # the same task delivered twice
    assert tasks.play_bot_move(game.pk, version - 1) is None
    assert tasks.play_bot_move(game.pk + 1000, 0) is None  # no such game
    game.refresh_from_db()
    assert (game.version, Move.objects.filter(game=game).count()) == moved


def test_a_bot_task_does_nothing_while_the_game_waits_on_the_person() -> None:
    game, human, position = bot_game(("easy",))
    game = _to_the_bot(game, human, position)
    while game.to_act_seat != position:
        assert tasks.play_bot_move(game.pk, game.version) is not None
        game.refresh_from_db()
    assert tasks.play_bot_move(game.pk, game.version) is None
    game.refresh_from_db()
    assert game.to_act_seat == position


def test_a_bot_sees_only_what_its_seat_log_showed() -> None:
    game, human, position = bot_game(("easy",))
    state = game_state(game)
    if state.to_act != position:
        game = _to_the_bot_back(game)
        state = game_state(game)
    swap = next(a for a in engine.legal_actions(state) if isinstance(a, engine.SwapTiles))
    submit.game_submit_action(
        game_id=game.pk, user=human, action=str(swap), expected_version=game.version
    )
    bot_seat = 3 - position
    stored = [e for m in Move.objects.filter(game=game) for e in m.events]
    seen = [e for ply in bots.seen_events(game.pk, seat=bot_seat) for e in ply]
    private = [e for e in stored if e.get("private_to") == position]
    assert private, "a swap tells the swapper alone which colours went back"
    assert all(e not in seen for e in private)
    assert [e for e in stored if "private_to" not in e] == seen


def _to_the_bot_back(game: Game) -> Game:
    """Let the bot play until the game waits on the person."""
    for _ply in range(10):
        game.refresh_from_db()
        if not game.seats.get(position=game.to_act_seat).is_bot:
            return game
        tasks.play_bot_move(game.pk, game.version)
    raise AssertionError("the bot kept the move")


def test_a_four_player_game_of_one_person_and_three_bots_ends() -> None:
    game, human, position = bot_game(("easy", "easy", "easy"))
    rng = random.Random(4)
    for _ply in range(PLY_LIMIT):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        if game.to_act_seat == position:
            legal = engine.legal_actions(game_state(game))
            submit.game_submit_action(
                game_id=game.pk,
                user=human,
                action=str(rng.choice(legal)),
                expected_version=game.version,
            )
        else:
            assert bots.bots_sweep() == 1
    assert game.status == Game.Status.FINISHED
    seats = list(game.seats.all())
    assert sorted(s.final_rank or 0 for s in seats)[0] == 1
    assert all(s.rating_after is None for s in seats)  # unrated
    sources = set(
        Move.objects.filter(game=game).exclude(seat=position).values_list("source", flat=True)
    )
    assert sources == {Move.Source.BOT}


@pytest.fixture
def queued_with_a_pause(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Bots queued through a broker with a 0.5 s pause: the tasks enqueued, as
    (name, *args, countdown), instead of sent."""
    settings.BOTS_QUEUED = True
    settings.BOT_PAUSE_SECONDS = 0.5
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        queue,
        "enqueue",
        lambda name, *args, countdown=None: queued.append((name, *args, countdown)),
    )
    return queued


def test_with_a_broker_the_move_that_waits_on_a_bot_queues_its_task_after_the_commit(
    queued_with_a_pause: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    queued = queued_with_a_pause
    with django_capture_on_commit_callbacks(execute=True):
        game, human, position = bot_game(("easy",))
    starts = [q for q in queued if q[0] == queue.PLAY_BOT_MOVE]
    if game.to_act_seat != position:  # the bot plays first: queued by the start, no pause
        assert starts == [(queue.PLAY_BOT_MOVE, game.pk, 0, None)]
        return
    assert starts == []
    with django_capture_on_commit_callbacks(execute=True):
        game = _to_the_bot(game, human, position)
    bot_tasks = [q for q in queued if q[0] == queue.PLAY_BOT_MOVE]
    # The answer to a person's move: at once, nothing added to the bot's thinking (issue 29).
    assert bot_tasks == [(queue.PLAY_BOT_MOVE, game.pk, game.version, None)]
    assert not Move.objects.filter(game=game, source=Move.Source.BOT).exists()


def test_with_a_broker_a_bot_action_after_one_played_for_a_seat_waits_the_pause(
    queued_with_a_pause: list[tuple[Any, ...]], django_capture_on_commit_callbacks: Any
) -> None:
    # Each action of a bot's turn shows on the page before the next one replaces it.
    queued = queued_with_a_pause
    game, human, position = bot_game(("easy",))
    game = _to_the_bot(game, human, position)
    for _action in range(6):  # the bot's actions until it acts after its own
        queued.clear()
        with django_capture_on_commit_callbacks(execute=True):
            tasks.play_bot_move(game.pk, game.version)
        game.refresh_from_db()
        if game.to_act_seat != position:
            break
    else:
        raise AssertionError("the bot never played twice in a row")
    assert [q for q in queued if q[0] == queue.PLAY_BOT_MOVE] == [
        (queue.PLAY_BOT_MOVE, game.pk, game.version, 0.5)
    ]


def test_the_embedded_sweep_answers_a_person_at_once_and_pauses_after_a_bot_action(
    settings: Any,
) -> None:
    settings.BOT_PAUSE_SECONDS = 0.5
    game, human, position = bot_game(("easy",))
    game = _to_the_bot(game, human, position)
    assert bots.bots_sweep() == 1  # after the person's move: no pause
    game.refresh_from_db()
    if game.to_act_seat == position:  # the bot's turn ended with one action (a decision)
        game = _to_the_bot(game, human, position)
        assert bots.bots_sweep() == 1
        game.refresh_from_db()
    assert game.to_act_seat != position, "the bot never came to play twice in a row"
    version = game.version
    assert bots.bots_sweep() == 0  # its own last action is younger than the pause
    assert Game.objects.get(pk=game.pk).version == version
    Move.objects.filter(game=game, ply=version).update(
        created_at=timezone.now() - timedelta(seconds=0.6)
    )
    assert bots.bots_sweep() == 1
    assert Game.objects.get(pk=game.pk).version == version + 1


def test_the_beat_sweep_requeues_a_game_left_waiting_on_a_bot_a_minute(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.BOTS_QUEUED = True
    settings.BOT_SWEEP_AFTER_SECONDS = 60.0
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(queue, "enqueue", lambda name, *args, **kw: queued.append((name, *args)))
    game, human, position = bot_game(("easy",))
    game = _to_the_bot(game, human, position)
    assert tasks.sweep_bots() == 0  # waiting for seconds only: its task is on its way
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=2))
    assert tasks.sweep_bots() == 1
    assert queued == [(queue.PLAY_BOT_MOVE, game.pk, game.version)]


def test_bot_tasks_go_to_their_own_queue() -> None:
    from celery import current_app

    router = current_app.amqp.router
    for name in ("games.tasks.play_bot_move", "games.tasks.sweep_bots"):
        assert router.route({}, name)["queue"].name == "bots"
    assert router.route({}, "games.tasks.send_notification")["queue"].name != "bots"


def test_a_seat_resigned_in_a_three_player_game_is_played_by_the_medium_bot() -> None:
    from games.core.errors import NotAPlayer
    from games.play import timeouts
    from games.selectors.games import seat_infos
    from tests.games.factories import started_game

    game, seats = started_game(3, is_rated=False, days_per_move=None)
    leaver = game.to_act_seat or 0
    timeouts.game_resign(game_id=game.pk, user=seats[leaver])
    game.refresh_from_db()
    assert game.to_act_seat == leaver and not game.moves.exists()  # nothing in the request
    with pytest.raises(NotAPlayer, match="the bot plays your seat"):
        submit.game_submit_action(
            game_id=game.pk, user=seats[leaver], action="pass", expected_version=game.version
        )
    name = seat_infos(Game.objects.prefetch_related("seats__user__profile").get(pk=game.pk))
    assert name[leaver].username.endswith(" (bot)")
    rng = random.Random(3)
    for _ply in range(PLY_LIMIT):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        if game.to_act_seat == leaver:
            assert bots.bots_sweep() == 1
            continue
        legal = engine.legal_actions(game_state(game))
        submit.game_submit_action(
            game_id=game.pk,
            user=seats[game.to_act_seat],
            action=str(rng.choice(legal)),
            expected_version=game.version,
        )
    assert game.status == Game.Status.FINISHED
    played = set(Move.objects.filter(game=game, seat=leaver).values_list("source", flat=True))
    assert played == {Move.Source.BOT}
    # It still ranks last, however the bot scored, under its person's name with "(bot)".
    ranks = dict(game.seats.values_list("position", "final_rank"))
    assert ranks[leaver] == 3 and sorted(ranks.values()) in ([1, 2, 3], [1, 1, 3])
    final = Client().get(f"/games/{game.pk}/").content.decode()
    final = final[final.index('id="final"') :]
    rows = final[final.index("<tbody>") : final.index("</tbody>")].split("<tr>")[1:]
    assert rows[-1].startswith("<td>3</td>")
    assert f"{display_name(seats[leaver])} (bot)" in rows[-1]


@pytest.mark.parametrize("tier", ["medium", "hard"])
def test_every_tier_answers_on_the_site_within_its_budget(settings: Any, tier: str) -> None:
    settings.BOT_HARD_TIME_LIMIT = 0.2  # seconds: keeps the hard bot's test cheap
    game, human, position = bot_game((tier,))
    game = _to_the_bot(game, human, position)
    ply = tasks.play_bot_move(game.pk, game.version)
    assert ply == game.version + 1
    assert Move.objects.get(game=game, ply=ply).source == Move.Source.BOT


def test_a_game_with_no_person_left_playing_ends_at_once() -> None:
    """Issue 28, finding 3: resigning a 2-player bot game, or the last person of a game of
    bots, ends it; no bot plays on for nobody, nothing is queued or swept."""
    from games.play import lifecycle, timeouts
    from tests.games.factories import UserFactory

    person = UserFactory()
    duel = lifecycle.game_against_bot_create(creator=person)
    three = lifecycle.game_create(
        creator=person, num_players=4, is_rated=False, bots=("hard", "hard", "hard")
    )
    for game in (duel, three):
        timeouts.game_resign(game_id=game.pk, user=person)
        game.refresh_from_db()
        assert game.status == Game.Status.ABORTED and game.to_act_seat is None
    assert bots.games_waiting_on_bots(older_than=timedelta(0)) == []
    assert bots.bots_sweep() == 0


def test_an_account_may_run_only_so_many_bot_games(settings: Any) -> None:
    """Issue 28, finding 3: a clear refusal past ``BOT_GAMES_PER_ACCOUNT``, in both languages;
    a game resigned (so ended) frees its place."""
    from django.utils import translation

    from games.core.errors import JoinRefused
    from games.play import lifecycle, timeouts
    from tests.games.factories import UserFactory, client_for

    settings.BOT_GAMES_PER_ACCOUNT = 2
    person = UserFactory()
    first = lifecycle.game_against_bot_create(creator=person)
    lifecycle.game_create(creator=person, num_players=3, is_rated=False, bots=("easy",))
    before = Game.objects.count()
    with pytest.raises(JoinRefused, match="You already have 2 games with bots"):
        lifecycle.game_against_bot_create(creator=person, tier="hard")
    with translation.override("zh-hans"), pytest.raises(JoinRefused) as refused:
        lifecycle.game_against_bot_create(creator=person, tier="hard")
    assert "机器人" in str(refused.value)
    assert Game.objects.count() == before
    # someone else is not held back by this account's games
    lifecycle.game_against_bot_create(creator=UserFactory())
    timeouts.game_resign(game_id=first.pk, user=person)
    lifecycle.game_against_bot_create(creator=person, tier="hard")
    assert client_for(person).get("/").status_code == 200


def test_the_bots_sweep_serves_accounts_in_turn() -> None:
    """Issue 28, finding 3: one account's many waiting games do not go before another's."""
    rows = [(1, 5, 7), (2, 5, 7), (3, 5, 7), (4, 5, 8), (5, 5, 7), (6, 5, 9)]
    assert bots.fair_order(rows) == [(1, 5), (4, 5), (6, 5), (2, 5), (3, 5), (5, 5)]
