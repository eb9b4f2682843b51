"""Two languages everywhere a player reads (issue 8): Simplified Chinese and English.

How the "no untranslated string" check works:

1. The catalogue: the committed ``locale/zh_Hans/LC_MESSAGES/django.po`` has no empty and no
   fuzzy ``msgstr``; and ``makemessages`` run on a temporary copy of the code finds no msgid
   the committed catalogue lacks (a string wrapped in ``{% translate %}``/``gettext`` but never
   translated fails here).
2. The pages: every page and partial of a game (lobby, game page for a player and a spectator,
   each decision panel met in a whole game, the log, replay, final scores, profile, settings,
   leaderboard, login, sign-up, rules, an error answer) is rendered in ``zh-hans``. Its visible
   text (tags, scripts and styles stripped; ``aria-label``, ``title`` and ``placeholder`` kept)
   may not contain, as a whole phrase of two or more words, any English msgid of the catalogue
   (or a literal piece of one between its placeholders), nor any run of four English words at
   all (which catches a string that was never wrapped). Proper nouns and notation are allowed.
"""

from __future__ import annotations

import ast
import html
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import translation
from django.utils.translation import trans_real

import engine
from games.core.states import game_state
from games.models import Game, Profile
from games.play import lifecycle
from games.play import submit as play_submit
from games.text import gamelog, messages
from games.text import seats as seat_text
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)
PO = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
ZH = "zh-hans"
CJK = re.compile(r"[\u4e00-\u9fff]")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")
# Kept in English in both languages: the game's name in page titles, the examples of action
# notation and the language switcher's own "English" button (see locale/GLOSSARY.md).
ALLOWED = ("Tigris & Euphrates", "English")
NOTATION = re.compile(
    r"\b(tile|leader|withdraw|catastrophe|swap|commit|war|monument|decline|treasure|pass)"
    r"( (red|black|blue|green|king|priest|farmer|trader|monument|[a-p]\d{1,2}|\d|[a-z]+-[a-z]+))*"
)


# ----------------------------------------------------------------------------- the catalogue


def parse_po(text: str) -> list[dict[str, Any]]:
    """Return the entries of a .po file: ``msgid``, ``msgid_plural``, ``msgstr`` list, flags."""
    entries: list[dict[str, Any]] = []
    entry: dict[str, Any] = {}
    field = ""

    def flush() -> None:
        if "msgid" in entry and not entry.get("obsolete"):
            entries.append(dict(entry))
        entry.clear()

    for line in text.splitlines():
        line = line.strip()
        if not line:
            flush()
            continue
        if line.startswith("#~"):
            entry["obsolete"] = True
            continue
        if line.startswith("#,"):
            if "msgid" in entry:
                flush()
            entry["flags"] = {f.strip() for f in line[2:].split(",")}
            continue
        if line.startswith("#"):
            if "msgid" in entry:
                flush()
            continue
        match = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(\".*\")$", line)
        if match:
            field = match.group(1)
            value = ast.literal_eval(match.group(2))
            if field.startswith("msgstr"):
                entry.setdefault("msgstr", []).append(value)
            else:
                entry[field] = value
        elif line.startswith('"'):
            value = ast.literal_eval(line)
            if field.startswith("msgstr"):
                entry["msgstr"][-1] += value
            else:
                entry[field] += value
    flush()
    return entries


def catalogue() -> list[dict[str, Any]]:
    """Return the committed zh_Hans entries, the header left out."""
    return [e for e in parse_po(PO.read_text(encoding="utf-8")) if e["msgid"]]


@pytest.fixture(autouse=True, scope="module")
def compiled_messages() -> Iterator[None]:
    """Compile the catalogue if the .mo is missing or older (``make messages`` does it too)."""
    mo = PO.with_suffix(".mo")
    if not mo.exists() or mo.stat().st_mtime < PO.stat().st_mtime:
        call_command("compilemessages", locale=["zh_Hans"], verbosity=0)
        trans_real._translations = {}  # type: ignore[attr-defined]
        trans_real._default = None  # type: ignore[attr-defined]
    yield


def test_every_msgid_of_the_committed_catalogue_is_translated_and_none_is_fuzzy() -> None:
    entries = catalogue()
    assert len(entries) > 300
    empty = [e["msgid"] for e in entries if not all(e.get("msgstr", [""]))]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e.get("flags", set())]
    assert not empty, f"untranslated: {empty}"
    assert not fuzzy, f"fuzzy: {fuzzy}"
    header = parse_po(PO.read_text(encoding="utf-8"))[0]
    assert "fuzzy" not in header.get("flags", set())
    assert "Plural-Forms: nplurals=1; plural=0;" in header["msgstr"][0]


