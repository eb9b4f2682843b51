"""The bots' strength you can read (issue 26): the calibration file shown on the home page's
bot choice, the create form and the bot accounts' profiles, in both languages; a person's
record against each tier on their profile, finished games only, in one query."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from games.accounts.bots import bot_account
from games.models import Game, Profile, Seat
from games.play import botstrength, lifecycle, timeouts
from games.selectors.profiles import record_against_bots
from tests.games.factories import UserFactory, client_for

pytestmark = pytest.mark.django_db

ZH = "zh-hans"
# display = 1500 + 40·(μ − 3·shown_sigma), rounded to tens: easy 2350, medium 2550, hard 2630;
# ± 40·2σ of each tier's own σ.
CALIBRATION: dict[str, Any] = {
    "format": 1,
    "date": "2026-11-30",
    "games": 312,
    "command": "python bench/bot_calibrate.py --write …",
    "shown_sigma": 1.25,
    "tiers": {
        "random": {"mu": 10.0, "sigma": 2.0, "games": 104},
        "easy": {"mu": 25.0, "sigma": 1.5, "games": 208},
        "medium": {"mu": 30.0, "sigma": 1.0, "games": 208},
        "hard": {"mu": 32.0, "sigma": 1.25, "games": 104},
    },
}


@pytest.fixture
def calibration(tmp_path: Path, settings: Any) -> Path:
    """Point the site at a calibration file with known figures."""
    path = tmp_path / "bot_strength.json"
    path.write_text(json.dumps(CALIBRATION), encoding="utf-8")
    settings.BOT_STRENGTH_FILE = str(path)
    return path


def _strength_spans(page: str) -> dict[str, str]:
    """Return tier → the text of its ``bot-strength`` span on the home page's bot choice."""
    out = {}
    for chunk in page.split('<span class="bot-strength" data-tier="')[1:]:
        tier, rest = chunk.split('">', 1)
        out[tier] = rest.split("</span>", 1)[0]
    return out


def test_the_file_is_read_into_shown_figures(calibration: Path) -> None:
    strength = botstrength.bot_strength()
    assert strength is not None
    assert strength.date == dt.date(2026, 11, 30) and strength.games == 312
    assert set(strength.tiers) == {"easy", "medium", "hard"}  # no random bot on the site
    assert [(t.rating, t.plus_minus, t.games) for t in strength.tiers.values()] == [
        (2350, 120, 208),
        (2550, 80, 208),
        (2630, 100, 104),
    ]


@pytest.mark.parametrize(
    "data",
    [
        {**CALIBRATION, "format": 2},
        {**CALIBRATION, "date": "yesterday"},
        {**CALIBRATION, "tiers": {"easy": {"mu": 25.0, "sigma": 0.0, "games": 3}}},
        {**CALIBRATION, "tiers": {"easy": {"mu": 25.0, "games": 3}}},
        {**CALIBRATION, "tiers": ["easy"]},
        {**CALIBRATION, "shown_sigma": 0},
        {k: v for k, v in CALIBRATION.items() if k != "shown_sigma"},
        [1, 2],
    ],
)
def test_a_malformed_file_is_no_calibration(data: object, calibration: Path) -> None:
    calibration.write_text(json.dumps(data), encoding="utf-8")
    assert botstrength.bot_strength() is None
    page = Client().get("/").content.decode()
    assert "bot-strength" not in page  # no figure and no note, never a made-up one


def test_the_committed_calibration_is_read() -> None:
    strength = botstrength.bot_strength()
    assert strength is not None, "games/play/bot_strength.json is missing or malformed"
    assert set(strength.tiers) == {"easy", "medium", "hard"}
    assert strength.games > 0 and all(t.games > 0 for t in strength.tiers.values())
    assert strength.date <= timezone.now().date()
    assert strength.tiers["easy"].rating < strength.tiers["medium"].rating


def test_the_home_pages_bot_choice_shows_each_tiers_strength_in_both_languages(
    calibration: Path,
) -> None:
    english = Client().get("/").content.decode()
    assert _strength_spans(english) == {
        "easy": "· about 2350",
        "medium": "· about 2550",
        "hard": "· about 2630",
    }
    assert (
        "Bot strength on the site's rating scale (a new player starts at 1500), "
        "calibrated on 30 Nov 2026 from 312 games between the bots." in english
    )
    chinese = Client(HTTP_ACCEPT_LANGUAGE=ZH).get("/").content.decode()
    assert _strength_spans(chinese)["medium"] == "· 约 2550"
    assert "（新玩家从 1500 起），于 2026年11月30日 根据机器人之间的 312 局对局校准" in chinese
    play_bot = client_for(UserFactory()).get("/games/bot").content.decode()
    assert _strength_spans(play_bot)["hard"] == "· about 2630"


