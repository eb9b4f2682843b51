"""A person plays bots through HTTP in the embedded mode (issue 15): the sweep plays the bots.

The sweep is called here where ``manage.py run_sweeps`` calls it beside the server every
second; the person's answers never hold a bot's move.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine.bots
from games import tasks
from games.core import queue
from games.models import Game, Move
from games.play import bots
from tests.games.bots_helpers import human_plays_over_http, hurried
from tests.games.factories import UserFactory, client_for, page_actions, page_version

pytestmark = pytest.mark.django_db


def _created_against(client: Any, tier: str) -> Game:
    response = client.post(
        "/games/new", {"num_players": "2", "is_public": "on", "days_per_move": "", "seat_2": tier}
    )
    assert response.status_code == 302
    return Game.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


@pytest.mark.parametrize("tier", ["easy", "medium", "hard"])
def test_a_person_plays_a_whole_game_against_each_tier_through_http(
    settings: Any, tier: str
) -> None:
    settings.BOT_HARD_TIME_LIMIT = 0.0  # the least budget: one search iteration a decision
    human = UserFactory()
    client = client_for(human)
    game = _created_against(client, tier)
    game = human_plays_over_http(game, human, random.Random(15), choose=hurried(random.Random(1)))
    assert game.status == Game.Status.FINISHED
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "The game is over." in page and "Unrated game" in page
    bot_seat = game.seats.get(is_bot=True).position
    moves = Move.objects.filter(game=game)
    assert set(moves.filter(seat=bot_seat).values_list("source", flat=True)) == {Move.Source.BOT}
    assert set(moves.exclude(seat=bot_seat).values_list("source", flat=True)) == {
        Move.Source.PLAYER
    }


def test_the_answer_to_a_move_never_holds_the_bots_reply() -> None:
    human = UserFactory()
    client = client_for(human)
    game = _created_against(client, "easy")
    mine = game.seats.get(user=human).position
    while game.to_act_seat != mine:  # the bot plays first: its turn, a sweep an action
        assert bots.bots_sweep() == 1
        game.refresh_from_db()
    while game.to_act_seat == mine:
        page = client.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
        before = page_version(page.content)
        response = client.post(
            f"/games/{game.pk}/act",
            {"action": page_actions(page.content)[-1], "version": before},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200
        game.refresh_from_db()
        assert page_version(response.content) == game.version == before + 1
    # The game waits on the bot; only the sweep (or the task) moves it.
    waiting = game.version
    assert Move.objects.get(game=game, ply=waiting).source == Move.Source.PLAYER
    poll = client.get(f"/games/{game.pk}/poll?version={waiting}")
    assert poll.status_code == 204
    assert bots.bots_sweep() == 1
    poll = client.get(f"/games/{game.pk}/poll?version={waiting}")
    assert poll.status_code == 200 and page_version(poll.content) == waiting + 1


def test_the_submit_never_runs_the_bot_search_only_the_sweep_or_the_task_does(
    settings: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """Whatever the bot's budget, the person's request cannot wait on it: it never searches.

    The search (``engine.bots.choose_action``) is recorded, with a budget no request could
    wait out; the person's submit answers with no search run, and the search runs once in
    the sweep (embedded) or in the queued task (with a broker), never before.
    """
    settings.BOT_HARD_TIME_LIMIT = 3600.0
    searched: list[str] = []
    real = engine.bots.choose_action

    def recorded(*args: Any, **kwargs: Any) -> Any:
        searched.append(kwargs["tier"])
        return real(*args, **{**kwargs, "time_limit": 0.0})

    monkeypatch.setattr(engine.bots, "choose_action", recorded)
    human = UserFactory()
    client = client_for(human)
    game = _created_against(client, "hard")
    mine = game.seats.get(user=human).position
    while game.to_act_seat != mine:
        assert bots.bots_sweep() == 1
        game.refresh_from_db()
    searched.clear()

    def submit_until_the_bot_acts() -> None:
        while True:
            page = client.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true")
            response = client.post(
                f"/games/{game.pk}/act",
                {"action": page_actions(page.content)[-1], "version": page_version(page.content)},
                HTTP_HX_REQUEST="true",
            )
            assert response.status_code == 200
            assert searched == []  # the answer came, and no search ran for it
            game.refresh_from_db()
            if game.to_act_seat != mine:
                return

    submit_until_the_bot_acts()  # embedded: only the sweep searches
    assert bots.bots_sweep() == 1 and searched == ["hard"]
    while game.to_act_seat != mine:
        bots.bots_sweep()
        game.refresh_from_db()
    searched.clear()
    settings.BOTS_QUEUED = True  # with a broker: the submit queues the task, which searches
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(queue, "enqueue", lambda name, *args, **kw: queued.append((name, *args)))
    with django_capture_on_commit_callbacks(execute=True):
        submit_until_the_bot_acts()
    assert queued == [(queue.PLAY_BOT_MOVE, game.pk, game.version)] and searched == []
    assert tasks.play_bot_move(game.pk, game.version) == game.version + 1
    assert searched == ["hard"]
