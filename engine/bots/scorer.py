"""The scoring model behind ``heuristic``: one seat's ordinary actions valued in one state.

``Scorer(state, seat)`` reads the board summary, the colour weights and the odds of the
unseen hands once, then values a tile (VP it brings, RULES.md §5.2, and the war it starts,
§7), a leader placed (its income, the revolt it starts or risks, §4, §6, the treasures a
trader takes, §9), a leader withdrawn (§4) and the catastrophes that strand leaders (§10),
in units of ``common.score_value`` (about 3 for one VP in the lowest colour), without
applying any action. ``heuristic.score_actions`` and ``score_threats`` pick which actions
to value; this module says what each is worth.
"""

from __future__ import annotations

import engine
from engine import GameState, PlaceCatastrophe
from engine.botapi import (
    IS_RIVER,
    KING,
    LEADER_BASE,
    NEIGHBOURS,
    RED,
    TRADER,
    cell_leader,
    kingdoms_touching,
)

from .common import (
    TEMPLE,
    Summary,
    colour_weights,
    monument_block,
    summary,
    temples_next_to,
    unseen_fractions,
    win_chance,
)
from .hopeless import can_win

TREASURE_VALUE = 2.6  # a treasure is a wild VP, placed on the lowest colour (§13.2)
IDLE_TILE_SCORE = -0.4
HOPELESS = -100.0  # a conflict that cannot be won: never a candidate (dropped by score_actions)
WITHDRAW_SCORE = -1.0  # withdrawing a safe leader gives up its income (§4)


def opp_factor(state: GameState) -> float:
    """Return how much an opponent's gain counts against the bot (more with fewer players)."""
    return 0.8 if state.num_players == 2 else 0.45


