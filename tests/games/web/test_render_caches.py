"""The game page's shortcuts (caches, bounded reads, short buttons) show what the long way did.

Board squares and log sentences are cached per language and per what they show; the page
reads only the moves it writes; board actions carry one words pattern per group. Each test
checks that the shortcut gives what a player should see, including after a rename, in
another language and when the viewer's last move is far back.
"""

from __future__ import annotations

import random
import re

import pytest
from django.template import engines
from django.utils import translation

import engine
from games.core.states import game_state
from games.models import Move, Profile
from games.play import submit as play_submit
from games.selectors.moves import moves_recent
from games.text.actions import SQUARE_MARK, action_words
from games.text.gamelog import log_entries
from games.text.seats import SeatInfo
from games.web.action_groups import action_groups
from games.web.board import board_rows
from tests.engine.rules_helpers import position
from tests.games.factories import client_for, started_game

pytestmark = pytest.mark.django_db


def _random_states(count: int, seed: int) -> list[engine.GameState]:
    rng = random.Random(seed)
    out = []
    for n in (2, 3, 4):
        state = engine.new_game(n, seed + n)
        for _ in range(count):
            if state.is_over:
                break
            state = engine.apply(state, rng.choice(engine.legal_actions(state)))
            out.append(state)
    return out


def _words(notation: str, view: engine.PlayerView) -> str:
    """Return an action's words the long way: parsed, with its leader's square looked up."""
    action = engine.Action.parse(notation)
    from_square = None
    if isinstance(action, engine.PlaceLeader):
        from_square = view.leaders.get(view.seat or 0, {}).get(action.leader_name)
    support = view.pending.support_color if view.pending else None
    return action_words(action, from_square=from_square, support_color=support)


def test_a_groups_words_pattern_gives_each_actions_own_words() -> None:
    checked = 0
    for state in _random_states(60, seed=3):
        view = engine.view_for(state, state.to_act)
        for group in action_groups(view):
            if not group.words:
                continue
            assert group.words.count(SQUARE_MARK) == 1, group.words
            for item in group.actions:
                square = item.notation.split()[-1]
                expected = _words(item.notation, view)
                assert group.words.replace(SQUARE_MARK, square) == expected
                assert item.words == expected
                checked += 1
    assert checked > 1000


def test_buttons_carry_the_notation_and_words_only_where_the_group_has_none() -> None:
    view = engine.view_for(engine.new_game(2, 8), 1)
    groups = {g.key: g for g in action_groups(view)}
    tiles = str(groups["tile-red"].buttons_html)
    assert tiles.count("<button") == len(groups["tile-red"].actions)
    assert "data-words" not in tiles
    assert groups["tile-red"].words == "Place a red temple on @"
    swaps = groups["swap"]
    assert not swaps.words
    assert str(swaps.buttons_html).count("data-words=") == len(swaps.actions)


# The long way: every button of a group drawn anew from its actions.
_LONG_BUTTONS = (
    '{% for a in group.actions %}<button data-action="{{ a.notation }}"'
    '{% if a.square %} data-square="{{ a.square }}"{% endif %}'
    '{% if not group.words %} data-words="{{ a.words }}"{% endif %}>{{ a.short }}</button>'
    "{% if not forloop.last %} {% endif %}{% endfor %}"
)
_LONG_SWAP_WORDS = (
    '{% for a in group.actions %}<i data-action="{{ a.notation }}" data-words="{{ a.words }}">'
    "</i>{% endfor %}"
)


def test_buttons_from_the_cache_are_what_drawing_every_button_anew_gives() -> None:
    # Each button is cached by what it shows: the same notation in another language, or
    # with or without its own words, must never bring back another page's button.
    buttons = engines["django"].from_string(_LONG_BUTTONS)
    swap_words = engines["django"].from_string(_LONG_SWAP_WORDS)
    checked = 0
    for language in ("en", "zh-hans", "en"):
        with translation.override(language):
            for state in _random_states(40, seed=11):
                view = engine.view_for(state, state.to_act)
                for group in action_groups(view):
                    assert str(group.buttons_html) == buttons.render({"group": group})
                    if group.key == "swap":
                        expected = swap_words.render({"group": group})
                        assert str(group.swap_words_html) == expected
                    checked += len(group.actions)
    assert checked > 10000


def test_a_leaders_square_follows_a_rename_and_the_language() -> None:
    state = position({"c5": "r", "c6": "1K"})
    view = engine.view_for(state, 1)

    def c6(seats: dict[int, SeatInfo]) -> str:
        cells = {c.square.name: c for row in board_rows(view, seats) for c in row.cells}
        return cells["c6"].label

    before = c6({1: SeatInfo(1, "ann", "archer"), 2: SeatInfo(2, "bo", "bull")})
    after = c6({1: SeatInfo(1, "anna", "archer"), 2: SeatInfo(2, "bo", "bull")})
    assert "(ann, Archer)" in before
    assert "(anna, Archer)" in after
    with translation.override("zh-hans"):
        chinese = c6({1: SeatInfo(1, "ann", "archer"), 2: SeatInfo(2, "bo", "bull")})
    assert chinese != before
    assert "ann" in chinese


