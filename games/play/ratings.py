"""Ratings: OpenSkill Plackett–Luce, updated once per finished rated game.

Displayed scale (Elo-like): ``display = 1500 + 40 × (μ − 3σ)``, rounded. A new player
(μ = 25, σ = 25/3) shows 1500; the uncertainty shown is ``± 40 × 2σ`` (≈ 95 %).
A player is *provisional* until ``PROVISIONAL_GAMES`` rated games.

A game is rated when it was created rated, every seat is human (no bot seat), and it
ended normally or with dropped seats, which rank last (``dropped_seats``, for the
time-control issue). ``Game.rated_at`` makes rating idempotent under the game's row lock.
``rebuild_all`` replays every rated game in finish order (``manage.py recompute_ratings``).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

import engine
from games.accounts import records
from games.models import PROVISIONAL_GAMES as PROVISIONAL_GAMES  # beside the leaderboard index
from games.models import Game, Profile, Seat

DISPLAY_BASE = 1500.0
DISPLAY_SCALE = 40.0

MODEL = PlackettLuce()


def display_rating(mu: float, sigma: float) -> float:
    """Return the Elo-like number shown for ``(mu, sigma)``: 1500 + 40·(μ − 3σ)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma), 1)


def display_uncertainty(sigma: float) -> int:
    """Return the ± shown next to a rating: 40·2σ, rounded."""
    return round(DISPLAY_SCALE * 2 * sigma)


def is_provisional(profile: Profile) -> bool:
    """Return whether ``profile`` has fewer than ``PROVISIONAL_GAMES`` rated games."""
    return profile.rated_games < PROVISIONAL_GAMES


def seat_is_human(seat: Seat) -> bool:
    """Return whether a person plays ``seat`` (not one of the site's bots, issue 15)."""
    return not seat.is_bot


def game_is_rateable(game: Game, seats: Iterable[Seat]) -> bool:
    """Return whether ``game`` counts: finished, created rated, every seat human."""
    return (
        game.status == Game.Status.FINISHED
        and game.is_rated
        and all(seat_is_human(seat) for seat in seats)
    )


def rating_ranks(
    placings: dict[int, int], *, dropped_seats: Collection[int] = ()
) -> dict[int, int]:
    """Return seat → rank for rating: ``placings`` (ties share a rank), dropped seats last.

    ``placings`` maps seat → place from ``engine.final_ranking`` (1 best, shared places
    equal). Dropped seats all share the rank after every remaining seat.
    """
    last = max(placings.values(), default=0) + 1
    return {seat: (last if seat in dropped_seats else rank) for seat, rank in placings.items()}


@dataclass(frozen=True)
class RatingChange:
    """One seat's rating change: the user, and displayed ratings before and after."""

    user_id: int
    before: float
    after: float


def _apply(game: Game, seats: list[Seat], ranks: dict[int, int]) -> list[RatingChange]:
    """Update profiles and seats of one game from ``ranks``; the caller holds the locks."""
    user_ids = sorted(seat.user_id for seat in seats)
    for user_id in user_ids:
        Profile.objects.get_or_create(user_id=user_id)
    # Lock in user order so two games finishing at once cannot deadlock.
    profiles = {
        p.user_id: p
        for p in Profile.objects.select_for_update()
        .filter(user_id__in=user_ids)
        .order_by("user_id")
    }
    ordered = sorted(seats, key=lambda s: s.position or 0)
    teams = [
        [MODEL.rating(mu=profiles[s.user_id].rating_mu, sigma=profiles[s.user_id].rating_sigma)]
        for s in ordered
    ]
    new = MODEL.rate(teams, ranks=[float(ranks[s.position or 0]) for s in ordered])
    changes = []
    for seat, (old_team, new_team) in zip(ordered, zip(teams, new, strict=True), strict=True):
        profile = profiles[seat.user_id]
        seat.rating_before = display_rating(old_team[0].mu, old_team[0].sigma)
        seat.rating_after = display_rating(new_team[0].mu, new_team[0].sigma)
        seat.save(update_fields=["rating_before", "rating_after"])
        profile.rating_mu = new_team[0].mu
        profile.rating_sigma = new_team[0].sigma
        profile.rated_games += 1
        profile.save(update_fields=["rating_mu", "rating_sigma", "rated_games"])
        changes.append(RatingChange(seat.user_id, seat.rating_before, seat.rating_after))
    return changes


def game_rate(
    *,
    game_id: int,
    ranking: list[engine.Placing] | None = None,
    dropped_seats: Collection[int] = (),
) -> list[RatingChange]:
    """Rate the finished game ``game_id`` once; return the changes ([] if not rated now).

    ``ranking`` defaults to the seats' stored ``final_rank`` (which ``_game_finish`` takes
    from ``engine.final_ranking``). Seats dropped from the game (``Seat.dropped_at``) rank
    last as well as any named in ``dropped_seats``, so ``rebuild_all`` rates a game exactly
    as it was rated live. Locks the game row; a game with ``rated_at`` set, not finished,
    unrated or with a non-human seat is left alone — so running twice is safe.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seats = list(game.seats.all())
        if game.rated_at is not None or not game_is_rateable(game, seats):
            return []
        if ranking is not None:
            placings = {p.seat: p.rank for p in ranking}
        else:
            placings = {s.position or 0: s.final_rank or len(seats) for s in seats}
        dropped = set(dropped_seats) | {
            s.position for s in seats if s.dropped_at is not None and s.position is not None
        }
        changes = _apply(game, seats, rating_ranks(placings, dropped_seats=dropped))
        game.rated_at = timezone.now()
        game.save(update_fields=["rated_at"])
    return changes


def rebuild_all() -> int:
    """Recompute every rating from scratch, game by game in finish order; return games rated.

    Resets every profile to the model's defaults and every seat's before/after, then rates
    each rateable finished game ordered by ``finished_at`` (then id) from its stored ranks;
    then recounts the players' kept records from history (``accounts.records``).
    """
    with transaction.atomic():
        Profile.objects.update(rating_mu=MODEL.mu, rating_sigma=MODEL.sigma, rated_games=0)
        Seat.objects.update(rating_before=None, rating_after=None)
        Game.objects.update(rated_at=None)
        count = 0
        games = Game.objects.filter(status=Game.Status.FINISHED, is_rated=True).order_by(
            "finished_at", "pk"
        )
        for game in games:
            if game_rate(game_id=game.pk):
                count += 1
        records.records_rebuild()  # the kept records count rated games (issue 31)
    return count
