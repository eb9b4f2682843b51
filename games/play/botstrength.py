"""The bots' strength on the site's rating scale (issue 26), read from the calibration file.

``bench/bot_calibrate.py --write games/play/bot_strength.json`` plays the tiers against
one another (paired seeds) and rates those games with the site's own model
(``ratings.MODEL``: every tier starts as a new player does, μ 25, σ 25/3); the file is
committed, and this module reads it once per process into small frozen values the pages
show: "medium · about 2150", the date and the games it comes from. The figure is the site's
``ratings.display_rating(μ, shown_sigma)`` — the number the bot account's profile would
show had those games been rated, every tier at the tiers' mean σ so the order of the
numbers is the order of μ (``bench/bot_calibrate.py`` says why) — rounded to tens (an
estimate: ± ``plus_minus``, from the tier's own σ).

File shape (``format`` 1)::

    {"format": 1, "date": "2026-12-03", "games": 312, "command": "python bench/…",
     "shown_sigma": 2.1, "tiers": {"medium": {"mu": 27.1, "sigma": 1.9, "games": 208, …},
     …}, …}

A missing or malformed file is no calibration (``None``): the pages then show no figure,
never a made-up one; ``settings.BOT_STRENGTH_FILE`` names another file (tests).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType

from django.conf import settings

from games.accounts.bots import BOT_TIERS
from games.play.ratings import MODEL, display_rating, display_uncertainty

logger = logging.getLogger(__name__)

DEFAULT_FILE = Path(__file__).resolve().parent / "bot_strength.json"
FORMAT = 1


@dataclass(frozen=True)
class TierStrength:
    """One bot tier's calibrated strength: ``rating`` the shown number rounded to tens,
    ``plus_minus`` its ± (40·2σ, as a person's), ``games`` the calibration games it played."""

    tier: str
    rating: int
    plus_minus: int
    games: int


@dataclass(frozen=True)
class BotStrength:
    """The calibration the pages show: its ``date``, its ``games`` in all, per tier
    (``tiers``: easy, medium, hard → ``TierStrength``, only those the file rates), and
    ``new_player`` the number a new account shows (1500), for scale."""

    date: dt.date
    games: int
    tiers: Mapping[str, TierStrength]
    new_player: int
    # the file's version: a digest of its bytes ("" when not read from a file); a cache of
    # anything showing these figures names it in its key, so a recalibration is shown at once
    version: str = ""

    def of(self, tier: str) -> TierStrength | None:
        """Return the strength of ``tier`` (None when the file does not rate it)."""
        return self.tiers.get(tier)


def parse(data: object) -> BotStrength:
    """Return the ``BotStrength`` of a calibration file's parsed JSON ``data``.

    Raises ``ValueError`` (``KeyError``/``TypeError`` included) for another format, a
    missing field, a non-finite or non-positive σ (a tier's or ``shown_sigma``), or
    negative game counts. Tiers other
    than the site's bots (``random``) are read past.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a format-{FORMAT} bot calibration")
    shown_sigma = float(data["shown_sigma"])
    if not 0 < shown_sigma < 1e6:
        raise ValueError(f"bad shown_sigma {shown_sigma}")
    tiers: dict[str, TierStrength] = {}
    for tier, values in data["tiers"].items():
        if tier not in BOT_TIERS:
            continue
        mu, sigma, games = float(values["mu"]), float(values["sigma"]), int(values["games"])
        if not (sigma > 0 and abs(mu) < 1e6 and sigma < 1e6) or games < 0:
            raise ValueError(f"bad rating for {tier}: mu {mu}, sigma {sigma}, games {games}")
        tiers[tier] = TierStrength(
            tier=tier,
            rating=int(round(display_rating(mu, shown_sigma), -1)),
            plus_minus=display_uncertainty(sigma),
            games=games,
        )
    games_total = int(data["games"])
    if games_total < 0:
        raise ValueError("negative games")
    return BotStrength(
        date=dt.date.fromisoformat(str(data["date"])),
        games=games_total,
        tiers=MappingProxyType(tiers),
        new_player=round(display_rating(MODEL.mu, MODEL.sigma)),
    )


@cache
def _read(path: str, mtime_ns: int) -> BotStrength | None:
    try:
        raw = Path(path).read_bytes()
        strength = parse(json.loads(raw.decode("utf-8")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        logger.warning("bot calibration %s not read: %s", path, exc)
        return None
    return dataclasses.replace(strength, version=hashlib.sha256(raw).hexdigest()[:16])


def bot_strength() -> BotStrength | None:
    """Return the bots' calibration (None without a readable file), read once per file
    version (its path and modification time) per process; ``version`` is a digest of the
    file's bytes (the create form's cached rendering is keyed by it)."""
    path = Path(getattr(settings, "BOT_STRENGTH_FILE", None) or DEFAULT_FILE)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        return None
    return _read(str(path), mtime)