def test_the_log_follows_a_rename_and_the_language() -> None:
    move = Move(
        ply=1,
        seat=1,
        action="tile red f7",
        source="player",
        events=[{"code": "tile_placed", "params": {"seat": 1, "color": "red", "square": "f7"}}],
    )
    ann = {1: SeatInfo(1, "ann", "archer")}
    anna = {1: SeatInfo(1, "anna", "archer")}
    (first,) = log_entries([move], ann, 2, game_over=False)
    (renamed,) = log_entries([move], anna, 2, game_over=False)
    assert "ann," in first["lines"][0] and "anna," in renamed["lines"][0]
    assert first["squares"] == {"f7"}
    with translation.override("zh-hans"):
        (chinese,) = log_entries([move], ann, 2, game_over=False)
    assert chinese["lines"] != first["lines"]
    # What an entry holds is the caller's own: changing it leaves the next page alone.
    original = list(first["lines"])
    first["lines"].append("scribble")
    first["squares"].add("a1")
    (again,) = log_entries([move], ann, 2, game_over=False)
    assert again["lines"] == original
    assert again["squares"] == {"f7"}


def test_a_private_event_is_written_only_for_its_seat_even_when_cached() -> None:
    move = Move(
        ply=3,
        seat=1,
        action="swap red red",
        source="player",
        events=[
            {"code": "tiles_swapped", "params": {"seat": 1, "count": 2}},
            {
                "code": "tiles_discarded",
                "params": {"seat": 1, "colors": ["red", "red"]},
                "private_to": 1,
            },
        ],
    )
    seats = {1: SeatInfo(1, "ann", "archer"), 2: SeatInfo(2, "bo", "bull")}
    (mine,) = log_entries([move], seats, 1, game_over=False)
    (theirs,) = log_entries([move], seats, 2, game_over=False)
    (again,) = log_entries([move], seats, 1, game_over=False)
    assert len(theirs["lines"]) == 1
    assert "red, red" not in " ".join(theirs["lines"])
    assert "red, red" in mine["lines"][1]
    assert mine["lines"] == again["lines"]


def _moves(game: object, seats: list[int]) -> None:
    Move.objects.bulk_create(
        Move(game=game, ply=ply, seat=seat, action="pass", events=[])
        for ply, seat in enumerate(seats, start=1)
    )


def test_the_page_reads_every_move_since_the_viewers_last_and_the_last_forty() -> None:
    game, _users = started_game(3)
    # Seat 1 moved at ply 5; seats 2 and 3 alone for the next 55 plies.
    _moves(game, [1] * 5 + [2, 3] * 27 + [2])
    game.version = 60
    game.save(update_fields=["version"])

    moves, last_mine = moves_recent(game.pk, version=game.version, position=1)
    assert last_mine == 5
    assert [m.ply for m in moves] == list(range(6, 61))

    moves, last_mine = moves_recent(game.pk, version=game.version, position=2)
    assert last_mine == 60
    assert [m.ply for m in moves] == list(range(21, 61))

    moves, last_mine = moves_recent(game.pk, version=game.version, position=None)
    assert last_mine == 0
    assert [m.ply for m in moves] == list(range(21, 61))


def test_a_player_who_never_moved_has_no_since_section() -> None:
    game, _users = started_game(3)
    _moves(game, [2, 3] * 30)
    game.version = 60
    game.save(update_fields=["version"])
    moves, last_mine = moves_recent(game.pk, version=game.version, position=1)
    assert last_mine == 0
    assert [m.ply for m in moves] == list(range(21, 61))


def test_a_rename_shows_on_the_board_and_in_the_log_of_the_next_page() -> None:
    game, users = started_game(2)
    view = engine.view_for(game_state(game), 1)
    king = next(
        a for a in view.actions if isinstance(a, engine.PlaceLeader) and a.leader_name == "king"
    )
    play_submit.game_submit_action(
        game_id=game.pk, user=users[1], action=str(king), expected_version=game.version
    )
    square = king.target
    client = client_for(users[2])
    cell = re.compile(rf'<td [^>]*data-square="{square}"[^>]*aria-label="([^"]*)"')
    log = re.compile(r'<ol class="entries"[^>]*>(.*?)</ol>', re.S)

    page = client.get(f"/games/{game.pk}/").content.decode()
    Profile.objects.filter(user=users[1]).update(display_name="Zenobia")
    renamed = client.get(f"/games/{game.pk}/").content.decode()
    assert "Zenobia" not in page
    assert "Zenobia" in cell.search(renamed).group(1)  # type: ignore[union-attr]
    assert "Zenobia" in log.search(renamed).group(1)  # type: ignore[union-attr]


def test_the_game_page_lets_the_player_pick_their_leader_on_the_board() -> None:
    from tests.games.factories import game_at_state

    state = position({"c5": "r", "c6": "1K", "i5": "r", "j5": "2K"})
    game, seats = game_at_state(state)
    page = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    cell = re.search(r'<td [^>]*data-square="c6"[^>]*>', page)
    assert cell is not None and 'data-group="leader-king"' in cell.group(0)
    assert 'data-group="leader-king"' in page.split('id="hand"', 1)[1]  # the list's group too
    theirs = client_for(seats[2]).get(f"/games/{game.pk}/").content.decode()
    other = re.search(r'<td [^>]*data-square="c6"[^>]*>', theirs)
    assert other is not None and "data-group" not in other.group(0)
