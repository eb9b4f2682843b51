"""Drive whole games as players do: sign-up pages, emailed links, the lobby and the forms.

Two ways to speak HTTP share one driver: ``ClientWeb`` (Django's test Client, with CSRF
checks on) and ``HttpWeb`` (``urllib`` against ``live_server`` with a cookie jar). The
driver only reads what the pages offer (``data-seat``, ``data-version``, ``data-action``,
``data-join``, form tokens); the database is read to check, never to decide.
"""

from __future__ import annotations

import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookiejar import CookieJar
from typing import Any, Protocol

from django.test import Client

from games.models import Game, Move, Notification
from tests.games.factories import page_actions, page_version
from tests.games.leaks import assert_no_leak

PASSWORD = "tigris-and-euphrates-2026"
MAX_PLIES = 1000  # random games end by the bag long before this
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CONFIRM_CODE = re.compile(r"^([A-Z0-9]{4}-[A-Z0-9]{4})\r?$", re.MULTILINE)
DATA_SEAT = re.compile(r'id="game"[^>]*data-seat="(\d*)"')
GAME_URL = re.compile(r"^(?:https?://[^/]+)?/games/(\d+)/$")

# What each notification email is about, told by its subject (games/mail/notification.py,
# games/text/headlines.py): a decision names what it asks, a turn ends "— your move".
SUBJECT_KINDS = [
    ("your support is needed", "decision"),
    ("choose your treasures", "decision"),
    ("choose the next war", "decision"),
    ("build a monument or decline", "decision"),
    ("your decision is needed", "decision"),
    ("your move is due soon", "reminder"),
    ("has started", "game_started"),  # before "your move": "… has started: your move"
    ("your move", "your_turn"),
    ("is over", "game_over"),
]
WAITS = {"your_turn", "decision"}


@dataclass
class Page:
    """One HTTP answer: status, body and the redirect target if any."""

    status: int
    body: bytes
    location: str = ""


class Web(Protocol):
    """One browser session of one person."""

    def get(self, path: str, *, htmx: bool = False) -> Page: ...

    def post(self, path: str, data: dict[str, str], *, htmx: bool = False) -> Page: ...

    def csrf_cookie(self) -> str: ...


class ClientWeb:
    """Django's test Client with CSRF checks on, as a browser would meet them."""

    def __init__(self) -> None:
        self.client = Client(enforce_csrf_checks=True)

    def get(self, path: str, *, htmx: bool = False) -> Page:
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = self.client.get(path, **extra)  # type: ignore[arg-type]
        return Page(response.status_code, response.content, response.headers.get("Location", ""))

    def post(self, path: str, data: dict[str, str], *, htmx: bool = False) -> Page:
        extra = {"HTTP_HX_REQUEST": "true", "HTTP_X_CSRFTOKEN": self.csrf_cookie()} if htmx else {}
        response = self.client.post(path, data, **extra)  # type: ignore[arg-type]
        return Page(response.status_code, response.content, response.headers.get("Location", ""))

    def csrf_cookie(self) -> str:
        cookie = self.client.cookies.get("csrftoken")
        return cookie.value if cookie is not None else ""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class HttpWeb:
    """Real HTTP to ``base_url`` (the live server) with a cookie jar; redirects not followed."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def _open(self, request: urllib.request.Request) -> Page:
        try:
            with self.opener.open(request, timeout=30) as response:
                return Page(response.status, response.read(), response.headers.get("Location", ""))
        except urllib.error.HTTPError as exc:
            return Page(exc.code, exc.read(), exc.headers.get("Location", "") or "")

    def get(self, path: str, *, htmx: bool = False) -> Page:
        request = urllib.request.Request(self.base_url + path)
        if htmx:
            request.add_header("HX-Request", "true")
        return self._open(request)

    def post(self, path: str, data: dict[str, str], *, htmx: bool = False) -> Page:
        body = urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base_url + path, data=body, method="POST")
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
        request.add_header("Referer", self.base_url + path)
        if htmx:
            request.add_header("HX-Request", "true")
            request.add_header("X-CSRFToken", self.csrf_cookie())
        return self._open(request)

    def csrf_cookie(self) -> str:
        return next((c.value or "" for c in self.jar if c.name == "csrftoken"), "")


@dataclass
class Mail:
    """One email as the test sees it, whatever carried it."""

    to: list[str]
    subject: str
    text: str


def path_of(url: str) -> str:
    """Return the path (and query) of ``url``."""
    parts = urllib.parse.urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def form_token(body: bytes) -> str:
    match = CSRF_FIELD.search(body.decode())
    assert match, "no CSRF token in the form"
    return match.group(1)


@dataclass
class Player:
    """A person: a browser session, their address, their seat and everything they received."""

    name: str
    web: Web
    seat: int | None = None
    game_id: int | None = None
    received: int = 0
    scanned: int = 0

    @property
    def email(self) -> str:
        return f"{self.name}@example.com"

    def _seen(self, page: Page) -> Page:
        self.received += 1
        return self.scan(page)

    def scan(self, page: Page) -> Page:
        """Scan the answer for leaks once this player's game has started."""
        if self.game_id is not None and page.body:
            game = Game.objects.get(pk=self.game_id)
            if game.state is not None:
                assert_no_leak(page.body, game, self.seat)
                self.scanned += 1
        return page

    def get(self, path: str, *, htmx: bool = False) -> Page:
        return self._seen(self.web.get(path, htmx=htmx))

    def post(self, path: str, data: dict[str, str], *, htmx: bool = False) -> Page:
        return self._seen(self.web.post(path, data, htmx=htmx))

    def submit_form(self, path: str, data: dict[str, str]) -> Page:
        """GET the page at ``path`` and POST ``data`` with its form's CSRF token."""
        form = self.get(path)
        assert form.status == 200, (path, form.status)
        return self.post(path, {"csrfmiddlewaretoken": form_token(form.body), **data})


