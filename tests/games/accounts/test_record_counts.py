"""A player's record kept as counts (issue 31): every way a game ends, against a recount.

The profile reads ``PlayerRecordCount`` and ``BotRecordCount`` rows, kept by
``games.accounts.records`` in the transaction that ends a game (``play.effects``). These
tests end games every way the site ends them, through the services, then compare the kept
rows with a recount from history (``records_rebuild``: the migration's backfill) and with
the aggregate over history the profile read before, for the player, another player and an
anonymous visitor.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.test import Client

import engine
from games.accounts import records
from games.models import BotRecordCount, Game, PlayerRecordCount, Seat
from games.play import lifecycle, limits, submit, timeouts
from games.play.access import locked_game
from games.selectors import profiles
from tests.games.concurrency import at_once, skip_without_shared_database
from tests.games.factories import UserFactory, client_for, game_at_state

pytestmark = pytest.mark.django_db


def _kept() -> dict[tuple[Any, ...], dict[str, float]]:
    """Every kept count that is not zero, by (table, user, kind of game[, tier])."""
    out: dict[tuple[Any, ...], dict[str, float]] = {}
    for row in PlayerRecordCount.objects.values():
        counts = {k: v for k, v in row.items() if k not in {"id", "user_id", "is_public"} and v}
        if counts:
            out[("record", row["user_id"], row["is_public"])] = counts
    for row in BotRecordCount.objects.values():
        counts = {k: row[k] for k in ("won", "lost", "tied") if row[k]}
        if counts:
            out[("bots", row["user_id"], row["is_public"], row["tier"])] = counts
    return out


def _game(me: Any, others: list[Any], *, bots: tuple[str, ...] = (), **options: Any) -> Game:
    """Start a game of ``me``, ``others`` and ``bots`` through the services."""
    game = lifecycle.game_create(
        creator=me, num_players=1 + len(others) + len(bots), bots=bots, **options
    )
    for other in others:
        lifecycle.game_join(game_id=game.pk, user=other, invite_token=game.invite_token)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def _drop(game: Game, user: Any, reason: str) -> None:
    """Drop ``user``'s seat as the timeouts sweep does (``seat_drop``, the third timeout)."""
    with transaction.atomic():
        locked = locked_game(game.pk)
        seat = locked.seats.get(user=user)
        timeouts.seat_drop(game=locked, seat=seat, reason=reason)


