"""Game records and the analysis board (issue 19; docs/record-format.md).

Public functions, for the pages and the API alike:

- ``export.record_for(game_id, user) -> dict | None``: the record as ``user`` may see it;
  ``export.record_text(record) -> str``: the same as a plain-text move list;
- ``replay.replay_record(data) -> ReplayedRecord``: replay a record through the engine,
  or raise ``replay.RecordError(ply, reason)``;
- ``analysis``: the analysis board's positions (a finished game, a pasted record or
  diagram, a position re-dealt from a player's own view), never written to a game.
"""