def test_placeholders_of_every_translation_match_the_english() -> None:
    for e in catalogue():
        wanted = set(PLACEHOLDER.findall(e.get("msgid_plural", e["msgid"])))
        for text in e["msgstr"]:
            assert set(PLACEHOLDER.findall(text)) == wanted, e["msgid"]


def test_makemessages_finds_no_string_missing_from_the_committed_catalogue(
    tmp_path: Path,
) -> None:
    """Extract the messages of a copy of the code and compare with the committed .po."""
    if shutil.which("xgettext") is None:
        pytest.fail("gettext is missing: run scripts/system-deps.sh msgfmt (make messages)")
    copy = tmp_path / "site"
    copy.mkdir()
    for name in ("manage.py", "engine", "games", "tigris_site", "templates", "locale", "static"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, copy / name)
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "zh_Hans", "--no-obsolete", "-v0"],
        cwd=copy,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    extracted = parse_po((copy / PO.relative_to(ROOT)).read_text(encoding="utf-8"))
    committed = {e["msgid"] for e in catalogue()}
    missing = sorted(e["msgid"] for e in extracted if e["msgid"] and e["msgid"] not in committed)
    untranslated = sorted(
        e["msgid"] for e in extracted if e["msgid"] and not all(e.get("msgstr", [""]))
    )
    assert not missing, f"run makemessages and translate: {missing}"
    assert not untranslated, f"translate: {untranslated}"


# ----------------------------------------------------------------------------- engine codes


def engine_error_codes() -> set[str]:
    """Return every code the engine may raise (``engine.ERROR_CODES``)."""
    return set(engine.ERROR_CODES)


SAMPLE_PARAMS = {
    "seat": 2,
    "kind": "support",
    "count": 3,
    "color": "blue",
    "square": "f7",
    "leader": "king",
}


def test_every_engine_error_code_has_a_sentence() -> None:
    codes = engine_error_codes()
    assert len(codes) >= 20
    assert codes == set(messages.SENTENCES), codes ^ set(messages.SENTENCES)


@pytest.mark.parametrize("code", sorted(engine_error_codes()))
def test_every_engine_error_code_renders_in_both_languages(code: str) -> None:
    with translation.override("en"):
        english = messages.engine_error_text(code, SAMPLE_PARAMS)
    with translation.override(ZH):
        chinese = messages.engine_error_text(code, SAMPLE_PARAMS)
    assert english and english.endswith(".") and "RULES.md" not in english
    assert chinese and CJK.search(chinese) and chinese != english
    assert "%(" not in chinese and "blue" not in chinese and "king" not in chinese


EVENT_PARAMS: dict[str, Any] = {
    "seat": 1,
    "next": 2,
    "color": "red",
    "square": "f7",
    "from_square": "e5",
    "leader": "priest",
    "removed": "blue",
    "count": 2,
    "colors": ["red", "green"],
    "amount": 1,
    "wars": ["black"],
    "attacker": 1,
    "defender": 2,
    "attacker_strength": 3,
    "defender_strength": 2,
    "winner": 1,
    "loser": 2,
    "monument": "red-blue",
    "special": True,
    "squares": ["a1", "b2"],
}
EVENT_REASONS = {
    "leader_withdrawn": ["action", "no_temple", "revolt", "war"],
    "conflict_resolved": ["revolt", "war"],
    "game_over": ["treasures", "bag"],
}


@pytest.mark.parametrize("code", engine.EVENT_CODES)
def test_every_event_code_is_written_in_chinese(code: str) -> None:
    seats = {
        1: seat_text.SeatInfo(position=1, username="ana", dynasty="bull"),
        2: seat_text.SeatInfo(position=2, username="bo", dynasty="lion"),
    }
    for reason in EVENT_REASONS.get(code, [None]):
        params = dict(EVENT_PARAMS, reason=reason, kind=reason)
        event = {"code": code, "params": params}
        with translation.override("en"):
            english = gamelog.sentence(event, seats)
        with translation.override(ZH):
            chinese = gamelog.sentence(event, seats)
        if english is None:  # bookkeeping the log leaves out (tiles drawn, turn ended)
            assert chinese is None
            continue
        assert chinese and CJK.search(chinese), (code, chinese)
        assert chinese != code and "%(" not in chinese
        for word in ("red", "priest", "revolt", "war", "treasure", "Seat", "Bull"):
            assert not re.search(rf"\b{word}\b", chinese), (code, chinese)


