"""The viewer's legal actions grouped for the page: a hand tile colour, a leader, swaps…

Groups are built from the engine's typed actions (``PlayerView.actions``), by action type
and fields; each button carries the action's notation in ``data-action`` (the stable
contract of ``POST /games/<id>/act``). Each button is drawn by ``games/_action_button.html``
once per what it shows and cached, and a group's buttons are joined by
``games/_action_buttons.html``: a turn offers up to ~600 actions, whose buttons were most of
the game partial's bytes and rendering time, and from one turn to the next most of them
are the same buttons (bench/page_cost.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from django.template.loader import get_template
from django.utils.safestring import SafeString
from django.utils.translation import get_language

import engine
from games.text.actions import SQUARE_MARK, action_title, action_words, block_words
from games.text.words import COLOR_NAME, LEADER_NAME, monument_name


@dataclass(frozen=True, slots=True)
class ActionItem:
    """One legal action: its ``notation``, ``words`` (for the confirm step), the ``square``
    it lands on (``""`` for none) and the ``short`` text of its button."""

    notation: str
    words: str
    square: str
    short: str


@dataclass(frozen=True, slots=True)
class ActionGroup:
    """Legal actions of one kind, in the engine's order (swaps: fewest tiles first).

    ``key`` names the group (``tile-red``, ``leader-king``, ``catastrophe``, ``swap``…);
    ``on_board`` groups land on a square, so the board highlights their targets. ``words``
    is set for groups whose actions differ only by their target square: the words with
    ``SQUARE_MARK`` for the square (the page writes them once per group, not per action).
    ``buttons_html`` is one button per action (``games/_action_button.html``); the swap
    group's ``swap_words_html`` lists each swap's notation and words for the confirm step
    of the tick-the-tiles form (``games/_swap_words.html``).
    """

    key: str
    title: str
    actions: tuple[ActionItem, ...]
    on_board: bool = False
    words: str = ""
    buttons_html: SafeString = field(default=SafeString(""), compare=False)
    swap_words_html: SafeString = field(default=SafeString(""), compare=False)


def _group_key(action: engine.Action) -> str:
    """Return the key of the group ``action`` belongs to: its kind (``swap``…), a tile's
    by colour (``tile-red``) and a leader's by name (``leader-king``)."""
    if isinstance(action, engine.PlaceTile):
        return f"{action.kind}-{action.color_name}"
    if isinstance(action, engine.PlaceLeader):
        return f"{action.kind}-{action.leader_name}"
    return action.kind


def _short(action: engine.Action, words: str) -> str:
    """Return the text of ``action``'s button: its square, or a word or two."""
    if isinstance(action, engine.BuildMonument):
        return f"{monument_name(action.monument_name)} · {block_words(action)}"
    if action.target is not None:
        return action.target
    if isinstance(action, engine.WithdrawLeader):
        return str(LEADER_NAME[action.leader_name])
    if isinstance(action, engine.SwapTiles):
        return " ".join(str(COLOR_NAME[c]) for c in action.tile_colors)
    if isinstance(action, engine.CommitSupport):
        return str(action.count)
    if isinstance(action, engine.ChooseWar):
        return str(COLOR_NAME[action.color_name])
    return words


# Each action's notation and the square it lands on ("" for none), asked of the engine once
# per process: actions are values from a finite set (a few thousand), and a turn offers up
# to ~600 of them, most of them the last turn's again.
_NOTATIONS: dict[engine.Action, tuple[str, str]] = {}


def _notation(action: engine.Action) -> tuple[str, str]:
    """Return ``(str(action), action.target or "")``, from ``_NOTATIONS`` once known."""
    got = _NOTATIONS.get(action)
    if got is None:
        got = _NOTATIONS[action] = (str(action), action.target or "")
    return got


# Actions whose words differ only by the square they name.
_SQUARE_ONLY = (engine.PlaceTile, engine.PlaceLeader, engine.PlaceCatastrophe, engine.TakeTreasure)


def action_groups(view: engine.PlayerView) -> list[ActionGroup]:
    """Group the viewer's legal actions (``view.actions``), in the engine's order.

    Leader moves name the square the leader leaves (``view.leaders``); commits the colour
    the pending decision asks for (RULES.md §6.3, §7.3). Cached per language and what the
    groups show: the acting player's page and its polls group the same actions once.
    """
    mine = view.leaders.get(view.seat or 0, {})
    support = view.pending.support_color if view.pending is not None else None
    return list(_grouped(get_language(), view.actions, tuple(sorted(mine.items())), support))


