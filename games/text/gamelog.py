"""Write the game log in words from the events stored on each ``Move`` (RULES.md §14).

Only events the viewer may see are written (``engine.event_visible``: the colours of a
swap are shown to that seat alone until the game is over, RULES.md §14). Pure: it reads
``Move`` rows it is given and queries nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

import engine
from games.text.seats import SeatInfo, seat_label
from games.text.words import (
    color_word,
    conflict_name,
    leader_word,
    list_text,
    monument_name,
    tile_word,
)

# Says which seat an event names (``who("attacker")``): its label, or the page's mark.
Who = Callable[..., str]
Params = Mapping[str, Any]


def _leader_withdrawn(p: Params, who: Who) -> str:
    reasons = {
        "action": _("withdrawn"),
        "no_temple": _("withdrawn: no temple beside it"),
        "revolt": _("removed: lost the revolt"),
        "war": _("removed: lost the war"),
    }
    return _("%(who)s's %(leader)s on %(square)s was %(reason)s.") % {
        "who": who(),
        "leader": leader_word(p.get("leader")),
        "square": p.get("square"),
        "reason": reasons.get(str(p.get("reason")), p.get("reason")),
    }


def _catastrophe_placed(p: Params, who: Who) -> str:
    if p.get("removed"):
        return _("%(who)s placed a catastrophe on %(square)s, destroying a %(tile)s.") % {
            "who": who(),
            "square": p.get("square"),
            "tile": tile_word(p.get("removed")),
        }
    return _("%(who)s placed a catastrophe on %(square)s.") % {
        "who": who(),
        "square": p.get("square"),
    }


def _tiles_swapped(p: Params, who: Who) -> str:
    n = int(p.get("count") or 0)
    return ngettext("%(who)s swapped %(n)s tile.", "%(who)s swapped %(n)s tiles.", n) % {
        "who": who(),
        "n": n,
    }


def _vp_scored(p: Params, who: Who) -> str:
    values = {"n": p.get("amount"), "color": color_word(p.get("color")), "who": who()}
    if p.get("reason") == "monument":  # at the end of the turn (RULES.md §8)
        return _("%(n)s %(color)s VP to %(who)s from a monument.") % values
    return _("%(n)s %(color)s VP to %(who)s.") % values


def _monument_points(p: Params, who: Who) -> str:
    """One seat's points from monuments at the end of a turn, summed (``_summed``)."""
    colors = p.get("colors") or {}
    return _("%(n)s VP to %(who)s from monuments: %(colors)s.") % {
        "n": sum(colors.values()),
        "who": who(),
        "colors": list_text(f"{n} {color_word(c)}" for c, n in colors.items()),
    }


