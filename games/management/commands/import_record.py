"""Replay a game record file through the engine: print its result, or refuse it with the ply."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

import engine
from games.records.replay import RecordError, replay_record


class Command(BaseCommand):
    help = (
        "Replay a game record (docs/record-format.md) through the engine. Prints the plies "
        "and the result, with --diagram the final position; exits 1 naming the ply and the "
        "reason for a record that does not replay. Writes nothing to the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the record's JSON file, or - for standard input")
        parser.add_argument(
            "--diagram", action="store_true", help="also print the final position's diagram"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["path"]
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {path}: {exc}", returncode=2) from None
        try:
            replayed = replay_record(text)
        except RecordError as exc:
            raise CommandError(f"ply {exc.ply}: {exc.reason}", returncode=1) from None
        final = replayed.final
        ranking = ", ".join(
            f"seat {p['seat']} rank {p['rank']} score {p['score']}" for p in replayed.ranking
        )
        self.stdout.write(
            f"record replays: {len(replayed.actions)} plies, "
            + (f"over ({final.end_reason}): {ranking}" if final.is_over else "not over")
        )
        if options["diagram"]:
            self.stdout.write(engine.render_diagram(final))
