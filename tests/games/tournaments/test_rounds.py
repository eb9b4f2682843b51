"""A tournament's flow through the services (issue 30): rounds start once, results count."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games.models import Game, Seat, Tournament, TournamentEntry, TournamentTable
from games.tournaments import rounds, services, sweeps
from tests.games.tournaments.helpers import end_round, event, running_games

pytestmark = pytest.mark.django_db(transaction=False)


def test_a_swiss_of_five_at_tables_of_two_runs_to_the_end(
    django_capture_on_commit_callbacks,
) -> None:
    tournament, users = event(5, rounds=3, bye_points=1)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert len(running_games(tournament)) == 2
    byes = TournamentTable.objects.filter(round__tournament=tournament, game__isnull=True)
    assert byes.count() == 1
    for number in (2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            end_round(tournament)
        tournament.refresh_from_db()
        assert tournament.current_round == number
    with django_capture_on_commit_callbacks(execute=True):
        end_round(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    # three byes, to three different players (each the lowest-placed without one)
    bye_players = TournamentEntry.objects.filter(
        table__round__tournament=tournament, table__game__isnull=True
    ).values_list("player_id", flat=True)
    assert len(set(bye_players)) == 3
    rows = rounds.standings_of(tournament.pk)
    # every game ended at its start position: both seats score 0 and share first place
    # (RULES.md §13.2), 2 points each; 2 games a round, 3 rounds, and three byes of 1
    assert sum(r.points for r in rows) == 2 * 2 * 2 * 3 + 3
    assert {e.place for e in TournamentEntry.objects.filter(table__game__isnull=False)} == {1}


def test_a_game_ended_twice_records_its_table_once(django_capture_on_commit_callbacks) -> None:
    tournament, users = event(4, rounds=2)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    first, second = running_games(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        end_round(tournament)
    assert rounds.tournament_game_ended(game_id=first.pk) == "nothing to do"
    assert rounds.tournament_game_ended(game_id=second.pk) == "nothing to do"
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    assert tournament.round_set.count() == 2


def test_withdrawing_resigns_the_game_and_pairs_no_more(django_capture_on_commit_callbacks) -> None:
    tournament, users = event(4, rounds=3)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    quitter = users[1]
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_leave(tournament_id=tournament.pk, user=quitter)
    seat = Seat.objects.get(user=quitter, game__tournament_table__isnull=False)
    assert seat.drop_reason == Seat.DropReason.RESIGNED
    with django_capture_on_commit_callbacks(execute=True):
        end_round(tournament)
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    round2 = TournamentEntry.objects.filter(table__round__number=2, player__user=quitter)
    assert not round2.exists()


def test_the_sweep_ends_a_game_past_its_limit_and_ranks_it_by_the_engine() -> None:
    tournament, users = event(2, rounds=1, max_game_days=3)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    (game,) = running_games(tournament)
    assert sweeps.tournaments_sweep()["ended"] == 0
    with time_machine.travel(timezone.now() + timedelta(days=3, minutes=1)):
        counts = sweeps.tournaments_sweep()
    assert counts["ended"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert sorted(game.seats.values_list("final_rank", flat=True)) in ([1, 1], [1, 2])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": " "}, "name"),
        ({"table_size": 5}, "2 to 4"),
        ({"table_size": 3, "min_table_size": 4}, "smallest table"),
        ({"rounds": 0}, "rounds"),
        ({"kind": "round_robin", "max_players": 11}, "Between"),
        ({"points_by_rank": {"2": [0, 2]}}, "first place down"),
        ({"days_per_move": 0}, "1 to 30"),
        ({"max_game_days": 2}, "3 to 90"),
        ({"min_rating": 1600, "max_rating": 1500}, "lowest rating"),
    ],
)
def test_bad_settings_are_refused_with_a_message_and_create_nothing(change, message) -> None:
    from tests.games.factories import UserFactory

    data = {"name": "Spring Swiss", **change}
    with pytest.raises(services.TournamentRefused, match=message):
        services.tournament_create(
            creator=UserFactory(), settings=services.TournamentSettings(**data)
        )
    assert not Tournament.objects.exists()


def test_registration_refusals_change_nothing() -> None:
    tournament, users = event(2, max_players=2)
    from tests.games.factories import UserFactory

    late = UserFactory()
    with pytest.raises(services.TournamentRefused, match="full"):
        services.tournament_register(tournament_id=tournament.pk, user=late)
    with pytest.raises(services.TournamentRefused, match="already"):
        services.tournament_register(tournament_id=tournament.pk, user=users[1])
    with pytest.raises(services.TournamentRefused, match="creator"):
        services.tournament_start(tournament_id=tournament.pk, user=users[1])
    assert tournament.players.count() == 2
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION


def test_start_when_full_starts_a_round_robin_with_every_round_planned() -> None:
    tournament, _users = event(7, kind="round_robin", max_players=7, start_when_full=7)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.rounds == 7  # Berger: 7 players, 7 rounds, one bye each
    assert len(running_games(tournament)) == 3


def test_a_round_robin_of_five_at_tables_of_three_seats_every_pair(
    django_capture_on_commit_callbacks,
) -> None:
    tournament, users = event(5, kind="round_robin", table_size=3, max_players=5)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    tournament.refresh_from_db()
    planned = tournament.rounds
    for _round in range(planned):
        with django_capture_on_commit_callbacks(execute=True):
            end_round(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    met: set[frozenset[int]] = set()
    for table in TournamentTable.objects.filter(round__tournament=tournament, game__isnull=False):
        ids = list(table.entries.values_list("player_id", flat=True))
        assert 2 <= len(ids) <= 3
        met |= {frozenset((a, b)) for a in ids for b in ids if a != b}
    assert len(met) == 5 * 4 // 2  # every pair met


def test_a_player_who_timed_out_of_two_games_is_withdrawn(
    django_capture_on_commit_callbacks,
) -> None:
    tournament, users = event(4, rounds=3)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    late = users[1]
    for number in (1, 2):
        seat = Seat.objects.get(
            user=late, game__tournament_table__round__number=number, game__status="active"
        )
        # the clocks' sweep dropped the seat for timeouts (games.play.timeouts.seat_drop)
        seat.dropped_at, seat.drop_reason = timezone.now(), Seat.DropReason.TIMEOUTS
        seat.save(update_fields=["dropped_at", "drop_reason"])
        with django_capture_on_commit_callbacks(execute=True):
            end_round(tournament)
    player = tournament.players.get(user=late)
    assert player.withdraw_reason == "timeouts"
    assert not TournamentEntry.objects.filter(table__round__number=3, player=player).exists()


def test_bots_take_the_byes_table_and_the_empty_seats_of_an_unrated_event(
    django_capture_on_commit_callbacks,
) -> None:
    tournament, users = event(5, rounds=1, is_rated=False, bots_fill_seats=True)
    # outside the captured commit: the bots' moves are queued but not played
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    games = running_games(tournament)
    assert len(games) == 3  # 2 + 2 + the bye's player against a bot: no bye
    assert not TournamentTable.objects.filter(round__tournament=tournament, game__isnull=True)
    bot_games = [g for g in games if g.seats.filter(is_bot=True).exists()]
    assert len(bot_games) == 1 and not bot_games[0].is_rated
    assert bot_games[0].seats.filter(is_bot=False).count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        end_round(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    # the bot is no player: five players in the standings, each with one game played
    assert [r.played for r in rounds.standings_of(tournament.pk)] == [1] * 5


def test_bots_are_refused_in_a_rated_event_and_nothing_is_saved() -> None:
    with pytest.raises(services.TournamentRefused, match="only in an unrated"):
        event(0, is_rated=True, bots_fill_seats=True)
    assert not Tournament.objects.exists()


def test_a_player_at_the_bot_games_limit_has_the_bye_instead(settings) -> None:
    settings.BOT_GAMES_PER_ACCOUNT = 0
    tournament, users = event(3, rounds=1, is_rated=False, bots_fill_seats=True)
    services.tournament_start(tournament_id=tournament.pk, user=users[0])
    assert len(running_games(tournament)) == 1
    assert (
        TournamentTable.objects.filter(round__tournament=tournament, game__isnull=True).count() == 1
    )
    assert not Seat.objects.filter(is_bot=True).exists()
