"""Leagues (issue 30): seasons of N weeks, divisions of 4–8 players, promotion and relegation.

A ``League`` holds what its creator chose. Each ``LeagueSeason`` opens for players to opt
in (``LeagueMember``), then, at its start, places them in divisions (``LeagueDivision``,
1 the top one); every division is a round-robin ``Tournament`` played through the
tournaments' machinery. At the season's end each member's place in their division and
their move (up, down, stay) is written on their row, and the next season opens by itself.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models.tournaments import TOURNAMENT_NAME_MAX, EventClock, Tournament

LEAGUE_DIVISION_MIN = 4
LEAGUE_DIVISION_MAX = 8
LEAGUE_MAX_WEEKS = 26


class League(EventClock):
    """A league: the settings every season of it plays by.

    Its time control and playing hours (``EventClock``'s fields) are copied to a season's
    divisions when the season starts: a running season keeps what it started with.
    """

    name = models.CharField(max_length=TOURNAMENT_NAME_MAX)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_leagues"
    )
    table_size = models.PositiveSmallIntegerField(default=2)
    # the number of players a division aims at (4..8); divisions hold 4 to 8
    division_size = models.PositiveSmallIntegerField(default=6)
    # how many go up from each division (but the top) and down (but the bottom) each season
    promote = models.PositiveSmallIntegerField(default=1)
    season_weeks = models.PositiveSmallIntegerField(default=6)
    # the days players have to opt in between two seasons
    opt_in_days = models.PositiveSmallIntegerField(default=7)
    is_rated = models.BooleanField(default=True)
    # an unrated league only: bots fill a bye's table and a short table's seats in its
    # divisions, as in a tournament that allows them (``Tournament.bots_fill_seats``)
    bots_fill_seats = models.BooleanField(default=False)
    # open to all, or only to ``invited`` (and the creator): a group's league
    access = models.CharField(
        max_length=6, choices=Tournament.Access.choices, default=Tournament.Access.OPEN
    )
    invited = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="league_invitations"
    )
    # the creator may close joining the season that opens next (and open it again)
    registration_open = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2, table_size__lte=4),
                name="league_table_size_2_to_4",
            ),
        ]

    def __str__(self) -> str:
        return f"League #{self.pk} {self.name!r}"


class LeagueSeason(models.Model):
    """Season ``number`` (1..) of a league: opt-in, running, finished."""

    class Status(models.TextChoices):
        OPT_IN = "opt_in", _("open to join")
        RUNNING = "running", pgettext_lazy("a league season", "running")
        FINISHED = "finished", _("finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPT_IN)
    starts_at = models.DateTimeField()
    # set at the start: starts + the league's weeks; games still running then are ended
    ends_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="league_season_once"),
        ]
        indexes = [models.Index(fields=["status", "starts_at"], name="league_season_due_idx")]
        ordering = ["league", "number"]

    def __str__(self) -> str:
        return f"season {self.number} of league #{self.league_id}"


class LeagueDivision(models.Model):
    """Division ``number`` (1: the top) of a season: one round-robin tournament."""

    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="divisions")
    number = models.PositiveSmallIntegerField()
    tournament = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, related_name="league_division"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="league_division_once"),
        ]
        ordering = ["season", "number"]

    def __str__(self) -> str:
        return f"division {self.number} of {self.season}"


class LeagueMember(models.Model):
    """One player who opted in for a season; their division and, at the end, their result."""

    class Move(models.TextChoices):
        UP = "up", _("promoted")
        DOWN = "down", _("relegated")
        STAY = "stay", _("stays")

    season = models.ForeignKey(LeagueSeason, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_memberships"
    )
    opted_in_at = models.DateTimeField(auto_now_add=True)
    division = models.PositiveSmallIntegerField(null=True, blank=True)
    final_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    move = models.CharField(max_length=4, blank=True, choices=Move.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="league_member_once"),
        ]
        ordering = ["season", "division", "final_rank", "opted_in_at", "id"]

    def __str__(self) -> str:
        return f"member {self.user_id} of {self.season}"
