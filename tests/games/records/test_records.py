"""Game records (issue 19): export, import by replay, refusals with the ply and the reason.

One finished game (played through the submit service) is exported as JSON and text and
imported back by the replay, the management command and the analysis board's form; tampered
copies are refused with the ply and the reason. Unfinished games export only the
requester's own view, and nothing to a stranger to a private game.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

import engine
from games.core.states import game_state
from games.models import Game, Move
from games.records.replay import RecordError, replay_record
from tests.games.factories import UserFactory, client_for, started_game
from tests.games.leaks import assert_record_no_leak
from tests.games.playing import randomly, submit
from tests.games.records.helpers import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished() -> tuple[Game, dict[str, Any]]:
    """A finished 3-player game and its record as a logged-out visitor downloads it."""
    game, _seats = finished_game(3, seed=11, open_scoring=True)
    response = Client().get(f"/games/{game.pk}/record.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return game, response.json()


def test_a_finished_game_round_trips_and_tampering_is_refused(
    finished: tuple[Game, dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game, record = finished
    moves = list(Move.objects.filter(game=game).order_by("ply"))
    assert record["seed"] == game.seed and record["complete"] is True
    assert [(m["ply"], m["seat"], m["action"], m["source"]) for m in record["moves"]] == [
        (m.ply, m.seat, m.action, m.source) for m in moves
    ]
    assert {m["source"] for m in record["moves"]} == {"player", "timeout", "bot"}
    assert [p["seat"] for p in record["players"]] == [1, 2, 3]
    # Export → import gives the same final state and result.
    replayed = replay_record(json.dumps(record))
    assert replayed.final == game_state(game)
    assert replayed.ranking == record["result"]["ranking"]
    call_command("verify_games")  # the rows the helper wrote replay to the snapshot
    text = Client().get(f"/games/{game.pk}/record.txt").content.decode()
    assert f"# seed: {game.seed}" in text and f"{len(moves)}. {moves[-1].seat} " in text

    # The command replays the file, and refuses a tampered one with the ply and the reason.
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    call_command("import_record", str(good))
    assert f"record replays: {len(moves)} plies, over" in capsys.readouterr().out

    illegal = next(a for a in ("tile red a1", "leader king a1", "pass") if a != moves[0].action)
    tampered: list[tuple[str, Any, int, str]] = [
        ("notation", "tile purple f7", 1, "Not a valid action"),
        ("illegal", "tile blue a1", 1, "illegal move"),
        ("seat", None, 1, "must act"),
        ("result", None, len(moves), "wrong result"),
        ("extra", None, len(moves) + 1, "already over"),
        ("ply", None, 2, "out of order"),
    ]
    for what, action, ply, reason in tampered:
        bad = copy.deepcopy(record)
        if what in ("notation", "illegal"):
            bad["moves"][0]["action"] = action
        elif what == "seat":
            bad["moves"][0]["seat"] = 1 + record["moves"][0]["seat"] % 3
        elif what == "result":
            bad["result"]["ranking"][0]["score"] += 1
        elif what == "extra":
            bad["moves"].append({**bad["moves"][-1], "ply": len(moves) + 1, "action": illegal})
        elif what == "ply":
            del bad["moves"][1]
        with pytest.raises(RecordError) as refused:
            replay_record(bad)
        assert (refused.value.ply, what) == (ply, what)
        assert reason in refused.value.reason, (what, refused.value.reason)
        path = tmp_path / f"{what}.json"
        path.write_text(json.dumps(bad))
        with pytest.raises(CommandError, match=f"ply {ply}: "):
            call_command("import_record", str(path))
    for header, value, reason in [
        ("format", "pgn", "not a game record"),
        ("rules", "1997-hans-im-glueck", "not this site's"),
        ("seed", None, "no seed"),
        ("seed", "12", "whole number"),
    ]:
        with pytest.raises(RecordError, match=reason) as refused:
            replay_record({**record, header: value})
        assert refused.value.ply == 0
    with pytest.raises(RecordError, match="not JSON"):
        replay_record("{not json")


def test_the_analysis_form_loads_a_record_or_refuses_it_with_the_ply(
    finished: tuple[Game, dict[str, Any]],
) -> None:
    game, record = finished
    client = Client()
    before = (Game.objects.count(), Move.objects.count())
    loaded = client.post("/analysis/load", {"record": json.dumps(record)})
    assert loaded.status_code == 302 and loaded["Location"].startswith("/analysis/?board=")
    last = len(record["moves"])
    page = client.get(loaded["Location"].replace("ply=0", f"ply={last}")).content.decode()
    assert f"Step {last} of {last}" in page and "The game is over." in page
    bad = copy.deepcopy(record)
    bad["moves"][4]["action"] = "tile purple f7"
    refused = client.post("/analysis/load", {"record": json.dumps(bad)})
    assert refused.status_code == 400
    assert 'data-ply="5"' in refused.content.decode()
    assert "Record refused at ply 5" in refused.content.decode()
    assert (Game.objects.count(), Move.objects.count()) == before  # nothing written


def test_an_unfinished_games_record_is_the_requesters_own_view() -> None:
    game, seats = started_game(3)
    rng = random.Random(4)
    # Swaps make the hidden colours a real risk: play some, then random plies.
    from games.play import submit as play_submit

    for _ in range(3):
        game.refresh_from_db()
        state = game_state(game)
        swap = next(
            (a for a in engine.legal_actions(state) if isinstance(a, engine.SwapTiles)), None
        )
        action = swap or engine.legal_actions(state)[0]
        play_submit.game_submit_action(
            game_id=game.pk,
            user=seats[state.to_act],
            action=str(action),
            expected_version=game.version,
        )
    for _ in range(12):
        game = submit(game, seats, randomly(rng))
    assert game.status == Game.Status.ACTIVE
    for seat, user in seats.items():
        client = client_for(user)
        response = client.get(f"/games/{game.pk}/record.json")
        assert response.status_code == 200
        record = response.json()
        assert record["perspective"] == seat and record["complete"] is False
        assert record["seed"] is None and record["result"] is None
        assert_record_no_leak(response.content, game, seat)
        text = client.get(f"/games/{game.pk}/record.txt")
        assert text.status_code == 200
        assert_record_no_leak(text.content, game, seat)
        with pytest.raises(RecordError, match="no seed"):
            replay_record(record)
    spectator = Client().get(f"/games/{game.pk}/record.json")  # a public game's spectator
    assert spectator.status_code == 200 and spectator.json()["perspective"] is None
    assert_record_no_leak(spectator.content, game, None)
    # A stranger to a private game gets nothing, as if there were no game.
    Game.objects.filter(pk=game.pk).update(is_public=False)
    stranger = client_for(UserFactory())
    for path in ("record.json", "record.txt"):
        assert stranger.get(f"/games/{game.pk}/{path}").status_code == 404
        assert Client().get(f"/games/{game.pk}/{path}").status_code == 404
    assert Client().get("/games/999999/record.json").status_code == 404


def _malformed_records(record: dict[str, Any]) -> list[tuple[str, str]]:
    """Malformed records (issue 28, finding 7) with a word of the reason each must give."""
    deep = "[" * 5000 + "]" * 5000
    return [
        (deep, "not JSON"),
        ('{"a": ' * 3000 + "1" + "}" * 3000, "not JSON"),
        (json.dumps({**record, "players": 1}), "players"),
        (json.dumps({**record, "players": True}), "players"),
        (json.dumps({**record, "players": 2.5}), "players"),
        (json.dumps({**record, "players": [1, 2]}), "players"),
        (json.dumps({**record, "players": [{"seat": [1], "name": {"x": 1}}]}), "players"),
        (json.dumps({**record, "format": json.loads("[" * 900 + "]" * 900)}), "not a game record"),
        (json.dumps({**record, "moves": [{"ply": 1, "seat": 1, "action": 7}]}), "no action"),
    ]


def test_malformed_records_are_refused_with_a_reason_everywhere(
    finished: tuple[Game, dict[str, Any]], tmp_path: Path
) -> None:
    """The replay, the analysis board (paste and upload) and ``import_record`` refuse each."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    _game, record = finished
    client = Client()
    before = (Game.objects.count(), Move.objects.count())
    for text, reason in _malformed_records(record):
        with pytest.raises(RecordError, match=reason):
            replay_record(text)
        pasted = client.post("/analysis/load", {"record": text})
        assert pasted.status_code == 400 and "Record refused" in pasted.content.decode()
        upload = SimpleUploadedFile("record.json", text.encode(), "application/json")
        uploaded = client.post("/analysis/load", {"record_file": upload})
        assert uploaded.status_code == 400 and "Record refused" in uploaded.content.decode()
        path = tmp_path / "record.json"
        path.write_text(text, "utf-8")
        with pytest.raises(CommandError, match="ply") as refused:
            call_command("import_record", str(path))
        assert refused.value.returncode == 1
    assert (Game.objects.count(), Move.objects.count()) == before
    assert "board" not in "".join(client.session.keys())
