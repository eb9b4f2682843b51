"""A player's record kept as counts (issue 31): updated when a game ends, read by profiles.

The profile's record (``games.selectors.profiles.player_record``) and record against the
bots (``record_against_bots``) were aggregates over every seat of the player: at the full
size of ``bench/scale.py`` a veteran's 1,100 seats cost ~42 ms of PostgreSQL a profile.
These rows hold the same sums, one row a player and kind of game (public or private), so
a profile reads one or two rows. They are written only by ``games.accounts.records``
(called from ``games.play.effects`` in the transaction that ends a game or drops a seat,
with atomic ``F()`` increments) and by its ``records_rebuild`` (the migration's backfill,
a set-based ``INSERT … SELECT … GROUP BY``). Public facts only: places, drops and ratings
of ended games (and drops of games in progress, which the game pages show).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PlayerRecordCount(models.Model):
    """The sums of ``player_record`` over the player's games of one kind (``is_public``).

    Games neither aborted nor expired. ``finished``: finished games; ``place_1``–``place_4``
    of them by place, ``players_2``–``players_4`` by player count; ``place_sum``/``place_n``
    the places (> 0) for the average place; ``lowest_sum``/``lowest_n`` the final scores
    (the lowest colour, RULES.md §13.2) for its average; ``completed`` finished games not
    dropped with another person in them; ``dropped`` seats dropped (any reason, games with
    another person, finished or in progress), ``timed_out`` those dropped for missed
    deadlines; ``rated`` finished games with a rating after.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    is_public = models.BooleanField()
    finished = models.IntegerField(default=0)
    place_1 = models.IntegerField(default=0)
    place_2 = models.IntegerField(default=0)
    place_3 = models.IntegerField(default=0)
    place_4 = models.IntegerField(default=0)
    players_2 = models.IntegerField(default=0)
    players_3 = models.IntegerField(default=0)
    players_4 = models.IntegerField(default=0)
    place_sum = models.IntegerField(default=0)
    place_n = models.IntegerField(default=0)
    lowest_sum = models.FloatField(default=0.0)
    lowest_n = models.IntegerField(default=0)
    completed = models.IntegerField(default=0)
    dropped = models.IntegerField(default=0)
    timed_out = models.IntegerField(default=0)
    rated = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "is_public"], name="record_count_one_a_kind")
        ]

    def __str__(self) -> str:
        kind = "public" if self.is_public else "private"
        return f"record of user {self.user_id} ({kind} games): {self.finished} finished"


class BotRecordCount(models.Model):
    """A person's results against one bot tier over their games of one kind (``is_public``):
    ``won``/``lost``/``tied`` as ``record_against_bots`` counts them (a bot seat of a
    finished game by places, each bot seat of a game given up a loss)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    is_public = models.BooleanField()
    tier = models.CharField(max_length=10)
    won = models.IntegerField(default=0)
    lost = models.IntegerField(default=0)
    tied = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "is_public", "tier"], name="bot_record_count_one_a_tier"
            )
        ]

    def __str__(self) -> str:
        kind = "public" if self.is_public else "private"
        return f"user {self.user_id} against {self.tier} ({kind} games): {self.won}/{self.lost}"