class Scorer:
    """Score one seat's ordinary actions in one state (see the module doc)."""

    def __init__(self, state: GameState, seat: int) -> None:
        """Read the board summary, colour weights and the odds of unseen hands."""
        self.state = state
        self.seat = seat
        self.summ: Summary = summary(state)
        self.board = state.board
        self.hand = state.hands[seat - 1]
        self.w = [colour_weights(state, s) for s in range(1, state.num_players + 1)]
        self.of = opp_factor(state)
        self.frac = unseen_fractions(state, seat)
        self.nk = kingdoms_touching(state)
        self._wars: dict[tuple[int, int, int], float] = {}
        self._squares: dict[int, tuple[list[int], list[tuple[int, int, int]], float]] = {}
        self._spots: dict[int, tuple[list[int], list[int], int, int, int, int]] = {}
        self._revolt_spots: dict[int, int] | None = None
        self._tile_spots: dict[int, int] | None = None
        self._union_spots: dict[tuple[int, int], int] | None = None
        self.scores_now = False  # set by ``tile``: a placement scores the bot a VP (§5.2)
        self.monuments_free = [
            any(
                state.monuments[m] < 0
                for m, pair in enumerate(engine.botapi.MONUMENTS)
                if c in pair
            )
            for c in range(4)
        ]

    def gain(self, who: int, color: int, amount: float = 1.0) -> float:
        """Return what ``amount`` VP of ``color`` to seat ``who`` is worth to the bot."""
        if who == 0:
            return 0.0
        if who == self.seat:
            return amount * self.w[who - 1][color]
        return -self.of * amount * self.w[who - 1][color]

    def leader_value(self, who: int, color: int, r: int) -> float:
        """Return the worth of ``who``'s leader of ``color`` standing in region ``r``."""
        if r < 0:
            return 0.0
        counts = self.summ.counts[r]
        base = 0.4 + 0.12 * min(counts[color], 8)
        if color == KING:
            base += 0.02 * min(len(self.summ.regions.squares[r]), 20)
        return base * self.w[who - 1][color]

    def to_bot(self, who: int, value: float) -> float:
        """Return ``value`` to seat ``who`` as seen by the bot (an opponent's counts against)."""
        return value if who == self.seat else -self.of * value

    def hand_expect(self, who: int) -> int:
        """Return the size of ``who``'s hand (public, RULES.md §14)."""
        return sum(self.state.hands[who - 1])

    # --- tiles --------------------------------------------------------------

    def square(self, s: int) -> tuple[list[int], list[tuple[int, int, int]], float]:
        """Return, for empty ``s``: the kingdoms next to it, their leaders and the treasure swing.

        The swing is what the treasures a tile there joins to a kingdom with a
        trader are worth to the bot (§9); it does not depend on the tile's colour.
        """
        got = self._squares.get(s)
        if got is not None:
            return got
        reg = self.summ.regions
        kid = reg.kid
        ks: list[int] = []
        for y in NEIGHBOURS[s]:
            k = kid[y]
            if k >= 0 and k not in ks:
                ks.append(k)
        swing = 0.0
        leaders: list[tuple[int, int, int]] = []
        if len(ks) == 1:
            k = ks[0]
            leaders = reg.leaders[k]
            trader = next((seat for seat, c, _ in leaders if c == TRADER), 0)
            if trader:
                before = self.summ.treasures[k]
                after = before + sum(
                    self.summ.treasures[r]
                    for r in {reg.rid[y] for y in NEIGHBOURS[s] if reg.rid[y] >= 0} - {k}
                )
                taken = max(0, after - 1) - max(0, before - 1)
                swing = self.to_bot(trader, taken * TREASURE_VALUE)
        got = (ks, leaders, swing)
        self._squares[s] = got
        return got

    def tile(self, color: int, s: int) -> float:
        """Score placing a tile of ``color`` on ``s`` (§5.2, §7)."""
        ks, leaders, swing = self.square(s)
        board = self.board
        score = 0.0
        if len(ks) == 1:
            recv = 0
            for seat, c, _ in leaders:
                if c == color:
                    recv = seat
                    break
                if c == KING:
                    recv = seat
            score += self.gain(recv, color) + swing
            if recv == self.seat:
                self.scores_now = True
            if recv == self.seat and any(c == color for _, c, _ in leaders):
                score += 0.06  # one more supporter in a war (§7.3)
        elif len(ks) == 2:
            war = self.war(color, s, ks[0], ks[1])
            if war <= HOPELESS:
                return HOPELESS  # no monument or treasure makes up for it (issue 26)
            score += war
        else:
            return IDLE_TILE_SCORE
        if color == RED:
            for y in NEIGHBOURS[s]:
                cell = board[y]
                if cell >= LEADER_BASE:
                    who, _ = cell_leader(cell)
                    score += 0.25 if who == self.seat else -0.1
        if self.monuments_free[color] and monument_block(board, s, color):
            score += 1.2
        return score

    def war(self, color: int, s: int, k1: int, k2: int) -> float:
        """Estimate the wars that uniting kingdoms ``k1`` and ``k2`` on ``s`` starts (§7).

        The estimate depends on the two kingdoms and the tile's colour only
        (cached): the square does not change who fights with what.
        """
        key = (k1, k2, color)
        got = self._wars.get(key)
        if got is None:
            got = self._war(k1, k2, color)
            self._wars[key] = got
        return got

    def _war(self, k1: int, k2: int, tile: int) -> float:
        """Value the wars at a unification by a tile of colour ``tile`` (see ``war``).

        Returns ``HOPELESS`` when the bot would attack in a war it cannot win:
        its supporters plus every tile of the colour left in its hand after
        this one at most the defender's supporters (ties go to the defender,
        RULES.md §7.3).
        """
        reg = self.summ.regions
        counts = self.summ.counts
        by_color: dict[int, list[tuple[int, int]]] = {}
        for k in (k1, k2):
            for seat, c, _ in reg.leaders[k]:
                by_color.setdefault(c, []).append((seat, k))
        total = -0.15
        for c, sides in by_color.items():
            if len(sides) < 2:
                continue
            (sa, ka), (sb, kb) = sides
            if self.seat not in (sa, sb):
                continue
            mine_k, theirs, theirs_k = (ka, sb, kb) if sa == self.seat else (kb, sa, ka)
            if theirs == self.seat:
                continue
            in_hand = self.hand[c] - (1 if c == tile else 0)
            if not can_win(counts[mine_k][c], counts[theirs_k][c], in_hand):
                return HOPELESS  # the bot attacks (§7.2) and cannot pass the defender
            margin = counts[mine_k][c] + in_hand - counts[theirs_k][c]
            p = win_chance(margin, self.hand_expect(theirs), self.frac[c])
            won = (1 + counts[theirs_k][c]) * self.w[self.seat - 1][c] + self.of * (
                self.leader_value(theirs, c, theirs_k)
            )
            lost = (
                -self.leader_value(self.seat, c, mine_k)
                - self.of * (1 + counts[mine_k][c]) * self.w[theirs - 1][c]
            )
            total += p * won + (1 - p) * lost - 0.3 * min(self.hand[c], max(margin, 0))
        return total

    # --- leaders ------------------------------------------------------------

    def spot(self, s: int) -> tuple[list[int], list[int], int, int, int, int]:
        """Return, for a leader square ``s``: regions joined, their tile counts, treasures,
        the kingdom among them (-1 if none), temples beside ``s`` and squares joined."""
        got = self._spots.get(s)
        if got is not None:
            return got
        summ = self.summ
        reg = summ.regions
        rids: list[int] = []
        for y in NEIGHBOURS[s]:
            r = reg.rid[y]
            if r >= 0 and r not in rids:
                rids.append(r)
        counts = [0, 0, 0, 0]
        treasures = 0
        kingdom = -1
        size = 0
        for r in rids:
            for c in range(4):
                counts[c] += summ.counts[r][c]
            treasures += summ.treasures[r]
            size += len(reg.squares[r])
            if reg.leaders[r]:
                kingdom = r
        got = (rids, counts, treasures, kingdom, temples_next_to(self.board, s), size)
        self._spots[s] = got
        return got

    def leader(self, color: int, s: int) -> float:
        """Score placing or moving the bot's leader of ``color`` to ``s`` (§4, §6)."""
        summ = self.summ
        reg = summ.regions
        board = self.board
        rids, counts, treasures, kingdom, temples, size = self.spot(s)
        current = summ.leaders[self.seat - 1][color]
        cur_r = reg.rid[current] if current >= 0 else -1
        # A revolt (§6) is hopeless when even every red in hand ties at best (§6.4). Checked
        # first: a move out of a kingdom the leader alone held can join that region to a
        # rival's kingdom (§4.1).
        for r in rids:
            for who, c, q in reg.leaders[r]:
                if (
                    c == color
                    and who != self.seat
                    and not can_win(temples, temples_next_to(board, q), self.hand[RED])
                ):
                    return HOPELESS
        if cur_r >= 0 and cur_r in rids:
            return -0.6  # a move within its own kingdom gains nothing
        w = self.w[self.seat - 1]
        value = (0.4 + 0.12 * min(counts[color], 8)) * w[color] + 0.12 * min(temples, 3)
        if color == KING:
            value += 0.02 * min(size, 20)
        rival = None
        if kingdom >= 0:
            for seat, c, q in reg.leaders[kingdom]:
                if c == color:
                    rival = (seat, q)
        if rival is not None:
            who, q = rival
            if not can_win(temples, temples_next_to(board, q), self.hand[RED]):
                return HOPELESS  # even every red in hand ties at best: the defender wins (§6.4)
            margin = temples + self.hand[RED] - temples_next_to(board, q)
            p = win_chance(margin, self.hand_expect(who), self.frac[RED])
            won = value + w[RED] + self.of * self.leader_value(who, color, kingdom)
            value = p * won - 0.3 * min(self.hand[RED], max(margin, 0))
        elif color == TRADER and treasures >= 2:
            value += (treasures - 1) * TREASURE_VALUE
        if kingdom >= 0 and self.revolt_spots().get(kingdom, 0) > temples + self.hand[RED]:
            # Into a place any rival takes with no red (§6.4): placed, withdrawn, placed again
            # is a loop that draws no tile and never ends the game (§13.1).
            value = min(value, WITHDRAW_SCORE)
        if current >= 0:
            if self.doomed(color):
                value += self.rescue(color) - 0.1  # leaving a lost place costs nothing
            else:
                value -= self.leader_value(self.seat, color, cur_r) + 0.1
        return value

    def revolt_spots(self) -> dict[int, int]:
        """Return per kingdom the most temples beside a square a rival leader could enter (§4.2).

        Such a square is an empty land square touching that kingdom only, or
        touching one more kingdom held by a rival's lone leader: the rival's
        turn has two actions (§2), and that leader moved or withdrawn (§4) leaves
        the square touching the first kingdom only (medium against medium,
        bench/bot_sanity.py seed 6 ply 131: a king moved out of its kingdom,
        then into the square, took a king left there). The temples beside it
        are a revolting leader's strength before support (§6.2).
        """
        if self._revolt_spots is None:
            spots: dict[int, int] = {}
            reg = self.summ.regions
            kid = reg.kid
            board = self.board
            for s in range(len(board)):
                if board[s] or not 1 <= self.nk[s] <= 2 or IS_RIVER[s]:
                    continue
                t = temples_next_to(board, s)
                if not t:
                    continue
                ks = {kid[y] for y in NEIGHBOURS[s] if kid[y] >= 0}
                for k in ks:
                    others = ks - {k}
                    if all(
                        len(reg.leaders[o]) == 1 and reg.leaders[o][0][0] != self.seat
                        for o in others
                    ):
                        spots[k] = max(spots.get(k, 0), t)
            self._revolt_spots = spots
        return self._revolt_spots

    def doomed(self, color: int) -> bool:
        """Tell whether the bot's leader of ``color`` loses any revolt an opponent starts (§6).

        True when a square an opponent's leader of that colour may enter
        (``revolt_spots``) has more temples beside it than the leader's own
        temples plus every red in the bot's hand (ties go to the defender,
        §6.4): the attacker needs no support to win.
        """
        q = self.summ.leaders[self.seat - 1][color]
        if q < 0:
            return False
        k = self.summ.regions.kid[q]
        if k < 0:
            return False
        attack = self.revolt_spots().get(k, 0)
        return attack > temples_next_to(self.board, q) + self.hand[RED]

    def tile_spots(self) -> dict[int, int]:
        """Return per kingdom the most temples beside a square a rival reaches after one tile.

        The rival's turn has two actions (§2): a tile first, then a leader. A
        tile on an empty square touching one kingdom only joins to it the
        leaderless regions beside that square (§5.1, §3), and the empty
        squares beside it then touch the kingdom too. A leader square (empty,
        land, touching no kingdom now, beside a temple, §4.2) beside such a
        square or beside such a region is then a revolt spot of the kingdom,
        with the temples beside it as the attacker's strength before support
        (§6.2) — a red tile placed first beside it, one more, is not counted.
        Reads the board only: any tile fits a land square, a blue one a river
        square (§5.1), and a rival's hand of 6 almost always holds one
        (medium against medium, bench/bot_sanity.py seed 1 ply 189: a black
        tile on j2 joined k1's temple to the kingdom of a trader on g7, and a
        trader on k2 took it with 2 temples against 1).
        """
        if self._tile_spots is None:
            spots: dict[int, int] = {}
            reg = self.summ.regions
            rid, kid = reg.rid, reg.kid
            board = self.board
            nk = self.nk
            joins: dict[int, set[int]] = {}  # a leaderless region -> kingdoms one tile joins it to
            for x in range(len(board)):
                if board[x] or nk[x] != 1:
                    continue
                k = next(kid[y] for y in NEIGHBOURS[x] if kid[y] >= 0)
                for y in NEIGHBOURS[x]:
                    if rid[y] >= 0 and kid[y] < 0:
                        joins.setdefault(rid[y], set()).add(k)
                    elif not board[y] and not nk[y] and not IS_RIVER[y]:
                        t = temples_next_to(board, y)
                        if t > spots.get(k, 0):
                            spots[k] = t
            if joins:
                for s in range(len(board)):
                    if board[s] or nk[s] or IS_RIVER[s]:
                        continue
                    t = temples_next_to(board, s)
                    if not t:
                        continue
                    for y in NEIGHBOURS[s]:
                        for k in joins.get(rid[y], ()) if rid[y] >= 0 else ():
                            if t > spots.get(k, 0):
                                spots[k] = t
            self._tile_spots = spots
        return self._tile_spots

    def union_spots(self) -> dict[tuple[int, int], int]:
        """Return per (kingdom, colour) the most temples beside a square a rival's tile opens.

        A tile on an empty square touching two kingdoms unites them (§5.1).
        Where the other kingdom has no leader of a colour, no war is fought
        for it (§7.1), and a rival's leader of that colour may then enter an
        empty land square beside temples touching the joined kingdom only
        (§4.2): one touching the other kingdom only, or both. Where the other
        kingdom has one, the tile starts a war for the colour instead (§7),
        not counted here (hard against hard, bench/bot_sanity.py seed 15 ply
        89: a black tile on d5 joined the kingdom of a king on e5 to one
        beside e6's temples, and a king on e6 took it with 2 temples against
        1; seeds 19 and 77 the same).
        """
        if self._union_spots is None:
            reg = self.summ.regions
            kid = reg.kid
            board = self.board
            nk = self.nk
            unions: set[tuple[int, int]] = set()  # kingdom pairs one tile unites
            single: dict[int, int] = {}  # kingdom -> most temples beside a square touching it only
            double: dict[tuple[int, int], int] = {}  # the same for squares touching a pair only
            for s in range(len(board)):
                if board[s] or not 1 <= nk[s] <= 2:
                    continue
                ks = sorted({kid[y] for y in NEIGHBOURS[s] if kid[y] >= 0})
                pair = (ks[0], ks[-1])
                if len(ks) == 2:
                    unions.add(pair)
                t = 0 if IS_RIVER[s] else temples_next_to(board, s)
                if t and len(ks) == 1:
                    single[ks[0]] = max(single.get(ks[0], 0), t)
                elif t:
                    double[pair] = max(double.get(pair, 0), t)
            spots: dict[tuple[int, int], int] = {}
            for a, b in unions:
                for k, other in ((a, b), (b, a)):
                    t = max(single.get(other, 0), double.get((a, b), 0))
                    if not t:
                        continue
                    fought = {c for _, c, _ in reg.leaders[other]}
                    for c in range(4):
                        if c not in fought and t > spots.get((k, c), 0):
                            spots[k, c] = t
            self._union_spots = spots
        return self._union_spots

    def threatened(self, color: int, *, unions: bool = False) -> bool:
        """Tell whether the bot's leader of ``color`` loses a revolt a rival starts after a tile.

        Like ``doomed``, with the squares a rival's leader may enter once its
        turn's first action placed a tile (``tile_spots``, §2, §5.1), and with
        ``unions`` (hard) a tile uniting two kingdoms too (``union_spots``): more
        temples there than the leader's own plus every red in the bot's hand
        win the revolt with no red committed (§6.4). False when ``doomed``.
        Medium leaves unions out: with them it won 92 of 200 games against
        itself without, and 129 of 200 against easy where it had won 134
        (bench/results/bot_idle_unions-2026-12-05.txt).
        """
        q = self.summ.leaders[self.seat - 1][color]
        if q < 0 or self.doomed(color):
            return False
        k = self.summ.regions.kid[q]
        if k < 0:
            return False
        attack = self.tile_spots().get(k, 0)
        if unions:
            attack = max(attack, self.union_spots().get((k, color), 0))
        return attack > temples_next_to(self.board, q) + self.hand[RED]

    def rescue(self, color: int) -> float:
        """Return what taking a doomed leader of ``color`` off the board denies (§6.4, §4).

        The revolt's winner scores 1 red VP: the best-placed opponent's worth
        of it. Zero when the leader is not ``doomed``.
        """
        if not self.doomed(color):
            return 0.0
        others = [o for o in range(1, len(self.w) + 1) if o != self.seat]
        return self.of * max(self.w[o - 1][RED] for o in others)

    def withdraw(self, color: int) -> float:
        """Score withdrawing the bot's leader of ``color`` to its supply (§4).

        Worth the revolt point denied when the leader is ``doomed``;
        otherwise ``WITHDRAW_SCORE``, below a pass: a safe leader earns.
        """
        if self.doomed(color):
            return self.rescue(color) + 0.1
        return WITHDRAW_SCORE

    # --- catastrophes -------------------------------------------------------

    def catastrophes(self) -> list[tuple[float, PlaceCatastrophe]]:
        """Return catastrophes on temples whose loss strands an opponent's leader (§10, §4.3)."""
        if not self.state.catastrophes[self.seat - 1]:
            return []
        board = self.board
        reg = self.summ.regions
        treasures = set(self.state.treasures)
        found: dict[int, float] = {}
        for seat_i, squares in enumerate(self.summ.leaders):
            who = seat_i + 1
            if who == self.seat:
                continue
            for c, q in enumerate(squares):
                if q < 0:
                    continue
                temples = [y for y in NEIGHBOURS[q] if board[y] == TEMPLE]
                if len(temples) != 1 or temples[0] in treasures:
                    continue
                t = temples[0]
                value = self.of * self.leader_value(who, c, reg.rid[q]) - 0.6
                for y in NEIGHBOURS[t]:
                    cell = board[y]
                    if y != q and cell >= LEADER_BASE:
                        other, oc = cell_leader(cell)
                        if temples_next_to(board, y) == 1:
                            value += self.to_bot(other, -self.leader_value(other, oc, reg.rid[y]))
                found[t] = found.get(t, 0.0) + value
        return [(v, PlaceCatastrophe(t)) for t, v in found.items()]
