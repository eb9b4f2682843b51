"""Revolts and wars (RULES.md §6, §7).

A conflict is held in ``Work.conflict`` while the attacker, then the
defender, answer a ``support`` decision (§15). ``next_war`` starts the next
war at the unification tile, or asks the active player to order them.
"""

from __future__ import annotations

from .board import NEIGHBOURS, SQUARE_NAMES
from .decisions import Conflict, Decision
from .kingdoms import Regions
from .pieces import COLOR_NAMES, LEADER_BASE, RED, TILE_BASE
from .work import Work


def support_decision(conf: Conflict) -> Decision:
    """Return the support decision for whoever must commit next in ``conf`` (§6.3, §7.3)."""
    attacker_to_commit = conf.attacker_commit < 0
    return Decision(
        seat=conf.attacker if attacker_to_commit else conf.defender,
        kind="support",
        conflict=conf.kind,
        color=COLOR_NAMES[conf.color],
        support_color=COLOR_NAMES[support_color(conf)],
        attacker=conf.attacker,
        defender=conf.defender,
        attacker_strength=conf.attacker_base + max(conf.attacker_commit, 0),
        defender_strength=conf.defender_base,
    )


def support_color(conf: Conflict) -> int:
    """Return the colour of tiles committed in ``conf``: red in a revolt (§6.3), else the war's."""
    return RED if conf.kind == "revolt" else conf.color


def temples_next_to(board: list[int], square: int) -> int:
    """Count face-up red temples adjacent to ``square`` (§6.2)."""
    temple = TILE_BASE + RED
    return sum(1 for y in NEIGHBOURS[square] if board[y] == temple)


def start_revolt(w: Work, attacker_square: int, defender_square: int) -> None:
    """Open a revolt between the leader just placed and the one already there (§6)."""
    att = (w.board[attacker_square] - LEADER_BASE) // 4 + 1
    dfn = (w.board[defender_square] - LEADER_BASE) // 4 + 1
    color = (w.board[attacker_square] - LEADER_BASE) % 4
    conf = Conflict(
        "revolt",
        color,
        att,
        dfn,
        attacker_square,
        defender_square,
        temples_next_to(w.board, attacker_square),
        temples_next_to(w.board, defender_square),
    )
    w.conflict = conf
    w.emit(
        "revolt_started",
        color=COLOR_NAMES[color],
        attacker=att,
        defender=dfn,
        attacker_strength=conf.attacker_base,
        defender_strength=conf.defender_base,
    )
    w.pending = support_decision(conf)


def wars_at(
    board: list[int], unification: int, regions: Regions
) -> list[tuple[int, list[tuple[int, int, int]]]]:
    """Return ``[(colour, [two leaders])]``: the wars possible at the unification tile (§7.1).

    ``regions`` must be labelled with the unification square set apart. A
    colour is a war when two leaders of it stand in parts touching the tile.
    """
    by_color: list[list[tuple[int, int, int]]] = [[], [], [], []]
    for part in regions.regions_next_to(unification):
        for leader in regions.leaders[part]:
            by_color[leader[1]].append(leader)
    return [(c, found) for c, found in enumerate(by_color) if len(found) >= 2]


def next_war(w: Work) -> bool:
    """Start the next war or ask for the order; return True if a decision is pending (§7.5)."""
    if w.unification < 0:
        return False
    wars = wars_at(w.board, w.unification, w.regions(w.unification))
    if not wars:
        w.unification = -1  # the marker is removed (§7.5)
        return False
    if len(wars) >= 2:
        w.pending = Decision(
            seat=w.active,
            kind="war_order",
            options=tuple(COLOR_NAMES[c] for c, _ in wars),
        )
        return True
    start_war(w, wars[0][0])
    return True


