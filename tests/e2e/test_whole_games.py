"""Whole games end to end, as players meet the site: sign-up, emailed link, lobby, forms.

Three new accounts (four on the embedded default) sign up on the sign-up page,
verify by the link in the email they received, log in on the login page; one creates a
rated game in the lobby, the others join from the lobby's list; the game is played to its
end through HTTP only, each player picking a random ``data-action`` their own page offers
(seeded) — after 20 plies a player, the biggest swap offered when there is one, so the bag
runs out sooner (``SWAPS_AFTER_A_PLAYER``). The first player chooses "immediately" for turn
emails on the settings page; the others keep the default, after a delay if they have not
acted (issue 17). Checked: the first player is emailed once each time the game comes to
wait on them after waiting on someone else, the others get no turn email (they act within
seconds, and once the delay has passed every one of their rows is moot), everyone gets the
game-over email, ratings change once, ``verify_games`` is clean, and no answer any player
received shows another player's hand.

- ``test_whole_game_on_real_services`` (``live_services``): Django's ``live_server`` over
  real HTTP (``urllib``, CSRF enforced), tasks queued on a real Redis and run by a real
  Celery worker process, every email (the web process's verification emails and the
  worker's notifications) delivered over SMTP to aiosmtpd in this process.
- ``test_whole_game_embedded``: the embedded default, through Django's test Client (CSRF
  checks on): eager tasks, the in-memory outbox. Four players: the 2-player game it also
  played went the same path (sign-up to ratings) with fewer seats; whole 2- and 3-player
  games through the views are ``tests/games/play/test_full_games.py``'s (on PostgreSQL),
  and this one's end is checked as theirs (``check_the_final_page``).
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail as django_mail
from django.core.cache import cache
from django.core.management import call_command
from django.utils import timezone

from games import tasks
from games.core.states import game_state
from games.models import Delivery, Game, Notification, Profile, Seat
from games.play import ratings
from games.records.replay import replay_record
from games.web import prerender
from tests import services
from tests.e2e.whole_game import (
    ClientWeb,
    HttpWeb,
    Mail,
    Played,
    Player,
    check_outbox_rows,
    choose_immediate_turn_emails,
    create_and_join,
    expected_mails,
    play_to_the_end,
    received_mails,
    sign_up_and_verify,
    wait_for,
)
from tests.games.mail.test_live_email import Inbox, _worker_database_url
from tests.games.mail.test_live_email import broker as broker  # noqa: F401 (a fixture)
from tests.games.mail.test_live_email import smtp_inbox as smtp_inbox  # noqa: F401 (a fixture)
from tests.games.play.test_full_games import check_the_final_page

NAMES = ["ana", "bel", "cyr", "dag"]
# Random plies until 20 a player, then the biggest swap offered whenever one is: the bag runs
# out in about half the plies (3 players on the real services: 75 instead of 175; 4 embedded:
# 92 instead of 160), after turns passed and defenders' decisions waited on. What a ply
# crosses (the views, the worker, Redis, SMTP, the partials rendered ahead, the emails) is
# the same at every ply; whole 2- and 3-player games at random to their end through the
# views are test_full_games'.
SWAPS_AFTER_A_PLAYER = 20
User = get_user_model()


def _check_the_end(players: list[Player], played: Played) -> None:
    """Finished and ranked, rated once (a second rating run changes nothing), clean."""
    game = Game.objects.get(pk=played.game_id)
    assert game.status == Game.Status.FINISHED
    assert game.version == played.plies
    assert game.rated_at is not None
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    assert all(s.final_rank is not None for s in seats)
    assert all(s.rating_before is not None and s.rating_after is not None for s in seats)
    profiles = {p.user_id: p for p in Profile.objects.filter(user__in=[s.user for s in seats])}
    assert all(profiles[s.user_id].rated_games == 1 for s in seats)
    before = [(p.user_id, p.rating_mu, p.rating_sigma) for p in profiles.values()]
    assert ratings.game_rate(game_id=game.pk) == []
    after = Profile.objects.filter(user_id__in=profiles).values_list(
        "user_id", "rating_mu", "rating_sigma"
    )
    assert sorted(after) == sorted(before)
    call_command("verify_games")
    assert all(p.scanned > 0 for p in players)
    _check_the_record(players[0], game)


def _check_the_record(player: Player, game: Game) -> None:
    """The finished game's record, downloaded as players do, replays to the same end.

    Export → import (``replay_record``, as the analysis board's form and the
    ``import_record`` command do) gives the stored final state and the seats' final ranks.
    (Read without the leak scan: a finished game's record holds its seed, as it may.)
    """
    answer = player.web.get(f"/games/{game.pk}/record.json")
    assert answer.status == 200, answer.status
    record = json.loads(answer.body)
    replayed = replay_record(answer.body)
    assert replayed.final == game_state(game)
    ranks = {s.position: s.final_rank for s in Seat.objects.filter(game=game)}
    assert {p["seat"]: p["rank"] for p in replayed.ranking} == ranks
    assert record["result"]["ranking"] == replayed.ranking
    text = player.web.get(f"/games/{game.pk}/record.txt")
    assert text.status == 200 and text.body.decode().count("\n") > game.version


def _check_rows_settled(chose_immediate: Player) -> None:
    """No row is left owed: the immediate ones were sent, the batched ones found moot."""
    rows = Notification.objects.values_list("user__email", "delivery", "status")
    assert {status for _email, _delivery, status in rows} <= {"sent", "skipped"}, list(rows)
    for email, delivery, status in rows:
        if delivery == Delivery.BATCHED:
            assert email != chose_immediate.email and status == "skipped", (email, status)
        else:
            assert status == "sent", (email, delivery, status)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("num_players", [4])
def test_whole_game_embedded(num_players: int, mailoutbox: list[Any]) -> None:
    started = time.monotonic()

    def inbox() -> list[Mail]:
        return [Mail(list(m.to), str(m.subject), str(m.body)) for m in django_mail.outbox]

    # Names differ per test: allauth rate-limits verification emails per address in the cache.
    players = [Player(f"{name}{num_players}", ClientWeb()) for name in NAMES[:num_players]]
    for player in players:
        sign_up_and_verify(player, inbox)
    choose_immediate_turn_emails(players[0])
    signups = len(django_mail.outbox)
    game_id = create_and_join(players)
    played = play_to_the_end(
        players,
        game_id,
        random.Random(7000 + num_players),
        swaps_after=SWAPS_AFTER_A_PLAYER * num_players,
    )

    # The others' delay passes: beat's batch sweep finds every turn taken, and sends nothing.
    with time_machine.travel(timezone.now() + timedelta(minutes=16)):
        assert tasks.send_batched() == 0
    _check_rows_settled(players[0])
    check_outbox_rows(players, played, inbox()[signups:])
    expected = expected_mails(players, played, immediate={players[0].email})
    assert received_mails(inbox()[signups:], game_id) == expected
    _check_the_end(players, played)
    check_the_final_page(played.game_id, num_players)
    print(
        f"\n{num_players} players embedded: {played.plies} plies, "
        f"{sum(p.received for p in players)} answers, {time.monotonic() - started:.1f} s"
    )


def _smtp_mails(inbox: Inbox) -> list[Mail]:
    mails = []
    for recipients, raw in list(inbox.messages):
        message = message_from_bytes(raw, policy=policy.default)
        assert isinstance(message, EmailMessage)
        body = message.get_body(("plain",)) or message
        assert isinstance(body, EmailMessage)
        mails.append(Mail(recipients, str(message["Subject"]), str(body.get_content())))
    return mails


@pytest.fixture
def web_smtp(smtp_inbox: tuple[Inbox, int], settings: Any) -> Iterator[tuple[Inbox, int]]:
    """Send the web process's own emails (verification) to the SMTP sink too."""
    inbox, port = smtp_inbox
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "timeout": 20},
        }
    }
    yield inbox, port