def test_the_create_form_names_each_bots_strength_in_both_languages(calibration: Path) -> None:
    me = UserFactory()
    for url in ("/games/new", "/"):
        page = client_for(me).get(url).content.decode()
        assert '<option value="medium">bot, medium · about 2550</option>' in page
        assert '<option value="easy">bot, easy · about 2350</option>' in page
        assert "from 312 games between the bots" in page
    Profile.objects.filter(user=me).update(language=ZH)
    cache.clear()  # the account's language is read through the cache (web.middleware)
    chinese = client_for(me).get("/games/new").content.decode()
    assert '<option value="hard">机器人，困难 · 约 2630</option>' in chinese


def test_a_recalibration_shows_on_the_home_pages_cached_create_form_at_once(
    calibration: Path,
) -> None:
    """The create form's fields are kept 10 minutes (``{% cache %}``); its key names the
    calibration's version, so new figures are shown at the next page, not 10 minutes on."""
    cache.clear()
    client = client_for(UserFactory())
    before = client.get("/").content.decode()
    assert '<option value="medium">bot, medium · about 2550</option>' in before
    version = botstrength.bot_strength().version  # type: ignore[union-attr]
    recalibrated = {**CALIBRATION, "date": "2026-12-02"}
    recalibrated["tiers"] = {
        **CALIBRATION["tiers"],
        "medium": {"mu": 28.0, "sigma": 1.0, "games": 9},
    }
    calibration.write_text(json.dumps(recalibrated), encoding="utf-8")
    stat = calibration.stat()
    os.utime(calibration, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    assert botstrength.bot_strength().version not in ("", version)  # type: ignore[union-attr]
    after = client.get("/").content.decode()
    assert '<option value="medium">bot, medium · about 2470</option>' in after
    assert "about 2550" not in after


def test_a_bots_profile_shows_its_strength_and_a_persons_does_not(calibration: Path) -> None:
    bot = bot_account("medium")
    page = Client().get(f"/players/{bot.pk}/").content.decode()
    assert "<strong>Medium · about 2550</strong> ± 80" in page
    assert "from 312 games between the bots" in page
    chinese = Client(HTTP_ACCEPT_LANGUAGE=ZH).get(f"/players/{bot.pk}/").content.decode()
    assert "<strong>中等 · 约 2550</strong> ± 80" in chinese
    person = Client().get(f"/players/{UserFactory().pk}/").content.decode()
    assert 'id="bot-strength"' not in person and "bot-strength-note" not in person


def test_without_a_calibration_no_figure_is_shown(tmp_path: Path, settings: Any) -> None:
    settings.BOT_STRENGTH_FILE = str(tmp_path / "missing.json")
    me = UserFactory()
    for page in (
        Client().get("/").content.decode(),
        client_for(me).get("/games/new").content.decode(),
        Client().get(f"/players/{bot_account('hard').pk}/").content.decode(),
    ):
        assert "bot-strength" not in page and "about 2" not in page


# ----------------------------------------------------------- a person's record against the bots


def _finished_with_bots(
    me: Any, tiers: list[str], *, my_rank: int, bot_ranks: list[int], public: bool = True
) -> Game:
    """Return a finished game of ``me`` against bots of ``tiers``, ranked as given."""
    game = lifecycle.game_create(
        creator=me,
        num_players=1 + len(tiers),
        bots=tiers,
        is_public=public,
        is_rated=False,
        days_per_move=None,
    )
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())
    Seat.objects.filter(game=game, user=me).update(final_rank=my_rank)
    bots = list(Seat.objects.filter(game=game, is_bot=True).select_related("user__profile"))
    for tier, rank in zip(tiers, bot_ranks, strict=True):
        seat = next(s for s in bots if s.user.profile.bot_tier == tier and s.final_rank is None)
        Seat.objects.filter(pk=seat.pk).update(final_rank=rank)
        seat.final_rank = rank
    return game


CELLS = ("won", "lost", "tied")


def _table(page: str) -> dict[str, tuple[str, str, str]]:
    """Return tier → (won, lost, shared) from the profile's ``bot-record`` table."""
    if 'id="bot-record"' not in page:
        return {}
    body = page.split('id="bot-record"')[1].split("</table>")[0]
    out = {}
    for row in body.split('<tr data-tier="')[1:]:
        tier = row.split('"')[0]
        won, lost, tied = (row.split(f'<td class="{c}">')[1].split("</td>")[0] for c in CELLS)
        out[tier] = (won, lost, tied)
    return out