# ----------------------------------------------------------------------------- rendered pages


class VisibleText(HTMLParser):
    """Collect the text a reader meets: data outside scripts/styles, and labelling attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("aria-label", "title", "placeholder") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def visible_text(content: bytes) -> str:
    """Return the visible text of a page, one space between pieces."""
    parser = VisibleText()
    parser.feed(content.decode())
    return " ".join(" ".join(parser.parts).split())


def english_phrases() -> list[str]:
    """Return the catalogue's English phrases of 2+ words (msgids split at placeholders)."""
    phrases = set()
    for e in catalogue():
        for msgid in (e["msgid"], e.get("msgid_plural", "")):
            if not msgid or msgid in e["msgstr"]:
                continue
            for piece in PLACEHOLDER.split(html.unescape(msgid)):
                piece = piece.strip(" .,:;!?()·—–\"'“”#")
                if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2:
                    phrases.add(piece)
    return sorted(phrases, key=len, reverse=True)


def untranslated(content: bytes, phrases: list[str], names: list[str]) -> list[str]:
    """Return the English found in a page rendered in Chinese (empty when all is translated)."""
    text = visible_text(content)
    for allowed in (*ALLOWED, *names):
        text = text.replace(allowed, " ")
    text = NOTATION.sub(" ", text)
    # ``p in text`` first: the same answer (a phrase the pattern finds is in the text), and
    # the thousands of phrases' patterns, more than ``re`` keeps compiled, are compiled
    # only for the few phrases a page holds (1.5 s a page otherwise).
    found = [
        p
        for p in phrases
        if p in text and re.search(rf"(?<![A-Za-z]){re.escape(p)}(?![A-Za-z])", text)
    ]
    found += re.findall(r"(?:[A-Za-z]{2,}[ ,'’]+){3}[A-Za-z]{2,}", text)
    return found


def zh_client(user: Any | None = None) -> Client:
    """Return a client reading Chinese: the account's language, else Accept-Language."""
    if user is None:
        return Client(HTTP_ACCEPT_LANGUAGE=ZH)
    Profile.objects.update_or_create(user=user, defaults={"language": ZH})
    return client_for(user)


def play_until_every_decision(game: Game, seats: dict[int, Any]) -> Iterator[tuple[Game, str]]:
    """Play ``game`` with random legal actions; yield it at each new kind of pending decision.

    Tiles are preferred to swaps and passes, so kingdoms grow and conflicts happen; the game
    is played to its end (the final scores) or ``MAX_PLIES``.
    """
    rng = random.Random(8)
    seen: set[str] = set()
    for _ in range(900):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            yield game, "over"
            return
        state = game_state(game)
        kind = state.pending.kind if state.pending else ""
        if kind and kind not in seen:
            seen.add(kind)
            yield game, kind
        actions = [str(a) for a in engine.legal_actions(state)]
        placing = [a for a in actions if a.split()[0] in ("tile", "leader")]
        support = [a for a in actions if a.startswith("commit")]
        if support:
            pool = support
        elif placing and rng.random() < 0.9:
            pool = placing
        else:
            pool = actions
        assert game.to_act_seat is not None
        play_submit.game_submit_action(
            game_id=game.pk,
            user=seats[game.to_act_seat],
            action=rng.choice(pool),
            expected_version=game.version,
        )