@pytest.fixture
def shared_cache(broker: str, settings: Any) -> Iterator[str]:
    """Use a database of the real Redis as this process's cache, and render ahead.

    Yields the cache URL for the worker: as in production, the worker leaves the waiting
    players' partials (``games.prerender``) where the web process reads them.
    """
    url = broker.rsplit("/", 1)[0] + "/1"
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    }
    settings.PRERENDER_PARTIALS = True
    yield url


def _worker_rendered(game_id: int) -> Any:
    """Wait, as a browser's poll interval would, until the worker rendered each poller's view."""

    def wait(version: int, pollers: list[Player]) -> None:
        status, updated_at = Game.objects.values_list("status", "updated_at").get(pk=game_id)
        if status != Game.Status.ACTIVE:
            return  # a finished game is rendered when asked, never ahead
        users = User.objects.filter(email__in=[p.email for p in pollers]).values_list("pk")
        keys = [prerender.partial_key(game_id, version, updated_at, pk, "en") for (pk,) in users]
        assert len(keys) == len(pollers)
        assert wait_for(lambda: all(cache.get(k) is not None for k in keys), seconds=30), keys

    return wait


@pytest.mark.live_services
@pytest.mark.django_db(transaction=True)
def test_whole_game_on_real_services(
    live_server: Any,
    web_smtp: tuple[Inbox, int],
    broker: str,
    shared_cache: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started = time.monotonic()
    inbox, port = web_smtp
    env = {
        "EMAIL_URL": f"smtp://127.0.0.1:{port}",
        "DATABASE_URL": _worker_database_url(),
        "SITE_URL": live_server.url,
        "CACHE_URL": shared_cache,
        "PRERENDER_PARTIALS": "1",
    }
    served = Counter[bool]()
    fetched = prerender.partial_fetched

    def counted(*args: Any, **kwargs: Any) -> prerender.FetchedPartial | None:
        # served from the cache: kept, and no game read here (issue 29: one render a board)
        answer = fetched(*args, **kwargs)
        served[answer is not None and answer.html is not None and answer.game is None] += 1
        return answer

    monkeypatch.setattr(prerender, "partial_fetched", counted)
    with services.celery_worker(broker, extra_env=env):
        players = [Player(f"{name}3", HttpWeb(live_server.url)) for name in NAMES[:3]]
        for player in players:
            sign_up_and_verify(player, lambda: _smtp_mails(inbox))
        choose_immediate_turn_emails(players[0])
        signups = len(inbox.messages)
        game_id = create_and_join(players)
        played = play_to_the_end(
            players,
            game_id,
            random.Random(7003),
            before_polls=_worker_rendered(game_id),
            swaps_after=SWAPS_AFTER_A_PLAYER * 3,
        )
        playing = time.monotonic() - started
        # Only now wait for the worker to drain the outbox (bounded), not after each ply.
        immediate = Notification.objects.exclude(delivery=Delivery.BATCHED)
        assert wait_for(lambda: not immediate.exclude(status=Notification.Status.SENT).exists()), (
            list(immediate.exclude(status="sent").values("kind", "status", "error"))
        )
        expected = expected_mails(players, played, immediate={players[0].email})
        wait_for(lambda: len(inbox.messages) - signups >= expected.total(), seconds=30)
        # The others' delay passes (the worker's clock cannot travel: their rows' time is
        # moved instead) and beat's batch sweep runs on the worker: every turn was taken.
        batched = Notification.objects.filter(delivery=Delivery.BATCHED)
        batched.update(send_after=timezone.now() - timedelta(seconds=1))
        tasks.send_batched.delay()
        assert wait_for(lambda: not batched.filter(status__in=["pending", "sending"]).exists()), (
            list(batched.values("kind", "status"))
        )
        time.sleep(1)  # an email the sweep would wrongly send has time to arrive
        _check_rows_settled(players[0])
    check_outbox_rows(players, played, _smtp_mails(inbox)[signups:])
    assert received_mails(_smtp_mails(inbox)[signups:], game_id) == expected
    assert len(inbox.messages) - signups == expected.total()
    # Every poll after a turn passed was answered from the partial the worker rendered (and
    # scanned for other players' hands like every other answer); after the last move, the
    # two polls of the finished game were rendered when asked.
    assert served[True] == 2 * len(played.waits), served
    assert served[False] == 2, served
    _check_the_end(players, played)
    print(
        f"\n3 players on real services: {played.plies} plies, "
        f"{sum(p.received for p in players)} answers, played in {playing:.1f} s, "
        f"{time.monotonic() - started:.1f} s in all"
    )
