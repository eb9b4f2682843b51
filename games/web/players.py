"""The side panels of a game page: the players, the viewer's hand, the decision, the ranking.

Every value derives from ``engine.view_for`` and the seats' public facts (``SeatInfo``):
totals only where the view has them, hands only the viewer's own until the end (RULES.md §14).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import engine
from games.text.seats import SeatInfo, seat_label
from games.text.words import (
    COLOR_NAME,
    COLORS,
    LEADER_NAME,
    LEADERS,
    TILE_KIND,
    TILE_LETTER,
    TILE_NAME,
    color_word,
    conflict_name,
)


def hand_tiles(hand: Mapping[engine.Color, int] | None) -> list[dict[str, Any]]:
    """Return one item ``{"color", "letter", "name"}`` per tile in ``hand``, in colour order."""
    if not hand:
        return []
    return [
        {
            "color": color,
            "letter": TILE_LETTER[color],
            "name": TILE_NAME[color],
            "kind": TILE_KIND[color],
        }
        for color in COLORS
        for _unused in range(int(hand.get(color, 0)))
    ]


def hand_code(hand: Mapping[engine.Color, int] | None) -> str:
    """Return a hand as ``"red:3,black:0,blue:2,green:1"`` (the ``data-hand`` attribute)."""
    if hand is None:
        return ""
    return ",".join(f"{c}:{int(hand.get(c, 0))}" for c in COLORS)


def score_code(scores: Mapping[engine.ScoreKey, int] | None) -> str:
    """Return totals as ``"red:3,black:0,blue:2,green:1,treasures:0"`` (``data-vp``)."""
    if scores is None:
        return ""
    keys: tuple[engine.ScoreKey, ...] = (*COLORS, "treasures")
    return ",".join(f"{k}:{int(scores.get(k, 0))}" for k in keys)


def gains(
    view: engine.PlayerView, scored: Iterable[Mapping[str, Any]]
) -> dict[int, list[dict[str, Any]]]:
    """Return per seat the points ``scored`` (``vp_scored`` events) summed by colour.

    Only for the seats whose totals ``view`` shows (the viewer's own, or all in open
    scoring or once the game is over): "+1 red" never hints at a hidden total (RULES.md §14).
    """
    sums: dict[int, dict[Any, int]] = {}
    for event in scored:
        if event.get("code") != "vp_scored":
            continue
        p = event.get("params", {})
        seat = int(p.get("seat", 0))
        if seat not in view.scores:
            continue
        by_color = sums.setdefault(seat, {})
        by_color[p["color"]] = by_color.get(p["color"], 0) + int(p.get("amount", 0))
    return {
        seat: [
            {"color": c, "amount": by_color[c], "name": COLOR_NAME[c]}
            for c in COLORS
            if by_color.get(c)
        ]
        for seat, by_color in sums.items()
    }


def players(
    view: engine.PlayerView,
    seats: Mapping[int, SeatInfo],
    *,
    gains: Mapping[int, list[dict[str, Any]]] | None = None,
) -> list[dict[str, Any]]:
    """Return the public panel of every seat, with totals only where the view has them.

    ``gains`` are the points just scored per seat (``gains()``), shown as "+1 red".
    """
    gains = gains or {}
    out = []
    for n in range(1, view.num_players + 1):
        info = seats.get(n)
        leaders = view.leaders.get(n, {})
        scores = view.scores.get(n)
        hand = view.hands.get(n) if view.hands else None
        out.append(
            {
                "seat": n,
                "label": seat_label(seats, n),
                "username": info.username if info else "",
                "symbol": info.symbol if info else "",
                "dynasty": info.dynasty if info else "",
                "is_me": view.seat == n,
                "to_act": view.to_act == n,
                "active": view.active_seat == n,
                "supply": [
                    {"leader": name, "name": LEADER_NAME[name], "color": engine.LEADER_COLORS[name]}
                    for name in LEADERS
                    if leaders.get(name) is None
                ],
                "catastrophes": view.catastrophes.get(n, 0),
                "hand_size": view.hand_sizes.get(n, 0),
                "scores": scores,
                "score_code": score_code(scores),
                "hand": hand_tiles(hand) if hand is not None else None,
                "final_rank": info.final_rank if info else None,
                "final_score": info.final_score if info else None,
                "gains": gains.get(n, []),
            }
        )
    return out


def _rating_change(info: SeatInfo | None) -> dict[str, int] | None:
    """Return ``{"before", "after", "change"}`` (rounded displayed ratings) of a rated seat."""
    if info is None or info.rating_before is None or info.rating_after is None:
        return None
    before, after = round(info.rating_before), round(info.rating_after)
    return {"before": before, "after": after, "change": after - before}


def ranking(view: engine.PlayerView, seats: Mapping[int, SeatInfo]) -> list[dict[str, Any]]:
    """Return the final ranking rows (rank, seat label, treasures, colours after them, score,
    and ``rating``: ``{"before", "after", "change"}`` once the game is rated, else None).

    From ``view.placings`` (RULES.md §13.2): the colours include the treasures. The place
    is the seat's stored one when known, where a dropped seat ranks last (``final_rank``).
    """
    rows = []
    for placing in view.placings:
        colors = list(placing.colors)
        info = seats.get(placing.seat)
        rows.append(
            {
                "rank": (info.final_rank if info else None) or placing.rank,
                "seat": placing.seat,
                "label": seat_label(seats, placing.seat),
                "treasures": (view.scores.get(placing.seat) or {}).get("treasures", 0),
                "colors": dict(zip(COLORS, colors, strict=True)),
                "sorted": sorted(colors),
                "score": placing.score,
                "rating": _rating_change(info),
            }
        )
    return sorted(rows, key=lambda r: r["rank"])


def decision(view: engine.PlayerView, seats: Mapping[int, SeatInfo]) -> dict[str, Any] | None:
    """Return the pending decision for the panel, or None when no decision is pending.

    ``{"kind", "seat", "mine", "conflict", "color", "support_color", "attacker",
    "defender", "attacker_strength", "defender_strength", "options", "count"}`` with the
    attacker's and defender's labels and the conflict's and colours' words; every value is
    public (RULES.md §15). Who is waited on is the page's ``waiting``, written once.
    """
    pending = view.pending
    if pending is None or view.is_over:
        return None
    out = pending.to_dict()
    out["mine"] = view.seat is not None and pending.seat == view.seat
    out["conflict_name"] = conflict_name(pending.conflict)
    out["color_name"] = color_word(pending.color)
    out["support_color_name"] = color_word(pending.support_color)
    if pending.attacker is not None:
        out["attacker_label"] = seat_label(seats, pending.attacker)
        out["defender_label"] = seat_label(seats, pending.defender)
    return out