def _finish_by_the_last_move(me: Any, other: Any) -> Game:
    """A 2-player game of ``me`` and ``other`` one action before its end, then that action
    submitted by its player (``submit``: the game's end by its last move)."""
    rng = random.Random(31)
    state = engine.new_game(2, 31)
    while True:
        action = rng.choice(engine.legal_actions(state))
        after = engine.apply(state, action)
        if after.is_over:
            break
        state = after
    game, seats = game_at_state(state, is_rated=True)
    Seat.objects.filter(game=game, position=1).update(user=me)
    Seat.objects.filter(game=game, position=2).update(user=other)
    player = me if state.to_act == 1 else other
    submit.game_submit_action(
        game_id=game.pk, user=player, action=str(action), expected_version=game.version
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_the_counts_kept_as_games_end_equal_a_recount_from_history() -> None:
    me, ann, bob, cat = UserFactory(), UserFactory(), UserFactory(), UserFactory()
    before = _kept()
    assert before == {}
    # 1. played to its last move (rated: a rating after)
    _finish_by_the_last_move(me, ann)
    # 2. ended at its maximum duration, ranked as it stands; 3 players, one resigned first
    three = _game(me, [ann, bob], is_rated=False)
    timeouts.game_resign(game_id=three.pk, user=bob)  # goes on: bob's drop counts now
    assert PlayerRecordCount.objects.get(user=bob, is_public=True).dropped == 1
    assert limits.game_end_at_limit(game_id=three.pk)
    # 3. timed out until dropped, then aborted by an operator: the drop is taken back
    stopped = _game(me, [ann, cat], is_rated=False)
    _drop(stopped, cat, Seat.DropReason.TIMEOUTS)
    assert PlayerRecordCount.objects.get(user=cat, is_public=True).timed_out == 1
    lifecycle.game_abort(game_id=stopped.pk)
    assert PlayerRecordCount.objects.get(user=cat, is_public=True).dropped == 0
    # 4. against bots, ended at its limit: places against each bot
    limits.game_end_at_limit(
        game_id=_game(me, [], bots=("easy", "medium"), is_rated=False, days_per_move=None).pk
    )
    # 5. against bots, resigned: given up, a loss against each bot
    timeouts.game_resign(
        game_id=_game(me, [], bots=("hard",), is_rated=False, days_per_move=None).pk, user=me
    )
    # 6. against a bot, aborted by an operator with nobody dropped: nothing
    lifecycle.game_abort(
        game_id=_game(me, [], bots=("easy",), is_rated=False, days_per_move=None).pk
    )
    # 7. two people and a bot: one resigns (counted), the other too (aborted: taken back,
    #    both given up against the bot)
    mixed = _game(me, [ann], bots=("medium",), is_rated=False, days_per_move=None)
    timeouts.game_resign(game_id=mixed.pk, user=ann)
    assert PlayerRecordCount.objects.get(user=ann, is_public=True).dropped == 1
    timeouts.game_resign(game_id=mixed.pk, user=me)
    # 8. a private game ended at its limit; an open game left and one aborted: nothing
    limits.game_end_at_limit(game_id=_game(me, [bob], is_public=False, is_rated=False).pk)
    left = lifecycle.game_create(creator=cat, num_players=2)
    lifecycle.game_leave(game_id=left.pk, user=cat)
    lifecycle.game_abort(game_id=lifecycle.game_create(creator=cat, num_players=2).pk)

    kept = _kept()
    records.records_rebuild()
    assert _kept() == kept  # the same counts, kept game by game and recounted from history
    mine = kept[("record", me.pk, True)]
    assert mine["finished"] == 3 and mine["completed"] == 2 and mine["rated"] == 1
    assert kept[("record", me.pk, False)]["finished"] == 1  # the private game
    assert kept[("record", ann.pk, True)].get("dropped", 0) == 0  # aborted: taken back
    assert kept[("record", bob.pk, True)]["dropped"] == 1  # finished: stands
    assert ("record", cat.pk, True) not in kept  # an aborted game counts for nobody
    assert kept[("bots", me.pk, True, "hard")] == {"lost": 1}
    assert kept[("bots", me.pk, True, "medium")]["lost"] >= 1  # given up in game 7
    assert kept[("bots", ann.pk, True, "medium")] == {"lost": 1}
    assert ("bots", me.pk, True, "easy") in kept  # game 4 counted; game 6 not
    assert sum(kept[("bots", me.pk, True, "easy")].values()) == 1

    # The profile: the same figures as the aggregate over history it read before, for
    # the player, another player of the private game, a stranger and an anonymous visitor.
    for viewer in (me, bob, cat, AnonymousUser()):
        for player in (me, ann, bob, cat):
            seats = profiles._seats_seen(player.pk, viewer)
            history = profiles._history_totals(seats, player.pk)
            assert profiles.record_totals(player.pk, viewer) == pytest.approx(history)


def test_a_private_game_counts_only_for_those_who_may_see_it() -> None:
    me, guest, stranger = UserFactory(), UserFactory(), UserFactory()
    limits.game_end_at_limit(game_id=_game(me, [guest], is_public=False, is_rated=False).pk)
    limits.game_end_at_limit(
        game_id=_game(me, [], bots=("easy",), is_public=False, days_per_move=None).pk
    )

    def finished(viewer: Any) -> int:
        return profiles.player_record(me.pk, viewer).finished

    assert finished(me) == 2 and finished(guest) == 1  # the guest played in one of them
    assert finished(stranger) == 0 and finished(AnonymousUser()) == 0
    assert profiles.record_against_bots(me.pk, me) != []
    assert profiles.record_against_bots(me.pk, guest) == []
    assert profiles.record_against_bots(me.pk, AnonymousUser()) == []
    page = client_for(stranger).get(f"/players/{me.pk}/").content.decode()
    record = page.split('id="record"')[1].split("</section>")[0]
    assert "<td>0</td>" in record and 'id="bot-record"' not in page
    own = client_for(me).get(f"/players/{me.pk}/").content.decode()
    assert (
        'id="bot-record"' in own
        and 'id="bot-record"' not in Client().get(f"/players/{me.pk}/").content.decode()
    )


def test_a_running_game_adds_nothing_but_a_drop_to_the_record() -> None:
    """Places and scores of a game in progress are not known (and points may be hidden):
    the record counts ended games only, and a seat dropped, which the game page shows."""
    me, ann, bob = UserFactory(), UserFactory(), UserFactory()
    game = _game(me, [ann, bob], is_rated=False)
    Seat.objects.filter(game=game).update(final_rank=1)  # past the services: never read
    assert profiles.player_record(me.pk, AnonymousUser()).finished == 0
    timeouts.game_resign(game_id=game.pk, user=bob)
    record = profiles.player_record(bob.pk, AnonymousUser())
    assert (record.finished, record.dropped, record.places) == (0, 1, [])


@pytest.mark.django_db(transaction=True)
def test_two_games_of_one_player_ending_at_once_are_both_counted() -> None:
    """Both ends commit; neither overwrites the other's count (``F()`` increments on rows
    created with ``ON CONFLICT DO NOTHING``): the player's first two games, so the row
    itself is created by the race."""
    skip_without_shared_database()
    me = UserFactory()
    games = [_game(me, [UserFactory()], is_rated=False) for _ in range(2)]
    assert not PlayerRecordCount.objects.filter(user=me).exists()

    def end(i: int) -> bool:
        return limits.game_end_at_limit(game_id=games[i].pk)

    assert at_once(end, 2) == [True, True]
    row = PlayerRecordCount.objects.get(user=me, is_public=True)
    assert row.finished == 2 and row.place_n == 2
    assert connection.vendor in {"postgresql", "sqlite"}
