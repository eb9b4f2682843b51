"""What the API answers, field by field (pydantic schemas through django-ninja).

Every schema names its fields: a value with more in it (a ``Game`` row, a profile with
private notes or standing orders) gives only these, never the rest. Game values come from
``engine.view_for`` and the public facts of ``GameHeader``-like rows, never the snapshot.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any, get_type_hints

from ninja import Field, Schema
from pydantic import create_model


def schema_of(
    value: type,
    *,
    leave_out: Collection[str] = (),
    descriptions: Mapping[str, str] | None = None,
) -> type[Schema]:
    """Return a schema with the fields of the frozen dataclass ``value``, in its order.

    The one definition of an answer that a page's frozen value already is (a tournament's
    or league's header): its fields' names and types, less ``leave_out`` and the
    ``*_label`` fields (words in the active language: the API answers with the codes).
    ``descriptions`` documents fields in the OpenAPI schema. The value holds public facts
    only (it is what the public page shows), so a field added to it is one the page
    shows too; subclass the result to name the schema and give it its docstring.
    Raises ``KeyError`` for a ``leave_out`` or ``descriptions`` name the value lacks.
    """
    names = [f.name for f in dataclasses.fields(value)]
    for name in [*leave_out, *(descriptions or {})]:
        if name not in names:
            raise KeyError(name)
    hints = get_type_hints(value)
    fields: dict[str, Any] = {
        name: (hints[name], Field(..., description=(descriptions or {}).get(name)))
        for name in names
        if name not in leave_out and not name.endswith("_label")
    }
    return create_model(f"{value.__name__}Fields", __base__=Schema, **fields)


class ErrorOut(Schema):
    """Every 4xx answer: ``detail`` a sentence, ``code`` a stable word (``not_found``…)."""

    detail: str
    code: str


class InvalidError(Schema):
    """One parameter's fault: where (``["query", "cursor"]``) and what."""

    loc: list[str]
    msg: str


class InvalidOut(ErrorOut):
    """A 422: ``code`` ``invalid``, and each parameter's fault in ``errors``."""

    errors: list[InvalidError]


class ThrottledOut(ErrorOut):
    """A 429: ``code`` ``rate_limited``, and the seconds to wait (also ``Retry-After``)."""

    retry_after: int


class PlayerRef(Schema):
    """A player as lists name them: the account id, the display name, whether a bot."""

    id: int
    name: str
    is_bot: bool


class SeatOut(Schema):
    """A seat of a game: ``seat`` 1..N (None before the start), dynasty, final rank."""

    seat: int | None
    player: PlayerRef
    dynasty: str
    final_rank: int | None
    dropped: bool


class GameSummary(Schema):
    """The public facts of a game (as the lobby and game pages show them)."""

    id: int
    url: str
    status: str
    num_players: int
    version: int
    to_act_seat: int | None
    deadline: datetime | None
    days_per_move: int | None
    is_public: bool
    is_rated: bool
    open_scoring: bool
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    seats: list[SeatOut]


class PendingOut(Schema):
    """The decision a game waits on (``engine.Decision``; all public, RULES.md §15)."""

    seat: int
    kind: str
    conflict: str | None
    color: str | None
    support_color: str | None
    attacker: int | None
    defender: int | None
    attacker_strength: int | None
    defender_strength: int | None
    options: list[str]
    count: int


class EventOut(Schema):
    """One event of an action, as its viewer may see it (``engine.event_visible``)."""

    code: str
    params: dict[str, Any]


class PlacingOut(Schema):
    """One seat's place at the end (RULES.md §13.2)."""

    seat: int
    rank: int
    colors: list[int]
    score: int


class ViewOut(Schema):
    """``engine.view_for(state, seat)`` field by field (``PlayerView.to_dict``; §14).

    ``hand`` is the viewer's own tiles (None for a spectator), ``hands`` every hand once
    the game is over (else None), ``scores`` only the totals this viewer may see.
    """

    seat: int | None
    num_players: int
    open_scoring: bool
    is_over: bool
    end_reason: str | None
    board: list[str]
    treasures: list[str]
    unification: str | None
    kingdoms: dict[str, int]
    leaders: dict[str, dict[str, str | None]]
    catastrophes: dict[str, int]
    hand_sizes: dict[str, int]
    hand: dict[str, int] | None
    hands: dict[str, dict[str, int]] | None
    bag_size: int
    monuments_available: list[str]
    monuments_built: dict[str, str]
    treasures_left: int
    active_seat: int
    actions_left: int
    to_act: int | None
    pending: PendingOut | None
    scores: dict[str, dict[str, int]]
    events: list[EventOut]
    legal_actions: list[str]
    ranking: list[PlacingOut]


class GameDetail(Schema):
    """One game: its public facts and the requester's view (None before it starts)."""

    game: GameSummary
    viewer_seat: int | None
    view: ViewOut | None


class MoveOut(Schema):
    """One ply as its requester may read it: a swap's colours only to the swapper (§14)."""

    ply: int
    seat: int
    action: str
    source: str
    created_at: datetime
    events: list[EventOut]


class ProfileOut(Schema):
    """A player's public profile and rating (1500 + 40·(μ − 3σ), ± 40·2σ)."""

    id: int
    name: str
    is_bot: bool
    bot_tier: str
    rating: float
    uncertainty: int
    provisional: bool
    rated_games: int
    url: str


class RatingPoint(Schema):
    """A player's rating before and after one rated finished game."""

    game: int
    finished_at: datetime | None
    rating_before: float | None
    rating_after: float | None


class LeaderOut(Schema):
    """One row of the leaderboard."""

    player: PlayerRef
    rating: float
    uncertainty: int
    rated_games: int


class TokenOut(Schema):
    """The token a request came with: its name, first characters and scope (no secret)."""

    name: str
    prefix: str
    scope: str
    created_at: datetime


class MeOut(Schema):
    """The token's owner."""

    player: PlayerRef
    token: TokenOut
