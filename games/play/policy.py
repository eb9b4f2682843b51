"""The default policy: what the site plays for a seat that timed out or was dropped (issue 6).

Pure: it reads an engine state and returns one of ``engine.legal_actions(state)``.
"""

from __future__ import annotations

import engine

WAR_ORDER = ("red", "black", "blue", "green")


def _square_key(square: str) -> tuple[str, int]:
    """Return ``("b", 8)`` for ``"b8"``: column letter first, then row number."""
    return square[0], int(square[1:])


def default_action(state: engine.GameState) -> engine.Action:
    """Return the default action of ``state.to_act`` (issue 6, time controls).

    - ordinary action with actions left: ``pass`` (ends the turn, RULES.md §11);
    - support in a revolt or war: ``commit 0`` (RULES.md §6.3, §7.3);
    - which war next: the first of red, black, blue, green that is offered (§7.2);
    - monument: ``decline monument`` (§8.1);
    - treasures: the first square in column-letter, then row-number order (§9).

    Falls back to the first legal action for anything else. Raises ``ValueError`` when the
    game is over (no legal action).
    """
    legal = engine.legal_actions(state)
    if not legal:
        raise ValueError("no legal action: the game is over")
    by_text = {str(a): a for a in legal}
    if "pass" in by_text:
        return by_text["pass"]
    if "commit 0" in by_text:
        return by_text["commit 0"]
    for color in WAR_ORDER:
        if f"war {color}" in by_text:
            return by_text[f"war {color}"]
    if "decline monument" in by_text:
        return by_text["decline monument"]
    treasures = [a for a in legal if isinstance(a, engine.TakeTreasure)]
    if treasures:
        return min(treasures, key=lambda a: _square_key(str(a).split()[1]))
    return legal[0]