def test_a_persons_record_against_each_tier_counts_finished_games_they_may_see(
    django_assert_num_queries: Any,
) -> None:
    me = UserFactory()
    _finished_with_bots(me, ["easy"], my_rank=1, bot_ranks=[2])  # won
    _finished_with_bots(me, ["easy"], my_rank=2, bot_ranks=[1])  # lost
    _finished_with_bots(me, ["medium"], my_rank=1, bot_ranks=[1])  # a shared place
    # 3 players: above easy, below medium; two easy bots in one game count twice
    _finished_with_bots(me, ["easy", "medium"], my_rank=2, bot_ranks=[3, 1])
    _finished_with_bots(me, ["easy", "easy"], my_rank=1, bot_ranks=[2, 3])
    private = _finished_with_bots(me, ["hard"], my_rank=1, bot_ranks=[2], public=False)
    running = lifecycle.game_create(
        creator=me, num_players=2, bots=["hard"], is_rated=False, days_per_move=None
    )
    Seat.objects.filter(game=running).update(final_rank=1)  # not finished: never counted
    aborted = _finished_with_bots(me, ["hard"], my_rank=1, bot_ranks=[2])
    Game.objects.filter(pk=aborted.pk).update(status=Game.Status.ABORTED)

    with django_assert_num_queries(1):
        mine = record_against_bots(me.pk, me)
    assert [(r.tier, r.won, r.lost, r.tied, r.played) for r in mine] == [
        ("easy", 4, 1, 0, 5),
        ("medium", 0, 1, 1, 2),
        ("hard", 1, 0, 0, 1),  # the private game: its own player sees it
    ]
    assert private.pk  # anyone else does not
    public = Client().get(f"/players/{me.pk}/").content.decode()
    assert _table(public) == {"easy": ("4", "1", "0"), "medium": ("0", "1", "1")}
    own = client_for(me).get(f"/players/{me.pk}/").content.decode()
    assert _table(own)["hard"] == ("1", "0", "0")
    chinese = Client(HTTP_ACCEPT_LANGUAGE=ZH).get(f"/players/{me.pk}/").content.decode()
    assert "对战机器人" in chinese and '<th scope="row">简单</th>' in chinese
    # a bot's own profile lists no record against bots
    assert _table(Client().get(f"/players/{bot_account('easy').pk}/").content.decode()) == {}


def test_the_record_against_bots_costs_one_query_whatever_the_history(
    django_assert_num_queries: Any,
) -> None:
    me = UserFactory()
    with django_assert_num_queries(1):
        assert record_against_bots(me.pk, me) == []
    for n in range(6):
        _finished_with_bots(me, ["easy", "hard"], my_rank=1 + n % 3, bot_ranks=[2, 3 - n % 2])
    with django_assert_num_queries(1):
        rows = record_against_bots(me.pk, AnonymousUser())
    assert sum(r.played for r in rows) == 12


def test_a_game_given_up_against_bots_counts_as_a_loss(
    django_assert_num_queries: Any,
) -> None:
    me = UserFactory()
    _finished_with_bots(me, ["easy"], my_rank=1, bot_ranks=[2])  # won
    resigned = lifecycle.game_create(
        creator=me,
        num_players=3,
        bots=["easy", "medium"],
        is_rated=False,
        days_per_move=None,
        is_public=True,
    )
    timeouts.game_resign(game_id=resigned.pk, user=me)  # nobody left: aborted
    resigned.refresh_from_db()
    assert resigned.status == Game.Status.ABORTED
    # an operator's abort is nobody's loss
    stopped = lifecycle.game_create(
        creator=me, num_players=2, bots=["easy"], is_rated=False, days_per_move=None
    )
    lifecycle.game_abort(game_id=stopped.pk)
    with django_assert_num_queries(1):
        mine = record_against_bots(me.pk, me)
    assert [(r.tier, r.won, r.lost, r.tied) for r in mine] == [
        ("easy", 1, 1, 0),
        ("medium", 0, 1, 0),
    ]
    assert _table(Client().get(f"/players/{me.pk}/").content.decode()) == {
        "easy": ("1", "1", "0"),
        "medium": ("0", "1", "0"),
    }
    english = Client().get(f"/players/{me.pk}/").content.decode()
    assert "games given up (resigned or timed out) as losses" in english
    chinese = Client(HTTP_ACCEPT_LANGUAGE=ZH).get(f"/players/{me.pk}/").content.decode()
    assert "认输" in chinese and "given up" not in chinese