def test_every_page_of_a_game_reads_in_chinese(django_capture_on_commit_callbacks: Any) -> None:
    phrases = english_phrases()
    assert "Waiting for players" in phrases and "Tiles in the bag" in phrases
    with django_capture_on_commit_callbacks(execute=True):
        game, seats = started_game(3, days_per_move=3, is_rated=True)
    names = [u.get_username() for u in seats.values()]
    clients = {n: zh_client(u) for n, u in seats.items()}
    spectator = zh_client(UserFactory())
    anonymous = zh_client()
    pages: dict[str, bytes] = {}

    def get(name: str, client: Client, path: str, status: int = 200, **extra: Any) -> None:
        response = client.get(path, **extra)
        assert response.status_code == status, (name, response.status_code)
        pages[name] = response.content

    get("lobby", clients[1], "/")
    get("lobby anonymous", anonymous, "/")
    get("rules", anonymous, "/rules/")
    get("login", anonymous, "/accounts/login/")
    get("signup", anonymous, "/accounts/signup/")
    get("leaderboard", anonymous, "/leaderboard")
    get("settings", clients[1], "/settings")
    get("profile", spectator, f"/players/{seats[1].pk}/")
    get("not found", anonymous, "/games/999999/", status=404)
    with django_capture_on_commit_callbacks(execute=True):
        open_game = lifecycle.game_create(creator=seats[1], num_players=4)
    get("waiting room", clients[1], f"/games/{open_game.pk}/")
    seen = []
    with django_capture_on_commit_callbacks(execute=True):
        for current, kind in play_until_every_decision(game, seats):
            seen.append(kind)
            path = f"/games/{current.pk}/"
            actor = current.to_act_seat or 1
            for n in {actor, 1 + actor % 3}:
                get(f"game {kind} seat {n}", clients[n], path)
                get(f"partial {kind} seat {n}", clients[n], path, HTTP_HX_REQUEST="true")
            get(f"game {kind} spectator", spectator, path)
            get(f"replay {kind}", clients[actor], f"/games/{current.pk}/replay?ply=1")
            if kind != "over":
                # an error answer: a refused move, in the player's language
                response = clients[actor].post(
                    f"/games/{current.pk}/act", {"action": "tile red z99", "version": 0}
                )
                assert response.status_code in (400, 409)
                pages[f"error {kind}"] = response.content
    assert {"over", "support", "treasure"} <= set(seen), seen
    get("replay finished", spectator, f"/games/{game.pk}/replay")
    get("profile after", spectator, f"/players/{seats[1].pk}/")
    problems = {}
    for name, content in pages.items():
        found = untranslated(content, phrases, names)
        if found:
            problems[name] = found[:5]
        if name not in ("login", "signup"):
            assert CJK.search(visible_text(content)), name
    assert not problems, problems


def test_the_check_catches_english_on_a_chinese_page() -> None:
    phrases = english_phrases()
    page = b'<p>\xe7\xad\x89\xe5\xbe\x85 Tiles in the bag: 3</p><b title="Game log">x</b>'
    assert set(untranslated(page, phrases, [])) == {"Tiles in the bag", "Game log"}
    assert untranslated(b"<p>this was never wrapped at all</p>", phrases, [])
    allowed = b"<title>Tigris &amp; Euphrates</title><input placeholder='tile red f7'>"
    assert untranslated(allowed, phrases, []) == []


