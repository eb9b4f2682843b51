"""Conflicts a seat cannot win from what it sees: never started, by every tier (issue 26).

One definition, shared by the bots and ``bench/bot_sanity.py``: a revolt or war
is **hopeless** for its attacker when the attacker's strength on the board plus
every tile of the support colour in its hand is at most the defender's strength
on the board — the defender wins ties and may still add support (RULES.md §6.4,
§7.3). Both strengths are on the board and the attacker's hand is its own, so a
seat decides it from its own view.

``starts_hopeless(state, seat, action)`` tells whether an ordinary action of
``seat`` can lead it into such a conflict: a leader that starts a hopeless
revolt (§6), or a tile whose unification leads to a hopeless war (§7), first or
later. A later war's sides are recomputed after the earlier ones (§7.5) and
depend on who won them, which hidden hands decide: each earlier conflict is
played both ways (the attacker wins with its whole hand; the defender wins by
tying), the seat choosing the order of the wars when it is the active player
(§7.2). ``hopeless_war_order(state, action)`` asks the same of a ``war``
answer. Works on a ``GameState`` the bot dealt itself from its seat's view
(``engine.determinize``): only the board, the public decision and the seat's
own hand are read, so the answer is the same in every deal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import engine
from engine import Action, ChooseWar, CommitSupport, GameState, PlaceLeader, PlaceTile
from engine.botapi import NEIGHBOURS, RED, kingdoms_touching, regions

from .common import summary, temples_next_to

COLOUR_INDEX = {"red": 0, "black": 1, "blue": 2, "green": 3}  # a decision's colour names
LOOKS_KEPT = 4096  # unifications looked at, remembered for the next deal or play-out
_LOOKS: dict[tuple[object, ...], bool] = {}
MAX_DEPTH = 24  # decisions looked through after the action: four wars and their orders, with room


def can_win(attacker_strength: int, defender_strength: int, attacker_in_hand: int) -> bool:
    """Tell whether an attacker can still win: ``strength + hand > defender`` (§6.4, §7.3).

    ``attacker_strength`` and ``defender_strength`` are the board strengths
    (temples beside the leaders in a revolt, supporters in a war) before any
    support; ``attacker_in_hand`` the attacker's tiles of the support colour.
    Ties go to the defender, so equality cannot be won.
    """
    return attacker_strength + attacker_in_hand > defender_strength


def hopeless_now(state: GameState, seat: int) -> bool:
    """Tell whether ``state`` asks ``seat`` to support, as attacker, a conflict it cannot win.

    True only while the attacker has not committed yet (the conflict has just
    started): the decision's strengths are then the board strengths.
    """
    p = state.pending
    if p is None or p.kind != "support" or p.attacker != seat or p.seat != seat:
        return False
    assert p.support_color is not None
    in_hand = state.hands[seat - 1][COLOUR_INDEX[p.support_color]]
    return not can_win(p.attacker_strength or 0, p.defender_strength or 0, in_hand)


def wars_at(state: GameState, square: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """Return ``[(colour, [(seat, kingdom), ...])]``: the wars a tile on ``square`` starts (§7.1).

    ``square`` is empty; a colour is a war when leaders of it stand in two or
    more of the kingdoms next to ``square``. Reads the board only.
    """
    reg = regions(state)
    by_colour: dict[int, list[tuple[int, int]]] = {}
    for k in {reg.kid[y] for y in NEIGHBOURS[square] if reg.kid[y] >= 0}:
        for who, c, _ in reg.leaders[k]:
            by_colour.setdefault(c, []).append((who, k))
    return [(c, sides) for c, sides in sorted(by_colour.items()) if len(sides) >= 2]


def starts_hopeless(state: GameState, seat: int, action: Action) -> bool:
    """Tell whether ``seat``'s ordinary ``action`` can lead it into a hopeless conflict.

    ``state`` awaits ``seat``'s ordinary action and ``action`` is legal in it.
    True when the action starts a revolt or war ``seat`` attacks and cannot win
    (``can_win``), or when, whatever order ``seat`` gives the wars it starts and
    whoever wins the earlier ones, a later war it attacks is hopeless (module
    doc). A revolt (§6.2: temples beside each leader) and a lone war (§7.3:
    each side's supporters, the tile itself on neither) are read off the board;
    several wars are played out. Other actions start no conflict.
    """
    hand = state.hands[seat - 1]
    if isinstance(action, PlaceLeader):
        reg = regions(state)
        board = state.board
        mine = temples_next_to(board, action.square)
        for r in {reg.rid[y] for y in NEIGHBOURS[action.square] if reg.rid[y] >= 0}:
            for who, c, q in reg.leaders[r]:
                if c == action.color and who != seat:
                    return not can_win(mine, temples_next_to(board, q), hand[RED])
        return False
    if not isinstance(action, PlaceTile) or kingdoms_touching(state)[action.square] < 2:
        return False
    wars = wars_at(state, action.square)
    if not wars:
        return False
    if len(wars) == 1 and len(wars[0][1]) == 2:
        colour, sides = wars[0]
        if seat not in (sides[0][0], sides[1][0]):
            return False  # another seat's war: the seat attacks only in its own (§7.2)
        (sa, ka), (_, kb) = sides
        mine_k, theirs_k = (ka, kb) if sa == seat else (kb, ka)
        counts = summary(state).counts
        in_hand = hand[colour] - (1 if colour == action.color else 0)
        return not can_win(counts[mine_k][colour], counts[theirs_k][colour], in_hand)
    # Several wars: played out. The tile's own colour changes only the hand left (it is on
    # neither side, §7.3), and only the wars' colours of it are committed: one look serves
    # every colour that leaves those alike.
    # The look reads the board and its treasures (§7.4), the seat's tiles of the wars'
    # colours and the hands' sizes (public, §14), a pure function of these: the deals of
    # one view and a search's play-outs share it (``_LOOKS``).
    left = tuple(hand[c] - (1 if c == action.color else 0) for c, _ in wars)
    sizes = tuple(sum(h) for h in state.hands)
    key = (state.board, state.treasures, action.square, seat, left, sizes)
    got = _LOOKS.get(key)
    if got is not None:
        return got
    try:
        after = engine.apply(state, action)
    except engine.IllegalActionError:
        return False
    result = _risky(after, seat, MAX_DEPTH, len(wars))
    if len(_LOOKS) >= LOOKS_KEPT:
        _LOOKS.clear()
    _LOOKS[key] = result
    return result


def hopeless_war_order(state: GameState, action: Action) -> bool:
    """Tell whether answering ``state``'s ``war_order`` decision with ``action`` is hopeless.

    The deciding seat is the active player (§7.2); True when, with that war
    fought first, some war the seat attacks, now or later, cannot be won
    (``starts_hopeless``).
    """
    p = state.pending
    if p is None or p.kind != "war_order" or not isinstance(action, ChooseWar):
        return False
    return _risky(engine.apply(state, action), p.seat, MAX_DEPTH, len(p.options))


def _risky(
    state: GameState,
    seat: int,
    depth: int,
    wars: int = 1,
    memo: dict[tuple[object, ...], bool] | None = None,
) -> bool:
    """Tell whether a hopeless conflict of ``seat`` can follow ``state`` (module doc).

    ``wars`` is how many wars of the unification are still to be fought,
    the one pending included. Wars are only ever cancelled, never added,
    after a war (§7.5: a kingdom holds one leader of a colour, so a part split
    off by removals brings no new pair), so the last one ends the look. Orders
    that reach one position (``memo``: board, hands, decision) are looked at once.
    """
    p = state.pending
    if p is None or state.is_over or depth <= 0:
        return False
    if hopeless_now(state, seat):
        return True
    if memo is None:
        memo = {}
    key = (state.board, state.hands, p, wars)
    got = memo.get(key)
    if got is not None:
        return got
    if p.kind == "war_order":
        orders = _orders(state)
        left = len(orders)
        outcomes = (_risky(engine.apply(state, a), seat, depth - 1, left, memo) for a in orders)
        # The seat orders its own wars (§7.2): risky only if every order is.
        result = all(outcomes) if p.seat == seat else any(outcomes)
    elif p.kind == "support" and p.seat == p.attacker:
        if p.conflict == "revolt" or wars <= 1:
            result = False  # the last conflict: nothing follows it
        else:
            result = any(
                _risky(s, seat, depth - 1, wars - 1, memo) for s in _both_ways(state, seat)
            )
    else:
        result = _risky(engine.apply(state, _first_answer(state)), seat, depth - 1, wars, memo)
    memo[key] = result
    return result


def _orders(state: GameState) -> list[Action]:
    """Return the answers to a ``war_order`` decision."""
    return [a for a in engine.legal_actions(state) if isinstance(a, ChooseWar)]


def _first_answer(state: GameState) -> Action:
    """Answer a decision that decides no conflict (monument, treasure) by its first option."""
    p = state.pending
    assert p is not None
    if p.kind == "support":
        return CommitSupport(0)
    return engine.legal_actions(state)[0]


def _both_ways(state: GameState, seat: int) -> Iterator[GameState]:
    """Yield the states after a conflict (attacker to commit) won by each side, where possible.

    The attacker wins committing its whole hand of the support colour while the
    defender commits nothing; the defender wins when the attacker commits
    nothing and it ties, given the tiles (a hidden hand may hold them; the
    seat's own hand is exact: the caller sees only its own).
    """
    p = state.pending
    assert p is not None and p.support_color is not None and p.defender is not None
    colour = COLOUR_INDEX[p.support_color]
    att, dfn = p.attacker_strength or 0, p.defender_strength or 0
    have = state.hands[p.seat - 1][colour]
    if can_win(att, dfn, have):
        s = engine.apply(state, CommitSupport(have))
        yield engine.apply(s, CommitSupport(0))
    s = engine.apply(state, CommitSupport(0))
    need = max(0, att - dfn)
    hand = list(s.hands[p.defender - 1])
    if need > (hand[colour] if p.defender == seat else sum(hand)):
        return
    while hand[colour] < need:  # a sample of a hidden hand: give it the tiles it may hold
        donor = max((c for c in range(4) if c != colour), key=lambda c: hand[c])
        hand[donor] -= 1
        hand[colour] += 1
    hands = list(s.hands)
    hands[p.defender - 1] = (hand[0], hand[1], hand[2], hand[3])
    yield engine.apply(replace(s, hands=tuple(hands)), CommitSupport(need))


__all__ = [
    "can_win",
    "hopeless_now",
    "hopeless_war_order",
    "starts_hopeless",
    "wars_at",
]