class _FormFields(HTMLParser):
    """The values a browser would post, unchanged, for the page's form of class ``form_class``."""

    def __init__(self, form_class: str) -> None:
        super().__init__()
        self.form_class = form_class
        self.values: dict[str, str] = {}
        self._select: str | None = None
        self._in_form = self._done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if self._done:
            return
        if tag == "form" and self.form_class in a.get("class", "").split():
            self._in_form = True
        if not self._in_form:
            return
        if tag == "input" and a.get("name"):
            if a.get("type") == "checkbox":
                if "checked" in a:
                    self.values[a["name"]] = a.get("value") or "on"
            else:
                self.values[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select and "selected" in a:
            self.values[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form" and self._in_form:
            self._in_form, self._done = False, True


def choose_immediate_turn_emails(player: Player) -> None:
    """On the settings page, choose "immediately" for *your move* and *decision needed*."""
    page = player.get("/settings")
    assert page.status == 200, page.status
    fields = _FormFields("settings")
    fields.feed(page.body.decode())
    data = dict(fields.values)
    assert data.get("delivery_your_turn") == "batched", data  # the default: after a delay
    data["delivery_your_turn"] = data["delivery_decision"] = "immediate"
    saved = player.post("/settings", data)
    assert saved.status == 302, saved.body[:2000]


def sign_up_and_verify(player: Player, inbox: Any) -> None:
    """Sign up on the page, type the emailed verification code, then log in on its page."""
    answer = player.submit_form(
        "/accounts/signup/",
        {
            "email": player.email,
            "display_name": player.name.title(),
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert answer.status == 302, answer.body[:2000]
    mails = wait_for(lambda: [m for m in inbox() if m.to == [player.email]], seconds=30)
    assert len(mails) == 1, mails
    code = CONFIRM_CODE.search(mails[0].text)
    assert code, mails[0].text
    confirmed = player.submit_form("/accounts/confirm-email/", {"code": code.group(1)})
    assert confirmed.status == 302, confirmed.body[:2000]
    player.post("/accounts/logout/", {"csrfmiddlewaretoken": player.web.csrf_cookie()})
    login = player.submit_form("/accounts/login/", {"login": player.email, "password": PASSWORD})
    assert login.status == 302 and path_of(login.location) == "/", login.body[:2000]


def create_and_join(players: list[Player]) -> int:
    """The first player creates a rated public game in the lobby; the others join there."""
    creator = players[0]
    lobby = creator.get("/")
    created_page = creator.post(
        "/games/new",
        {
            "csrfmiddlewaretoken": form_token(lobby.body),
            "num_players": str(len(players)),
            "is_public": "on",
            "is_rated": "on",
            "days_per_move": "2",
            "vacation_allowed": "on",
            "quiet_hours_allowed": "on",
        },
    )
    assert created_page.status == 302, created_page.body[:2000]
    match = GAME_URL.match(created_page.location)
    assert match, created_page.location
    game_id = int(match.group(1))
    for player in players[1:]:
        lobby = player.get("/")
        text = lobby.body.decode()
        form = re.search(
            rf'<button type="submit" form="join-form" formaction="(/games/{game_id}/join)" '
            rf'data-join="{game_id}"',
            text,
        )
        assert form, f"game #{game_id} is not offered in the lobby"
        joined = player.post(form.group(1), {"csrfmiddlewaretoken": form_token(lobby.body)})
        assert joined.status == 302 and path_of(joined.location) == f"/games/{game_id}/"
    for player in players:
        page = player.get(f"/games/{game_id}/")
        seat = DATA_SEAT.search(page.body.decode())
        assert seat and seat.group(1), "a player's page must name their seat"
        player.seat, player.game_id = int(seat.group(1)), game_id
        player.scan(page)
    assert sorted(p.seat or 0 for p in players) == list(range(1, len(players) + 1))
    return game_id


@dataclass
class Played:
    """What the players observed over a whole game."""

    game_id: int
    plies: int = 0
    # (ply, seat): after move ``ply`` the game came to wait on ``seat`` (someone else before).
    waits: list[tuple[int, int]] = field(default_factory=list)
    first: int = 0


def offered(page: Page) -> list[str]:
    return page_actions(page.body)


def _pick(actions: list[str], rng: random.Random, ply: int, swaps_after: int | None) -> str:
    """A random one of ``actions``; from ply ``swaps_after`` on, the biggest swap offered if any."""
    if swaps_after is not None and ply >= swaps_after:
        swaps = [a for a in actions if a.startswith("swap ")]
        if swaps:
            most = max(len(a.split()) for a in swaps)
            return rng.choice([a for a in swaps if len(a.split()) == most])
    return rng.choice(actions)


def play_to_the_end(
    players: list[Player],
    game_id: int,
    rng: random.Random,
    *,
    before_polls: Callable[[int, list[Player]], None] | None = None,
    swaps_after: int | None = None,
) -> Played:
    """Play random offered actions until nobody is offered any; return what was observed.

    ``before_polls(version, pollers)`` runs when the turn passed, before the other players
    poll (to wait, as a browser's poll interval would, for work done after the move).
    From ply ``swaps_after`` on (when given), a player offered a swap takes the biggest one
    (``_pick``): a swap's tiles leave the game, so the bag runs out, and the game ends, in
    fewer plies.
    """
    by_seat = {p.seat: p for p in players}
    url = f"/games/{game_id}/"
    pages = {p.seat: p.get(url) for p in players}
    acting = [s for s, page in pages.items() if offered(page)]
    assert len(acting) == 1, f"seats offered actions at the start: {acting}"
    seat = acting[0]
    played = Played(game_id, first=seat or 0)
    page = pages[seat]
    known = {s: page_version(pg.body) for s, pg in pages.items()}
    for _ in range(MAX_PLIES):
        assert Game.objects.values_list("to_act_seat", flat=True).get(pk=game_id) == seat
        player = by_seat[seat]
        version = page_version(page.body)
        answer = player.post(
            f"/games/{game_id}/act",
            {
                "action": _pick(offered(page), rng, played.plies, swaps_after),
                "version": str(version),
            },
            htmx=True,
        )
        assert answer.status == 200, answer.body[:500]
        played.plies += 1
        version = page_version(answer.body)
        known[seat] = version
        if offered(answer):
            page = answer
            continue
        # Every other player's page polls; whoever it now offers actions to acts next.
        polled = {}
        if before_polls is not None:
            before_polls(version, [p for p in players if p.seat != seat])
        for other in players:
            if other.seat == seat:
                continue
            got = other.get(f"/games/{game_id}/poll?version={known[other.seat]}", htmx=True)
            assert got.status == 200, got.status
            known[other.seat] = page_version(got.body)
            polled[other.seat] = got
        acting = [s for s, pg in polled.items() if offered(pg)]
        if not acting:
            break
        assert len(acting) == 1, f"several seats offered actions: {acting}"
        seat = acting[0]
        played.waits.append((version, seat or 0))
        page = by_seat[seat].get(url)  # the next player opens the game page, as from the email
    else:
        raise AssertionError("the game did not end")
    return played


def expected_mails(
    players: list[Player], played: Played, *, immediate: set[str]
) -> Counter[tuple[str, str]]:
    """Return how many emails of each kind each address should get over the game.

    Everyone hears of the start and the end at once. Turns and decisions: a player who
    chose "immediately" (``immediate``, addresses) is emailed at each wait; the others keep
    the default, after a delay if they have not acted — and every player here acts within
    seconds, so they get none (issue 17).
    """
    email = {p.seat: p.email for p in players}
    expected: Counter[tuple[str, str]] = Counter()
    for player in players:
        expected[(player.email, "game_started")] += 1
        expected[(player.email, "game_over")] += 1
    for _ply, seat in played.waits:
        if email[seat] in immediate:
            expected[(email[seat], "wait")] += 1
    return expected


def mail_kind(subject: str) -> str:
    """Return the notification kind an email's subject tells."""
    return next((k for text, k in SUBJECT_KINDS if text in subject), "other")


def received_mails(
    mails: list[Mail], game_id: int, *, merge_waits: bool = True
) -> Counter[tuple[str, str]]:
    """Count the game's emails by (address, kind), kind from the subject.

    ``merge_waits`` counts *your move* and *decision needed* together as ``wait``.
    """
    counted: Counter[tuple[str, str]] = Counter()
    for mail in mails:
        if f"#{game_id}" in mail.subject:
            assert len(mail.to) == 1, mail.to
            kind = mail_kind(mail.subject)
            counted[(mail.to[0], "wait" if merge_waits and kind in WAITS else kind)] += 1
    return counted


def check_outbox_rows(players: list[Player], played: Played, mails: list[Mail]) -> None:
    """The outbox rows of the waits are the observed (ply, user) pairs, emailed as their kind.

    A row written by its recipient's own move carries a notice not sent yet to that move,
    the game still waiting on them (issue 33): it must follow an unsent row of theirs.
    """
    user_of = {p.seat: p.email for p in players}
    rows = list(
        Notification.objects.filter(game_id=played.game_id, kind__in=WAITS)
        .select_related("user")
        .order_by("ply")
    )
    mover = dict(Move.objects.filter(game_id=played.game_id).values_list("ply", "seat"))
    seat_of = {email: seat for seat, email in user_of.items()}
    waits = [r for r in rows if mover.get(r.ply) != seat_of[r.user.email]]
    got = sorted((r.ply, r.user.email) for r in waits)
    assert got == sorted((ply, user_of[seat]) for ply, seat in played.waits)
    for carried in (r for r in rows if r not in waits):
        earlier = [r for r in rows if r.user_id == carried.user_id and r.ply < carried.ply]
        assert earlier and earlier[-1].status == Notification.Status.SKIPPED, carried
    by_kind = Counter((r.user.email, str(r.kind)) for r in rows if r.status == "sent")
    sent = received_mails(mails, played.game_id, merge_waits=False)
    assert by_kind == Counter({k: n for k, n in sent.items() if k[1] in WAITS})


def wait_for(produce: Any, seconds: float = 60) -> Any:
    """Poll ``produce()`` until it returns something truthy (bounded); return the last value."""
    deadline = time.monotonic() + seconds
    value = produce()
    while not value and time.monotonic() < deadline:
        time.sleep(0.1)
        value = produce()
    return value
