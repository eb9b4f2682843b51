"""The second newcomer trial (issue 32), without a browser: the bot's tiers, sign-up and back,
the confirmation email's link, and no "has started" email for one's own bot game."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.core import mail
from django.test import Client

import engine
from games.core.states import game_state
from games.models import Game, Notification, NotificationKind
from games.play import submit
from games.selectors import people
from games.text.gamelog import log_entries
from games.text.seats import SeatInfo
from tests.games.factories import UserFactory, client_for, started_game

pytestmark = pytest.mark.django_db

PASSWORD = "tigris-and-euphrates-2026"


@pytest.mark.parametrize("tier", ["easy", "medium", "hard"])
def test_the_home_page_offers_each_tier_and_one_post_starts_a_game_against_it(tier: str) -> None:
    human = UserFactory()
    client = client_for(human)
    home = client.get("/").content.decode()
    intro = home[home.index('id="intro"') : home.index("</section>", home.index('id="intro"'))]
    assert intro.count('action="/games/bot"') == 3 and f'value="{tier}"' in intro
    response = client.post("/games/bot", {"tier": tier})
    game = Game.objects.get(creator=human)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.seats.get(is_bot=True).user.profile.bot_tier == tier and not game.is_rated


def test_an_unknown_tier_is_refused_with_a_message_and_nothing_is_created() -> None:
    client = client_for(UserFactory())
    response = client.post("/games/bot", {"tier": "grandmaster"})
    assert response.status_code == 400
    assert "There is no such bot: choose easy, medium or hard." in response.content.decode()
    assert not Game.objects.exists()


def test_signed_out_a_tier_leads_to_sign_up_which_says_why_and_comes_back_to_that_game(
    mailoutbox: list[mail.EmailMessage],
) -> None:
    visitor = Client()
    response = visitor.post("/games/bot", {"tier": "hard"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/signup/?next=%2Fgames%2Fbot%3Ftier%3Dhard"
    assert not Game.objects.exists()
    signup = visitor.get(response["Location"]).content.decode()
    why = re.search(r'<p class="signup-why" id="signup-why">(.*?)</p>', signup, re.S)
    assert why and "hard bot opens as soon as you confirm" in why.group(1)
    assert "email you when it is your move" in why.group(1)
    done = visitor.post(
        response["Location"],
        {
            "email": "ur@example.com",
            "display_name": "Ur",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert done.status_code == 302
    body = mailoutbox[-1].body
    link = re.search(r"http://\S+/accounts/confirm-email/\?code=(\S+)", body)
    code = re.search(r"^([A-Z0-9]{4}-[A-Z0-9]{4})$", body, re.MULTILINE)
    assert link and code and link.group(1) == code.group(1), body
    page = visitor.get(f"/accounts/confirm-email/?code={link.group(1)}").content.decode()
    assert f'value="{code.group(1)}"' in page  # filled in; a GET confirms nothing
    confirmed = visitor.post("/accounts/confirm-email/", {"code": code.group(1)})
    assert confirmed.status_code == 302 and confirmed["Location"] == "/games/bot?tier=hard"
    started = visitor.get(confirmed["Location"])
    game = Game.objects.get(creator__email="ur@example.com")
    assert started["Location"] == f"/games/{game.pk}/"
    assert game.seats.get(is_bot=True).user.profile.bot_tier == "hard"
    # Once: coming back to the URL shows the tiers' page, no second game.
    again = visitor.get("/games/bot?tier=hard")
    assert again.status_code == 200 and Game.objects.count() == 1


def test_a_wrong_code_in_the_link_is_refused_on_confirming() -> None:
    visitor = Client()
    visitor.post(
        "/accounts/signup/",
        {
            "email": "a@example.com",
            "display_name": "A",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    page = visitor.get("/accounts/confirm-email/?code=AAAA-AAAA")
    assert page.status_code == 200
    refused = visitor.post("/accounts/confirm-email/", {"code": "AAAA-AAAA"})
    assert refused.status_code == 200 and "_auth_user_id" not in visitor.session


def test_a_signed_in_get_without_the_remembered_tier_starts_nothing() -> None:
    client = client_for(UserFactory())
    page = client.get("/games/bot?tier=easy")
    assert page.status_code == 200 and 'id="page-play-bot-easy"' in page.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_no_has_started_email_for_a_bot_game_one_just_started(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(people, "DEFAULT_DELIVERY", {})
    human = UserFactory()
    client_for(human).post("/games/bot", {"tier": "easy"})
    game = Game.objects.get(creator=human)
    assert not Notification.objects.filter(
        game=game, user=human, kind=NotificationKind.GAME_STARTED
    ).exists()
    assert not [m for m in mail.outbox if "started" in m.subject.lower()]


def test_a_turns_monument_points_are_summed_in_one_clause() -> None:
    """RULES.md §8: three monuments gave six points of 1 VP; the log says it once."""
    seats = {1: SeatInfo(1, "ana", "lion"), 2: SeatInfo(2, "bo", "bull")}
    points = [("red", 1), ("black", 1), ("red", 1), ("blue", 1), ("red", 1), ("black", 1)]
    events = [
        {"code": "vp_scored", "params": {"seat": 1, "color": c, "amount": n, "reason": "monument"}}
        for c, n in points
    ]
    move = SimpleNamespace(ply=7, seat=1, events=events, source="player")
    (entry,) = log_entries([move], seats, 1, game_over=True)
    assert entry["lines"] == ["6 VP to Seat 1 (ana, Lion) from monuments: 3 red, 2 black, 1 blue."]
    one = SimpleNamespace(ply=8, seat=1, events=events[:1], source="player")
    (entry,) = log_entries([one], seats, 1, game_over=True)
    assert entry["lines"] == ["1 red VP to Seat 1 (ana, Lion) from a monument."]


def test_moves_taken_back_are_neither_counted_in_the_lobby_nor_numbered_in_the_log() -> None:
    game, seats = started_game(2, is_rated=False)
    mover = seats[game.to_act_seat or 0]
    state = game_state(game)
    tile = next(a for a in engine.legal_actions(state) if isinstance(a, engine.PlaceTile))
    submit.game_submit_action(game_id=game.pk, user=mover, action=str(tile), expected_version=0)
    submit.game_undo(game_id=game.pk, user=mover, expected_version=1)
    watcher = client_for(UserFactory())
    home = watcher.get("/").content.decode()
    watch = home[home.index(f'href="/games/{game.pk}/"') :][:600]
    assert "no move yet" in watch and "2 moves" not in watch, watch
    submit.game_submit_action(game_id=game.pk, user=mover, action=str(tile), expected_version=2)
    page = client_for(mover).get(f"/games/{game.pk}/").content.decode()
    log = page[
        page.index('<ol class="entries"') : page.index("</ol>", page.index('<ol class="entries"'))
    ]
    numbers = re.findall(r'<li value="(\d+)"(?: class="([^"]*)")?', log)
    # Newest first: the tile (1), the undo row (not numbered: no number of its own).
    assert [n for n, cls in numbers if "undo-row" not in cls] == ["1"], numbers
    assert any("undo-row" in cls for _n, cls in numbers)


def test_the_language_chosen_on_one_device_holds_on_every_other_once_signed_in() -> None:
    user = UserFactory()
    phone, desktop = client_for(user), client_for(user)
    assert 'lang="en"' in desktop.get("/settings").content.decode()
    phone.post("/i18n/setlang/", {"language": "zh-hans", "next": "/"})
    page = desktop.get("/settings").content.decode()
    assert 'lang="zh-hans"' in page and "设置" in page
    assert user.profile.__class__.objects.get(user=user).language == "zh-hans"
    phone.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert 'lang="en"' in desktop.get("/").content.decode()


def test_settings_with_a_trailing_slash_redirects_to_settings() -> None:
    client = client_for(UserFactory())
    response = client.get("/settings/")
    assert response.status_code == 301 and response["Location"] == "/settings"


def test_chinese_spaces_latin_from_han_and_words_durations_plainly() -> None:
    """Issue 32: "等待 bob", "放在 f4", "剩余 2 天 23 小时", "上一步：17 分钟前"."""
    from datetime import timedelta

    from django.utils import timezone, translation
    from django.utils.timesince import timeuntil
    from django.utils.translation import gettext as _

    with translation.override("zh-hans"):
        assert _("Waiting for %(who)s.") % {"who": "bob"} == "等待 bob。"
        placed = _("%(who)s placed their %(leader)s on %(square)s.")
        assert "放在 f4" in placed % {"who": "bob", "leader": "国王", "square": "f4"}
        now = timezone.now()
        left = timeuntil(now + timedelta(days=2, hours=23, minutes=1), now)
        # Django keeps each number with its unit (a no-break space).
        assert (_("due in %(when)s") % {"when": left}) == "剩余 2\xa0天 23\xa0小时"
        ago = _("last move %(when)s ago") % {"when": "17 分钟"}
        assert ago == "上一步：17 分钟前"


def test_a_profile_without_rated_games_says_so_in_both_languages() -> None:
    player = UserFactory()
    client = client_for(UserFactory())
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert 'id="no-rated-games"' in page and "No rated game yet" in page
    assert 'id="rating-chart"' not in page
    client.post("/i18n/setlang/", {"language": "zh-hans"})
    page = client.get(f"/players/{player.pk}/").content.decode()
    assert 'id="no-rated-games"' in page and "No rated game yet" not in page


def test_chart_dates_follow_the_viewers_language_and_long_names_stay_out_of_the_svg() -> None:
    from datetime import UTC, datetime

    from django.utils import translation

    from games.web import charts

    when = datetime(2026, 12, 2, 10, tzinfo=UTC)
    with translation.override("en"):
        assert "Dec 2, 2026" in charts.rating_chart([(when, 1510.0)])
    with translation.override("zh-hans"):
        svg = charts.rating_chart([(when, 1510.0)])
        assert "2026年12月2日" in svg and "12/02/2026" not in svg
    name = "Nebuchadnezzar the Second of Babylon, King of Kings"
    assert name not in charts.colour_chart(name, [(0, 0, 0, 0), (1, 0, 0, 0)])


def test_the_new_words_read_in_chinese() -> None:
    """The tiers, the sign-up's reason, /games/new, /games/finished and the chat's count."""
    visitor = Client()
    visitor.post("/i18n/setlang/", {"language": "zh-hans"})
    home = visitor.get("/").content.decode()
    assert "与简单机器人对局" in home and "与困难机器人对局" in home and "已结束的游戏" in home
    visitor.post("/games/bot", {"tier": "easy"})
    signup = visitor.get("/accounts/signup/?next=/games/bot%3Ftier%3Deasy").content.decode()
    assert "你与简单机器人的对局就会打开" in signup
    finished = visitor.get("/games/finished").content.decode()
    assert "没有符合条件的已结束对局。" in finished
    player = UserFactory()
    client = client_for(player)
    client.post("/i18n/setlang/", {"language": "zh-hans"})
    refused = client.post("/games/new", {"num_players": "2", "invite": "nobody-at-all"})
    assert refused.status_code == 400 and "对局未创建" in refused.content.decode()
    game, seats = started_game(2)
    chatter = client_for(seats[1])
    chatter.post("/i18n/setlang/", {"language": "zh-hans"})
    page = chatter.get(f"/games/{game.pk}/").content.decode()
    assert "0 / 500 个字符" in page and 'data-over="{n} 个字符：最多 500 个' in page
