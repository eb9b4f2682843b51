"""Tournaments (issue 30): Swiss and round-robin events of 2–4-player tables.

A ``Tournament`` holds what its creator chose; ``TournamentPlayer`` is one registration
(withdrawn players keep their row and their results); each ``TournamentRound`` cuts the
players into ``TournamentTable`` rows — a table is one ``Game`` created through play's
lifecycle, or a bye (no game, one player) — and each ``TournamentEntry`` is one player at
one table with, once the table is over, its place and its tournament points. Standings are
computed from the entries (``games.tournaments.standings``), never stored.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.games import Game

TOURNAMENT_NAME_MAX = 80
TOURNAMENT_MAX_PLAYERS = 200
ROUND_ROBIN_MAX_PLAYERS = 10
TOURNAMENT_MAX_ROUNDS = 15


def _new_tournament_token() -> str:
    return secrets.token_urlsafe(16)


class EventClock(models.Model):
    """An event's time control and daily playing hours, given to each of its games.

    The fields a tournament and a league share (a league's divisions take its values when
    a season starts: ``tournaments.leagues``). ``days_per_move`` (1–30), or a time bank
    instead (issue 17's fields, read by ``games.core.timecontrol.time_control_of``): each
    seat starts with ``bank_days``, gains ``bank_increment_hours`` a turn up to
    ``bank_cap_days``. Daily playing hours (issue 30): the games' clocks run only from
    ``playing_start`` to ``playing_end`` each day in ``playing_zone``
    (``games.core.quiet.PlayingHours``); empty: always.
    """

    days_per_move = models.PositiveSmallIntegerField(default=3)
    bank_days = models.PositiveSmallIntegerField(null=True, blank=True)
    bank_increment_hours = models.PositiveSmallIntegerField(default=0)
    bank_cap_days = models.PositiveSmallIntegerField(null=True, blank=True)
    playing_start = models.TimeField(null=True, blank=True)
    playing_end = models.TimeField(null=True, blank=True)
    playing_zone = models.CharField(max_length=64, blank=True)

    class Meta:
        abstract = True


class Tournament(EventClock):
    """One event: its settings, where it is (registration, running, finished)."""

    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("round robin")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration open")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    class Access(models.TextChoices):
        OPEN = "open", _("open to all")
        LINK = "link", _("by link only")
        # only the players the creator named (``invited``) and the creator may register
        INVITE = "invite", _("by invitation only")

    name = models.CharField(max_length=TOURNAMENT_NAME_MAX)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_tournaments"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.SWISS)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    access = models.CharField(max_length=6, choices=Access.choices, default=Access.OPEN)
    invite_token = models.CharField(max_length=32, unique=True, default=_new_tournament_token)
    # an invitation-only event's invited players (each told through the outbox)
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="tournament_invitations"
    )
    table_size = models.PositiveSmallIntegerField(default=2)
    # when the count does not divide: the smallest table allowed (2..table_size)
    min_table_size = models.PositiveSmallIntegerField(default=2)
    rounds = models.PositiveSmallIntegerField(default=5, help_text="Swiss rounds to play.")
    # tournament points by place at a table of n players: {"2": [2, 0], "3": [4, 2, 0], …}
    points_by_rank = models.JSONField(default=dict)
    bye_points = models.PositiveSmallIntegerField(default=0)
    max_players = models.PositiveSmallIntegerField(default=64)
    start_when_full = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Start as soon as this many have registered."
    )
    starts_at = models.DateTimeField(null=True, blank=True)
    registration_closes_at = models.DateTimeField(null=True, blank=True)
    min_rating = models.IntegerField(null=True, blank=True)
    max_rating = models.IntegerField(null=True, blank=True)
    is_rated = models.BooleanField(default=True)
    # an unrated event only: bots take a bye's table and a short table's empty seats
    bots_fill_seats = models.BooleanField(default=False)
    # the time control and playing hours: ``EventClock``'s fields
    # the longest a game may run; then it is ended and ranked as it stands (engine scoring)
    max_game_days = models.PositiveSmallIntegerField(default=30)
    current_round = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created_at"], name="tournament_list_idx")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2, table_size__lte=4),
                name="tournament_table_size_2_to_4",
            ),
        ]

    def __str__(self) -> str:
        return f"Tournament #{self.pk} {self.name!r} ({self.status})"


class TournamentPlayer(models.Model):
    """One player registered in a tournament; withdrawn players are paired no more."""

    class WithdrawReason(models.TextChoices):
        OWN = "own", _("withdrew")
        TIMEOUTS = "timeouts", _("timed out of two games")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    # the conservative rating when the event started: the initial order of the standings
    seed_rating = models.FloatField(default=0)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdraw_reason = models.CharField(max_length=10, blank=True, choices=WithdrawReason.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="tournament_player_once"),
        ]
        ordering = ["tournament", "registered_at", "id"]

    def __str__(self) -> str:
        return f"player {self.user_id} of tournament #{self.tournament_id}"


class TournamentRound(models.Model):
    """Round ``number`` (1..) of a tournament: created when the previous one has ended."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournament_round_once"),
        ]
        ordering = ["tournament", "number"]

    def __str__(self) -> str:
        return f"round {self.number} of tournament #{self.tournament_id}"


class TournamentTable(models.Model):
    """One table of a round: a game of 2–4 players, or a bye (no game, one player)."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="tournament_table"
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="tournament_table_once"),
        ]
        ordering = ["round", "number"]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"


class TournamentEntry(models.Model):
    """One player at one table: their place there and the tournament points it gave."""

    table = models.ForeignKey(TournamentTable, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(TournamentPlayer, on_delete=models.CASCADE, related_name="entries")
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveSmallIntegerField(null=True, blank=True)
    # the player's score at the table (the lowest colour after treasures), for tie-breaks
    game_points = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "player"], name="tournament_entry_once"),
        ]
        ordering = ["table", "place", "id"]

    def __str__(self) -> str:
        return f"{self.player} at {self.table}"
