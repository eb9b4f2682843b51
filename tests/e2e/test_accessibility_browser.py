"""Every kind of page passes axe-core in a real browser (issue 34).

One Chromium, one page per visitor (logged out or in, English or Chinese) going from page to
page: each page state is checked at desktop width (1280×900), then at phone width (390×844)
without a reload. The states are the site's page kinds — home, sign-in and sign-up, a game
waiting for players, a game in play (watched, and played: a piece picked and the confirm
step open), a decision (support in a revolt, and its confirm step), a finished game, its
replay, the analysis board, a profile, the leaderboard, settings, the rules, the FAQ, a
missing page. A page kind whose template reads nothing of the visitor (the rules, the FAQ,
the leaderboard, the finished games, the analysis board, a missing page) differs
logged out and in only in the frame (``base.html``'s header), which every other page kind
checks in both states: it is checked logged out in English and logged in in Chinese, each at
both widths — ``test_a_page_for_everyone_is_the_same_logged_out_and_in`` proves the premise.
Any serious or critical violation fails the test, and so does a heading out of
order or an empty column header (``tests/e2e/axe.py``); every violation found is written to
``var/axe-violations.txt``. On the way, a square's name is checked to say, in the page's
language, that it is empty and, while a piece is picked, that the piece may go there. The
production Content-Security-Policy is enforced, as in ``test_browser``: axe is evaluated
through the DevTools protocol, not as a page script.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from games.accounts.profiles import profile_get
from games.models import Game, Profile, Seat
from games.play import lifecycle
from tests.e2e.axe import Violation, axe_in_context, axe_violations
from tests.e2e.test_browser import DESKTOP, PHONE, _watch_csp
from tests.e2e.test_browser import enforced_csp as enforced_csp  # noqa: F401 (autouse fixture)
from tests.engine.rules_helpers import play, position
from tests.games.factories import UserFactory, client_for, game_at_state, started_game
from tests.games.records.helpers import finished_game

pytestmark = pytest.mark.django_db(transaction=True)

REPORT = Path(__file__).resolve().parents[2] / "var" / "axe-violations.txt"

# Resolves once the page has handled a new window size (its resize handlers run before the
# next frame's callbacks).
AFTER_RESIZE = "() => new Promise((done) => requestAnimationFrame(() => done()))"

# What a square's name says of an empty square, and of a target while a piece is picked.
SQUARE_WORDS = {"en": ("empty", "legal"), "zh-hans": ("空", "可放置")}


@dataclass(frozen=True)
class Games:
    """The games the pages show: one in play on ``me``'s move, one waiting on ``me``'s
    decision (support as the defender of a revolt), one finished, and two waiting for
    players (a public one and ``me``'s private one)."""

    playing: Game
    deciding: Game
    finished: Game
    public_open: Game
    private_open: Game


def _seat(game: Game, position: int, user: Any) -> None:
    Seat.objects.filter(game=game, position=position).update(user=user)


def _games(me: Any) -> Games:
    playing, _seats = started_game(2, is_rated=False)
    _seat(playing, playing.to_act_seat or 0, me)
    # Seat 1's priest on e6 starts a revolt against seat 2's; seat 1 committed nothing.
    revolt = {"c5": "r", "c6": "2P", "d6": "r"}
    state = play(position(revolt, hands={1: "r", 2: "r"}), "leader priest e6", "commit 0")
    deciding, _seats = game_at_state(state, is_rated=False)
    _seat(deciding, 2, me)
    finished, _seats = finished_game(2, seed=31)
    _seat(finished, 1, me)
    public_open = lifecycle.game_create(creator=UserFactory(), num_players=3)
    private_open = lifecycle.game_create(creator=me, num_players=2, is_public=False)
    return Games(playing, deciding, finished, public_open, private_open)


def _pick_a_tile_and_a_square(page: Any, language: str) -> None:
    """Pick the hand's first tile (its squares lit), choose a lit square: the confirm step."""
    empty, legal = SQUARE_WORDS[language]
    page.click("#hand .tiles button.pick")
    target = page.locator("#board .sq.target").first
    target.wait_for(state="visible")
    name = target.get_attribute("aria-label") or ""
    assert name.endswith(legal) and empty in name, name
    unlit = page.locator("#board td.sq.land:not(.target)").first.get_attribute("aria-label")
    assert legal not in (unlit or ""), unlit
    target.click()
    page.locator("#confirm").wait_for(state="visible")
    page.locator("#confirm-preview .preview").wait_for(state="attached")


def _answer_the_decision(page: Any, language: str) -> None:
    page.click('#decision button[data-action="commit 0"]')
    page.locator("#confirm").wait_for(state="visible")


State = tuple[str, str, Callable[[Any, str], None] | None]


REPLAY_PLY = 10


def _for_everyone(g: Games) -> list[State]:
    """Return the page kinds whose template reads nothing of the visitor."""
    return [
        ("analysis board", f"/analysis/?game={g.finished.pk}&ply={REPLAY_PLY}", None),
        ("leaderboard", "/leaderboard", None),
        ("rules", "/rules/", None),
        ("faq", "/faq/", None),
        ("finished games", "/games/finished", None),  # issue 32
        ("missing page", "/no-such-page", None),
    ]


def _states(games: Games, me: Any, *, logged_in: bool, language: str) -> list[State]:
    """Return ``(name, path, prepare)`` of every page state a visitor is shown."""
    g = games
    common: list[State] = [
        ("home", "/", None),
        ("game in play", f"/games/{g.playing.pk}/", None),
        ("decision", f"/games/{g.deciding.pk}/", None),
        ("finished game", f"/games/{g.finished.pk}/", None),
        ("replay", f"/games/{g.finished.pk}/replay?ply={REPLAY_PLY}", None),
        ("profile", f"/players/{me.pk}/", None),
    ]
    # Logged out in English, logged in in Chinese: the frame differs, the page does not.
    if logged_in == (language == "zh-hans"):
        common += _for_everyone(g)
    if not logged_in:
        return [
            *common,
            ("waiting room", f"/games/{g.public_open.pk}/", None),
            ("sign in", "/accounts/login/", None),
            ("sign up", "/accounts/signup/", None),
            ("password reset", "/accounts/password/reset/", None),
            ("offline page", "/offline/", None),  # issue 29: the one page the worker keeps
        ]
    return [
        *common,
        ("confirm step", f"/games/{g.playing.pk}/", _pick_a_tile_and_a_square),
        ("decision's confirm step", f"/games/{g.deciding.pk}/", _answer_the_decision),
        ("waiting room, seated", f"/games/{g.private_open.pk}/", None),
        ("play a bot now", "/games/bot", None),
        ("create a game", "/games/new", None),  # issue 32
        ("settings", "/settings", None),
        ("email addresses", "/accounts/email/", None),
        ("change password", "/accounts/password/change/", None),
    ]


@pytest.fixture
def visitor(browser: Any, live_server: Any) -> Iterator[Callable[..., Any]]:
    """Open one browser context (logged in as ``user`` or not, in ``language``) and its page,
    axe-core given to each document it opens (``axe_in_context``).

    A signed-in visitor's language is their profile's, made here when missing (the first
    login makes it otherwise): whatever ran before, the page reads ``language``."""
    contexts: list[Any] = []

    def open_page(language: str, user: Any = None) -> Any:
        context = browser.new_context(viewport=DESKTOP)
        context.set_default_timeout(10_000)
        axe_in_context(context)
        contexts.append(context)
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language}]
        if user is not None:
            profile_get(user)
            Profile.objects.filter(user=user).update(language=language)
            client = Client()
            client.force_login(user)
            session = client.cookies[settings.SESSION_COOKIE_NAME].value
            cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": session})
        context.add_cookies([{**c, "url": live_server.url} for c in cookies])
        page = context.new_page()
        _watch_csp(page)
        return page

    yield open_page
    for context in contexts:
        context.close()


