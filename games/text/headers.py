"""Email header text that any name leaves intact (issue 20, item 1).

Python's email library refuses a header value that ``str.splitlines`` would split — not
only CR and LF but U+000B, U+000C, U+001C–U+001E, U+0085, U+2028 and U+2029 — so one
player's name in a subject made the whole email fail. Names are refused such characters
(``games.text.names.validate``), but names stored earlier, or by the admin, still reach headers.
"""

from __future__ import annotations

import unicodedata


def _breaks(ch: str) -> bool:
    category = unicodedata.category(ch)
    if category.startswith("C") or (category.startswith("Z") and ch != " "):
        return True
    return len(f"a{ch}b".splitlines()) > 1


def header_safe(value: str) -> str:
    """Return ``value`` with every control, format and separator character made a space.

    Runs of spaces left by them collapse to one; the plain space and everything visible
    is kept, so "Tess\\u2028One" becomes "Tess One".
    """
    text = "".join(" " if _breaks(ch) else ch for ch in str(value))
    return " ".join(part for part in text.split(" ") if part)