def test_a_refused_move_is_explained_in_the_players_language() -> None:
    game, seats = started_game(2)
    Profile.objects.update_or_create(user=seats[1], defaults={"language": ZH})
    chinese = client_for(seats[1]).post(
        f"/games/{game.pk}/act", {"action": "withdraw king", "version": 0}
    )
    assert chinese.status_code == 400
    assert "你的国王不在棋盘上。" in chinese.content.decode()
    english = client_for(seats[1]).post(
        f"/games/{game.pk}/act",
        {"action": "withdraw king", "version": 0},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "你的国王不在棋盘上。" in english.content.decode()  # the account wins over the browser


def test_a_deadline_is_written_in_the_players_language_and_time_zone() -> None:
    with time_machine.travel(datetime(2026, 3, 2, 10, 0, tzinfo=UTC), tick=False):
        game, seats = started_game(2, days_per_move=1)  # due Tuesday 3 March, 10:00 UTC
        Profile.objects.update_or_create(
            user=seats[1], defaults={"language": ZH, "time_zone": "Asia/Shanghai"}
        )
        chinese = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
        english = client_for(seats[2]).get(f"/games/{game.pk}/").content.decode()
    assert "3月3日 星期二 18:00 CST" in chinese  # not "星期二 3 三月"
    assert "Tue 3 Mar, 10:00 UTC" in english


# ----------------------------------------------------------------------------- language choice


def test_switching_language_keeps_the_player_on_the_same_page() -> None:
    game, seats = started_game(2)
    client = client_for(seats[1])
    path = f"/games/{game.pk}/replay?ply=0"
    page = client.get(path)
    assert 'lang="en"' in page.content.decode() and 'id="lang-switch"' in page.content.decode()
    assert f'name="next" value="/games/{game.pk}/replay?ply=0"' in page.content.decode()
    response = client.post("/i18n/setlang/", {"language": ZH, "next": path})
    assert response.status_code == 302 and response["Location"] == path
    again = client.get(path)
    assert '<html lang="zh-hans">' in again.content.decode() and "回放" in again.content.decode()
    assert Profile.objects.get(user=seats[1]).language == ZH
    # The account's choice follows the player to a new device with an English browser.
    elsewhere = client_for(seats[1]).get(path, HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="zh-hans">' in elsewhere.content.decode()
    back = client.post("/i18n/setlang/", {"language": "en", "next": path})
    assert back["Location"] == path and 'lang="en"' in client.get(path).content.decode()
    assert Profile.objects.get(user=seats[1]).language == "en"


def test_an_anonymous_visitor_switches_with_the_cookie() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post("/i18n/setlang/", {"language": ZH, "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    page = visible_text(client.get("/rules/").content)
    assert "叛乱" in page and "灾难板块" in page and "revolt" not in page


def test_the_rules_page_is_linked_from_the_nav_and_every_game_page() -> None:
    game, seats = started_game(2)
    page = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    assert page.count('href="/rules/"') >= 2
    english = visible_text(Client(HTTP_ACCEPT_LANGUAGE="en").get("/rules/").content)
    for word in ("revolt", "war", "monument", "treasure", "catastrophe", "lowest colour"):
        assert word in english


def test_a_new_account_keeps_the_language_it_signed_up_in() -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=ZH)
    password = "tigris-and-euphrates-2026"
    response = client.post(
        "/accounts/signup/",
        {
            "email": "mei@example.com",
            "display_name": "Mei",
            "password1": password,
            "password2": password,
        },
    )
    assert response.status_code == 302
    assert Profile.objects.get(user__email="mei@example.com").language == ZH


# ----------------------------------------------------------------------------- emails


def test_emails_arrive_in_each_recipients_own_language(
    django_capture_on_commit_callbacks: Any,
) -> None:
    users = [UserFactory(), UserFactory()]
    Profile.objects.update_or_create(user=users[0], defaults={"language": "en"})
    Profile.objects.update_or_create(user=users[1], defaults={"language": ZH})
    mail.outbox.clear()
    with translation.override(ZH), django_capture_on_commit_callbacks(execute=True):
        # the sender's language (here Chinese) must not leak into the other's email
        game = lifecycle.game_create(creator=users[0], num_players=2)
        lifecycle.game_join(game_id=game.pk, user=users[1])
    by_recipient = {m.to[0]: m for m in mail.outbox}
    english, chinese = by_recipient[users[0].email], by_recipient[users[1].email]
    assert "has started" in english.subject and not CJK.search(english.subject + english.body)
    assert "已开始" in chinese.subject and "你好" in chinese.body
    assert "has started" not in chinese.subject + chinese.body
    html_part = str(chinese.alternatives[0][0])  # type: ignore[attr-defined]
    assert "打开游戏" in html_part


def test_a_refusal_in_chinese_is_one_sentence_that_names_the_square_as_written() -> None:
    from games.play.errors import IllegalAction

    with translation.override("zh-hans"):
        chinese = str(IllegalAction("", code="square_occupied", params={"square": "k6"}))
    english = str(IllegalAction("", code="square_occupied", params={"square": "k6"}))
    assert english == "The square k6 is not empty."
    assert chinese.endswith("。") and not chinese.endswith("。.")
    assert "k6" in chinese and "K6" not in chinese
    # The engine's own sentence, for a code the site does not know, is made a sentence.
    fallback = str(IllegalAction("some new rule (RULES.md §4.1)", code="brand_new"))
    assert fallback == "Some new rule."


def test_lists_and_log_items_read_naturally_in_chinese() -> None:
    from games.models import Move
    from games.text.gamelog import log_entries
    from games.text.seats import SeatInfo
    from games.text.words import list_text

    move = Move(
        ply=2,
        seat=1,
        action="swap red blue",
        source="player",
        events=[
            {"code": "tiles_swapped", "params": {"seat": 1, "count": 2}},
            {"code": "tiles_discarded", "params": {"seat": 1, "colors": ["red", "blue"]}},
        ],
    )
    seats = {1: SeatInfo(1, "ann", "archer")}
    assert list_text(["a", "b"]) == "a, b"
    (english,) = log_entries([move], seats, 1, game_over=False)
    assert ". (" in english["text"]
    with translation.override("zh-hans"):
        assert list_text(["a", "b"]) == "a、b"
        (chinese,) = log_entries([move], seats, 1, game_over=False)
    assert "。 " not in chinese["text"] and "、" in chinese["text"]