def start_war(w: Work, color: int) -> None:
    """Open the war of ``color`` at the unification tile (§7.2, §7.3)."""
    u = w.unification
    regions = w.regions(u)
    leaders = next(found for c, found in wars_at(w.board, u, regions) if c == color)
    (s1, _, q1), (s2, _, q2) = leaders[0], leaders[1]
    n = w.num_players
    if s2 == w.active or (s1 != w.active and (s2 - w.active) % n < (s1 - w.active) % n):
        (s1, q1), (s2, q2) = (s2, q2), (s1, q1)
    tile = TILE_BASE + color
    board = w.board

    def supporters(square: int) -> int:
        return sum(1 for x in regions.squares[regions.rid[square]] if board[x] == tile)

    conf = Conflict("war", color, s1, s2, q1, q2, supporters(q1), supporters(q2))
    w.conflict = conf
    w.emit(
        "war_started",
        color=COLOR_NAMES[color],
        attacker=s1,
        defender=s2,
        attacker_strength=conf.attacker_base,
        defender_strength=conf.defender_base,
    )
    w.pending = support_decision(conf)


def commit(w: Work, count: int) -> bool:
    """Commit ``count`` support tiles for the seat to act; return True when the conflict is over."""
    conf = w.conflict
    assert conf is not None
    color = support_color(conf)
    seat = conf.attacker if conf.attacker_commit < 0 else conf.defender
    w.add_tiles(seat, color, -count)
    w.discarded += count
    w.emit("support_committed", seat=seat, color=COLOR_NAMES[color], count=count)
    if conf.attacker_commit < 0:
        conf = Conflict(
            conf.kind,
            conf.color,
            conf.attacker,
            conf.defender,
            conf.attacker_square,
            conf.defender_square,
            conf.attacker_base,
            conf.defender_base,
            count,
        )
        w.conflict = conf
        w.pending = support_decision(conf)
        return False
    _resolve(w, conf, count)
    return True


def _resolve(w: Work, conf: Conflict, defender_commit: int) -> None:
    att = conf.attacker_base + conf.attacker_commit
    dfn = conf.defender_base + defender_commit
    attacker_wins = att > dfn  # a tie goes to the defender (§6.4, §7.3)
    winner, loser = (
        (conf.attacker, conf.defender) if attacker_wins else (conf.defender, conf.attacker)
    )
    loser_square = conf.defender_square if attacker_wins else conf.attacker_square
    w.emit(
        "conflict_resolved",
        kind=conf.kind,
        color=COLOR_NAMES[conf.color],
        winner=winner,
        loser=loser,
        attacker_strength=att,
        defender_strength=dfn,
    )
    w.conflict = None
    w.pending = None
    if conf.kind == "revolt":
        w.remove_leader(loser_square, "revolt")
        w.score(winner, RED, 1, "revolt")
        return
    board = w.board
    regions = w.regions(w.unification)
    tile = TILE_BASE + conf.color
    beaten = [x for x in regions.squares[regions.rid[loser_square]] if board[x] == tile]
    w.remove_leader(loser_square, "war")
    if conf.color == RED:
        # A temple with a treasure or next to another leader stays (§7.4).
        beaten = [
            x
            for x in beaten
            if x not in w.treasures and not any(board[y] >= LEADER_BASE for y in NEIGHBOURS[x])
        ]
    for x in beaten:
        w.put(x, 0)
    w.discarded += len(beaten)
    if w.log:
        before = {c for c, _ in wars_at(board, w.unification, regions)} - {conf.color}
    if beaten:
        w.emit(
            "tiles_removed",
            color=COLOR_NAMES[conf.color],
            squares=[SQUARE_NAMES[x] for x in sorted(beaten)],
            count=len(beaten),
        )
    w.score(winner, conf.color, 1 + len(beaten), "war")
    if w.log:
        after = {c for c, _ in wars_at(board, w.unification, w.regions(w.unification))}
        for c in sorted(before - after):
            w.emit("war_cancelled", color=COLOR_NAMES[c])