@lru_cache(maxsize=256)
def _grouped(
    language: str | None,
    actions: tuple[engine.Action, ...],
    leaders: tuple[tuple[engine.Leader, str | None], ...],
    support: engine.Color | None,
) -> tuple[ActionGroup, ...]:
    mine = dict(leaders)
    found: dict[str, tuple[engine.Action, str, list[tuple[engine.Action, ActionItem]]]] = {}
    # The group of each action is found by its type and colour (fields, read without a
    # call), and the group's key, its words' pattern and the square a leader leaves once
    # per group: a turn offers up to ~600 actions in a few groups.
    groups_by: dict[tuple[type, int | None], tuple[str, str | None]] = {}
    for action in actions:
        color = action.color if isinstance(action, engine.PlaceTile | engine.PlaceLeader) else None
        raw = (type(action), color)
        known = groups_by.get(raw)
        if known is None:
            leaves = (
                mine.get(action.leader_name) if isinstance(action, engine.PlaceLeader) else None
            )
            known = groups_by[raw] = (_group_key(action), leaves)
        key, from_square = known
        group = found.get(key)
        if group is None:
            pattern = ""
            if isinstance(action, _SQUARE_ONLY):
                pattern = action_words(action, from_square=from_square, square=SQUARE_MARK)
            group = found[key] = (action, pattern, [])
        _first, pattern, items = group
        notation, target = _notation(action)
        if pattern:
            item = ActionItem(notation, pattern.replace(SQUARE_MARK, target), target, target)
        else:
            words = action_words(action, from_square=from_square, support_color=support)
            item = ActionItem(notation, words, target, _short(action, words))
        items.append((action, item))
    if "swap" in found:
        # Fewest tiles first, then in colour order: "red", "black", …, "red red", …
        found["swap"][2].sort(key=lambda pair: _swap_order(pair[0]))
    groups = []
    for key, (first, pattern, items) in found.items():
        bare = ActionGroup(
            key,
            action_title(first),
            tuple(item for _action, item in items),
            first.target is not None,  # it lands on a square: the board highlights targets
            pattern,
        )
        # Each button rendered once per what it shows: the same squares recur turn after turn.
        own_words = not pattern
        buttons = [
            _button(a.notation, a.words if own_words else "", a.short, a.square)
            for a in bare.actions
        ]
        html = get_template("games/_action_buttons.html").render({"buttons": buttons, "sep": " "})
        swaps = ""
        if key == "swap":
            told = [_swap_words(a.notation, a.words) for a in bare.actions]
            swaps = get_template("games/_action_buttons.html").render({"buttons": told, "sep": ""})
        groups.append(
            replace(bare, buttons_html=SafeString(html), swap_words_html=SafeString(swaps))
        )
    return tuple(groups)


@lru_cache(maxsize=8192)
def _button(notation: str, words: str, short: str, square: str = "") -> SafeString:
    """Return one action's ``<button>`` (``games/_action_button.html``), escaped.

    ``words`` is written on the button only when given (a group without a words pattern);
    ``square`` is the square the action lands on (``data-square``), if any, so the page's
    script never takes the notation apart. The autoescaping template's output is already
    safe; the stubs type it as ``str``.
    """
    context = {"notation": notation, "words": words, "short": short, "square": square}
    return SafeString(get_template("games/_action_button.html").render(context))


@lru_cache(maxsize=1024)
def _swap_words(notation: str, words: str) -> SafeString:
    """Return one swap's notation and words for the confirm step (``games/_swap_words.html``)."""
    context = {"notation": notation, "words": words}
    return SafeString(get_template("games/_swap_words.html").render(context))


def _swap_order(action: engine.Action) -> tuple[int, tuple[int, ...]]:
    """Order swaps by how many tiles they discard, then by colour (red, black, blue, green)."""
    if not isinstance(action, engine.SwapTiles):
        return (0, ())
    colors = tuple(c for c in range(4) for _unused in range(action.counts[c]))
    return (len(colors), colors)


def board_targets(groups: list[ActionGroup]) -> dict[str, list[str]]:
    """Return square → keys of the groups with an action landing on that square."""
    out: dict[str, list[str]] = {}
    for g in groups:
        for item in g.actions:
            if item.square:
                keys = out.setdefault(item.square, [])
                if g.key not in keys:
                    keys.append(g.key)
    return out


def board_picks(view: engine.PlayerView, groups: list[ActionGroup]) -> dict[str, str]:
    """Return square → group key for the viewer's leaders on the board that may move now."""
    keys = {g.key for g in groups if g.on_board}
    mine = view.leaders.get(view.seat or 0, {}) if view.seat is not None else {}
    return {
        square: f"leader-{leader}"
        for leader, square in mine.items()
        if square and f"leader-{leader}" in keys
    }