def _summed(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return ``events`` with each seat's run of monument points summed into one event.

    At the end of a turn each monument gives a king's owner 1 VP of each of its colours
    (RULES.md §8): three monuments wrote six alike clauses; they become one
    ``monument_points`` event (the site's own code, ``{"seat", "colors": {colour: VP}}``,
    colours in the order first scored).
    """
    out: list[dict[str, Any]] = []
    for event in events:
        p = event.get("params", {})
        if event.get("code") == "vp_scored" and p.get("reason") == "monument":
            last = out[-1] if out else None
            if (
                last
                and last["code"] == "monument_points"
                and last["params"]["seat"] == p.get("seat")
            ):
                colors = last["params"]["colors"]
            else:
                colors = {}
                out.append(
                    {"code": "monument_points", "params": {"seat": p.get("seat"), "colors": colors}}
                )
            colors[p.get("color")] = colors.get(p.get("color"), 0) + int(p.get("amount") or 0)
            last = out[-1]
            last["merged"] = [*last.get("merged", []), event]
            continue
        out.append(event)
    # A run of one stays the engine's own event, in its own words.
    return [e["merged"][0] if len(e.get("merged", ())) == 1 else e for e in out]


def _unification(p: Params, who: Who) -> str:
    wars = p.get("wars") or []
    if wars:
        return _("Kingdoms united at %(square)s: war over %(colors)s.") % {
            "square": p.get("square"),
            "colors": list_text(color_word(c) for c in wars),
        }
    return _("Kingdoms united peacefully at %(square)s.") % {"square": p.get("square")}


def _conflict_started(kind: engine.ConflictKind) -> Callable[[Params, Who], str]:
    def started(p: Params, who: Who) -> str:
        return _(
            "%(Conflict)s over the %(color)s leaders: %(attacker)s (%(a)s) attacks "
            "%(defender)s (%(d)s)."
        ) % {
            "Conflict": conflict_name(kind).capitalize(),
            "color": color_word(p.get("color")),
            "attacker": who("attacker"),
            "a": p.get("attacker_strength"),
            "defender": who("defender"),
            "d": p.get("defender_strength"),
        }

    return started


def _support_committed(p: Params, who: Who) -> str:
    n = int(p.get("count") or 0)
    return ngettext(
        "%(who)s committed %(n)s %(color)s tile.", "%(who)s committed %(n)s %(color)s tiles.", n
    ) % {"who": who(), "n": n, "color": color_word(p.get("color"))}


def _conflict_resolved(p: Params, who: Who) -> str:
    # The winner's strength first, as a score is read ("won 3–2"); the engine says which
    # one that is (a tie goes to the defender, RULES.md §6.4, §7.3).
    outcome = engine.conflict_outcome({"code": "conflict_resolved", "params": p})
    return _("%(winner)s won the %(color)s %(conflict)s %(a)s–%(d)s against %(loser)s.") % {
        "winner": who("winner"),
        "loser": who("loser"),
        "color": color_word(outcome.color),
        "conflict": conflict_name(outcome.kind),
        "a": outcome.winner_strength,
        "d": outcome.loser_strength,
    }


def _tiles_removed(p: Params, who: Who) -> str:
    n = int(p.get("count") or 0)
    return ngettext(
        "%(n)s %(color)s tile removed (%(squares)s).",
        "%(n)s %(color)s tiles removed (%(squares)s).",
        n,
    ) % {
        "n": n,
        "color": color_word(p.get("color")),
        "squares": ", ".join(p.get("squares", [])),
    }


def _game_over(p: Params, who: Who) -> str:
    reasons = {
        "treasures": _("only two treasures are left on the board"),
        "bag": _("the bag ran out of tiles"),
    }
    return _("The game is over: %(reason)s.") % {
        "reason": reasons.get(str(p.get("reason")), p.get("reason"))
    }


# Each event of the engine in words (None: left out of the log, turn bookkeeping), keyed by
# its ``EventCode``: ``tests/games/text/test_i18n.py`` writes every code in both languages.
SENTENCES: dict[engine.EventCode, Callable[[Params, Who], str | None]] = {
    "tile_placed": lambda p, who: (
        _("%(who)s placed a %(tile)s on %(square)s.")
        % {"who": who(), "tile": tile_word(p.get("color")), "square": p.get("square")}
    ),
    "leader_placed": lambda p, who: (
        _("%(who)s placed their %(leader)s on %(square)s.")
        % {"who": who(), "leader": leader_word(p.get("leader")), "square": p.get("square")}
    ),
    "leader_moved": lambda p, who: (
        _("%(who)s moved their %(leader)s from %(from)s to %(square)s.")
        % {
            "who": who(),
            "leader": leader_word(p.get("leader")),
            "from": p.get("from_square"),
            "square": p.get("square"),
        }
    ),
    "leader_withdrawn": _leader_withdrawn,
    "catastrophe_placed": _catastrophe_placed,
    "tiles_swapped": _tiles_swapped,
    # Follows "… swapped n tiles." in the same item: the player is already named.
    "tiles_discarded": lambda p, who: (
        _("(discarded: %(colors)s.)")
        % {"colors": list_text(color_word(c) for c in p.get("colors", []))}
    ),
    "tiles_drawn": lambda p, who: None,
    "vp_scored": _vp_scored,
    "unification": _unification,
    "revolt_started": _conflict_started("revolt"),
    "war_started": _conflict_started("war"),
    "war_cancelled": lambda p, who: (
        _("The %(color)s war is cancelled.") % {"color": color_word(p.get("color"))}
    ),
    "support_committed": _support_committed,
    "conflict_resolved": _conflict_resolved,
    "tiles_removed": _tiles_removed,
    "monument_built": lambda p, who: (
        _("%(who)s built the %(name)s monument on %(square)s.")
        % {"who": who(), "name": monument_name(p.get("monument", "")), "square": p.get("square")}
    ),
    "monument_declined": lambda p, who: _("%(who)s declined to build a monument.") % {"who": who()},
    "treasure_taken": lambda p, who: (
        _("%(who)s took the %(kind)s on %(square)s.")
        % {
            "who": who(),
            "kind": _("special treasure") if p.get("special") else _("treasure"),
            "square": p.get("square"),
        }
    ),
    "passed": lambda p, who: _("%(who)s passed.") % {"who": who()},
    "turn_ended": lambda p, who: None,
    "game_over": _game_over,
}


def sentence(
    event: Mapping[str, Any],
    seats: Mapping[int, SeatInfo],
    labels: Mapping[int, str] | None = None,
) -> str | None:
    """Return one event in words, or None for events the log leaves out (turn bookkeeping).

    ``labels`` names seats instead of their readable label (``mark``'s tokens for the page).
    The engine's events are worded by ``SENTENCES``; ``undone`` is the site's own (an undo
    row, issue 16); any other code is written as it is.
    """
    code = event.get("code")
    p: Params = event.get("params", {})

    def who(key: str = "seat") -> str:
        seat = p.get(key)
        if labels is not None and seat is not None and int(seat) in labels:
            return labels[int(seat)]
        return seat_label(seats, seat)

    by_code: Mapping[Any, Callable[[Params, Who], str | None]] = SENTENCES  # read from JSON
    found = by_code.get(code)
    if found is not None:
        return found(p, who)
    if code == "monument_points":  # the site's own: a turn's monument points summed
        return _monument_points(p, who)
    if code == "undone":
        # An undo row (issue 16, not an engine event): what was taken back was public.
        return _("%(who)s took back their last action.") % {"who": who()}
    return str(code)


def auto_note(source: str, who: str) -> str | None:
    """Return the log's note for a ply the default policy chose (issue 6), else None.

    ``source`` is ``Move.source``: ``timeout`` (the deadline passed), ``dropped`` (the
    seat was dropped or resigned and is played automatically) or ``order`` (the player's
    standing order answered: ``log_entries`` passes it only for the player's own log).
    """
    if source == "order":
        return _("Your standing order answered for you.")
    if source == "timeout":
        return _("%(who)s timed out: the default action was played.") % {"who": who}
    if source == "dropped":
        return _("%(who)s's seat is played automatically (dropped).") % {"who": who}
    return None


# A seat's mark in a sentence, for ``marked_html`` to draw (control characters: never in
# a name, which the names' normal form refuses).
_MARK = re.compile("\x01(\\d+)\x02")


def _mark(seat: int) -> str:
    return f"\x01{seat}\x02"


def marked_html(text: str, seats: Mapping[int, SeatInfo]) -> SafeString:
    """Return ``text`` escaped, each seat's mark drawn as the player's name in the dynasty's
    colour, after its sign (the stylesheet draws it: game.css ``.who::before``).

    Every mention names the player (issue 32: a score or loss line read "1 black VP to ●"
    when only the first mention had the name), never by colour or sign alone (issue 16);
    the replay page writes its log the same way.
    """
    out: list[str] = []
    pos = 0
    for m in _MARK.finditer(text):
        out.append(escape(text[pos : m.start()]))
        n = int(m.group(1))
        info = seats.get(n)
        name = info.username if info else str(n)
        dynasty = info.dynasty if info else ""
        out.append(f'<b class="who d-{escape(dynasty)}">{escape(name)}</b>')
        pos = m.end()
    out.append(escape(text[pos:]))
    return SafeString("".join(out))


def log_entries(
    moves: Iterable[Any],
    seats: Mapping[int, SeatInfo],
    viewer: int | None,
    *,
    game_over: bool,
    marked: bool = False,
) -> list[dict[str, Any]]:
    """Return ``[{"ply", "seat", "who", "lines": [str], "text", "squares", "events"}]``.

    ``moves`` are ``Move`` rows (``ply``, ``seat``, ``events``, ``source``); only events
    the viewer may see are written, and that a standing order answered only in its
    owner's log. ``text`` is the lines joined by spaces; ``events`` the move's events the
    viewer may see (``engine.visible_events``), read once for the log and the page's
    "+1 red". ``marked`` (the game page) writes each seat as a mark instead of its label,
    for ``marked_html``.
    """
    language = get_language()
    names = tuple((n, info.username, info.dynasty) for n, info in sorted(seats.items()))
    labels: dict[int | None, str] = {}
    out = []
    for move in moves:
        if move.seat not in labels:
            labels[move.seat] = seat_label(seats, move.seat)
        events = engine.visible_events(move.events, viewer, game_over=game_over)
        source = getattr(move, "source", "player")
        if source == "order" and viewer != move.seat:
            source = "player"  # standing orders are secret: only their owner is told (issue 17)
        lines, squares = _written(
            language, names, move.seat, source, json.dumps(events, sort_keys=True), marked
        )
        out.append(
            {
                "ply": move.ply,
                "seat": move.seat,
                "who": labels[move.seat],
                "lines": list(lines),
                "text": _sentences(lines, language),
                "squares": set(squares),
                "events": events,
            }
        )
    return out


def _sentences(lines: Iterable[str], language: str | None) -> str:
    """Join sentences into one log item: spaced in English, run on in Chinese ("。" ends)."""
    return ("" if (language or "").startswith("zh") else " ").join(lines)


@lru_cache(maxsize=16384)
def _written(
    language: str | None,
    names: tuple[tuple[int, str, str], ...],
    seat: int | None,
    source: str,
    events_json: str,
    marked: bool = False,
) -> tuple[tuple[str, ...], frozenset[str]]:
    # Cached by what is written: a move's visible events, its source and seat, the seats'
    # names and the language. Moves never change (append-only), so the log of a game is
    # written once per viewer and language, not at every poll (bench/page_cost.py).
    seats = {n: SeatInfo(n, username, dynasty) for n, username, dynasty in names}
    events = json.loads(events_json)
    labels = {n: _mark(n) for n in seats} if marked else None
    lines = [s for s in (sentence(e, seats, labels) for e in _summed(events)) if s]
    mover = labels[seat] if labels is not None and seat in labels else seat_label(seats, seat)
    note = auto_note(source, mover)
    if note:
        lines.insert(0, note)
    return tuple(lines), engine.event_squares(events)
