"""Display names: the form a name is kept in, what a name may hold, and its look-alike key.

A name is kept NFKC-normalised with inner runs of spaces collapsed to one ("Ｔｅｓｓ  Ｏｎｅ"
is kept as "Tess One"). It may hold letters, digits, marks, punctuation, symbols and plain
spaces: no control or format character, no other separator (U+2028 and U+2029 break email
headers, U+00A0 and U+2003 only imitate a space), no invisible (default-ignorable) character,
and at least one visible letter or digit.

Two names that look alike share a ``name_key``: the name's UTS #39 confusable skeleton,
case-folded (ICU's ``SpoofChecker`` through PyICU; the data is Unicode's confusables.txt as
the pinned ICU ships it). ``Profile.name_key`` is unique, so two players who look alike in a
game, the lobby or the leaderboard can never both exist, however their sign-ups race. A new
ICU release may change some skeletons: after upgrading ``pyicu-wheels``, re-key the profiles
with a data migration like ``0017_profile_name_key_fill``.
"""

from __future__ import annotations

import unicodedata
from functools import cache

import icu
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

MAX_KEY_LENGTH = 200  # a skeleton may be longer than its name ("m" → "rn")
# Combining marks in a row on one letter: scripts that stack marks (Thai, Devanagari,
# Vietnamese before NFKC) need two or three; "Zalgo" text piles up dozens over other lines.
MAX_STACKED_MARKS = 4
# Symbols that draw nothing though Unicode calls them visible (issue 28): a name holding
# one looks like the name without it. BRAILLE PATTERN BLANK, MUSICAL SYMBOL NULL NOTEHEAD,
# HANGUL and HALFWIDTH HANGUL fillers.
BLANK_SYMBOLS = frozenset("\u2800\U0001d159\u115f\u1160\u3164\uffa0")


def normalise(value: str) -> str:
    """Return ``value`` in NFKC with outer spaces stripped and inner runs collapsed to one.

    Only plain spaces are collapsed: other separators stay, for ``validate`` to refuse.
    """
    text = unicodedata.normalize("NFKC", value)
    return " ".join(part for part in text.split(" ") if part)


def _is_invisible(ch: str) -> bool:
    return ch in BLANK_SYMBOLS or bool(
        icu.Char.hasBinaryProperty(ch, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT)
    )


def is_invisible(ch: str) -> bool:
    """Return whether ``ch`` draws nothing: default-ignorable, or a blank symbol."""
    return _is_invisible(ch)


def validate(value: str) -> None:
    """Raise ``ValidationError`` unless the normalised ``value`` may be a display name.

    Refused: control and format characters and every separator but the plain space (the
    first message), invisible characters such as U+3164 HANGUL FILLER (the second), more
    than ``MAX_STACKED_MARKS`` combining marks on one letter (the third), and a name with no
    visible letter or digit (the fourth).
    """
    text = normalise(value)
    for ch in text:
        category = unicodedata.category(ch)
        if category.startswith("C") or (category.startswith("Z") and ch != " "):
            raise ValidationError(
                _(
                    "A display name cannot contain line breaks, control characters or "
                    "spaces other than the plain space."
                ),
                code="separator",
            )
        if _is_invisible(ch):
            raise ValidationError(
                _("A display name cannot contain invisible characters."), code="invisible"
            )
    stacked = 0
    for ch in text:
        stacked = stacked + 1 if unicodedata.category(ch).startswith("M") else 0
        if stacked > MAX_STACKED_MARKS:
            raise ValidationError(
                _("A display name cannot stack more than %(n)s marks on one letter.")
                % {"n": MAX_STACKED_MARKS},
                code="stacked",
            )
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):
        raise ValidationError(
            _("A display name needs at least one visible letter or digit."), code="no_letter"
        )


@cache
def _checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


def name_key(value: str) -> str:
    """Return the key two look-alike names share: ``"Теss 0ne"`` and ``"tess one"`` alike.

    The skeleton is taken before case folding (Cyrillic "Т" is a look-alike of Latin "T",
    while lowercase "т" looks like small-capital "ᴛ") and once more after it, so case never
    matters either. Empty for an empty name.
    """
    text = normalise(value)
    if not text:
        return ""
    checker = _checker()
    once = checker.getSkeleton(0, text).casefold()
    return str(checker.getSkeleton(0, once).casefold())[:MAX_KEY_LENGTH]