def _sweep(page: Any, base_url: str, states: list[State], who: str) -> list[Violation]:
    language = who.split()[-1]
    found: list[Violation] = []
    for name, path, prepare in states:
        page.set_viewport_size(DESKTOP)
        response = page.goto(f"{base_url}{path}")
        assert response is not None and response.status in {200, 404}, (path, response)
        if name == "home":  # each sweep begins here: it reads the visitor's language
            assert page.get_attribute("html", "lang") == language, (who, page.url)
        if prepare is not None:
            prepare(page, language)
        found += axe_violations(page, f"{who}, {name}, desktop")
        page.set_viewport_size(PHONE)
        page.evaluate(AFTER_RESIZE)
        found += axe_violations(page, f"{who}, {name}, phone")
    return found


def test_every_page_kind_passes_axe_core_logged_out_and_in_in_both_languages(
    visitor: Callable[..., Any], live_server: Any
) -> None:
    me = UserFactory()
    games = _games(me)
    found: list[Violation] = []
    for language in ("en", "zh-hans"):
        for logged_in in (False, True):
            page = visitor(language, me if logged_in else None)
            who = f"{'logged in' if logged_in else 'logged out'} {language}"
            states = _states(games, me, logged_in=logged_in, language=language)
            found += _sweep(page, live_server.url, states, who)
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text("".join(f"{v}\n" for v in found) or "no violation\n", encoding="utf-8")
    failing = [str(v) for v in found if v.fails]
    assert not failing, "axe-core found serious or critical violations:\n" + "\n".join(failing)


def test_the_axe_check_catches_a_violation(visitor: Callable[..., Any], live_server: Any) -> None:
    """The check itself: axe runs under the enforced policy and reports a field with no
    label as the critical violation it is (issue 34's settings fault, made on purpose)."""
    page = visitor("en")
    page.goto(f"{live_server.url}/faq/")
    assert [v for v in axe_violations(page, "faq") if v.fails] == []
    page.evaluate("document.querySelector('main').append(document.createElement('input'))")
    (found,) = axe_violations(page, "faq with an unlabelled field")
    assert (found.rule, found.impact, found.fails) == ("label", "critical", True)


CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
MAIN = re.compile(rb"<main\b.*</main>", re.DOTALL)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_page_for_everyone_is_the_same_logged_out_and_in(language: str) -> None:
    """The premise of checking ``_for_everyone``'s page kinds in one state a language: each
    page's ``<main>`` is the same, byte for byte but the CSRF token, logged out and in, while
    its frame differs (the header names the signed-in player's links)."""
    me = UserFactory()
    games = _games(me)
    profile_get(me)  # made at the first login otherwise: the update below needs it
    Profile.objects.filter(user=me).update(language=language)  # as ``visitor`` does
    visitors = {False: Client(), True: client_for(me)}
    for client in visitors.values():
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for name, path, _prepare in _for_everyone(games):
        pages = {in_: client.get(path) for in_, client in visitors.items()}
        assert {p.status_code for p in pages.values()} <= {200, 404}, (name, path)
        out, in_ = (CSRF.sub(b"", pages[k].content) for k in (False, True))
        assert out != in_, name  # the frame tells them apart
        main_out, main_in = MAIN.search(out), MAIN.search(in_)
        assert main_out is not None and main_in is not None, name
        lines = [m.group().decode().splitlines() for m in (main_out, main_in)]
        assert lines[0] == lines[1], (name, [*difflib.unified_diff(*lines, lineterm="")][:20])
