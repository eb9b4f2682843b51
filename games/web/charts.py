"""Charts drawn server-side as SVG by pygal (issue 18): our code is only the glue.

pygal (LGPL, pure Python, no dependency beyond the standard library's ElementTree) draws
complete, styled SVG charts from lists of numbers and escapes every text it writes; it runs
in the request without a browser library. Its tooltips need its JavaScript, which we do not
load (``js=[]``). Its SVG carries an inline ``<style>`` (and a small config ``<script>``),
which the pages' Content-Security-Policy refuses inline, so each chart is its own document
(``games.web.views.charts``) shown with ``<img>``: an SVG image runs no script at all.

``rating_chart``: one dot per rated game, the rating after it. ``colour_charts_context``:
for a finished game, one small chart per seat of its four colours over the plies (public
after the end, RULES.md §14; ``games.core.history``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import icu
import pygal
from django.utils import translation
from django.utils.translation import gettext as _
from pygal.style import Style

import engine
from games.core.history import colours_by_ply
from games.models import Game
from games.selectors.games import seat_infos
from games.text.words import COLOR_NAME

STYLE = Style(
    background="transparent",
    plot_background="transparent",
    font_family="system-ui, sans-serif",
    colors=("#b03a2e", "#333333", "#2e6fd8", "#2a8d4b"),  # red, black, blue, green tiles
    foreground="#333",
    foreground_strong="#111",
    foreground_subtle="#bbb",
)


def _render(chart: Any) -> str:
    # pygal escapes the titles, labels and values it writes (ElementTree).
    return str(chart.render(is_unicode=True))


def _date_words(when: datetime) -> str:
    """Return ``when``'s date as the viewer's locale writes it, by ICU (medium length:
    "Dec 2, 2026" in English, "2026年12月2日" in Chinese; issue 32, not a US date in both)."""
    language = translation.to_locale(translation.get_language() or "en")
    formatter = icu.DateFormat.createDateInstance(icu.DateFormat.kMedium, icu.Locale(language))
    formatter.setTimeZone(icu.TimeZone.getGMT())
    return str(formatter.format(when.timestamp()))  # PyICU takes seconds


def rating_chart(points: Sequence[tuple[datetime, float]]) -> str:
    """Return the SVG document of a rating history: one dot per rated game (date, rating).

    A chart with no dot when there is no rated game.
    """
    chart = pygal.Line(
        js=[],
        explicit_size=True,
        width=640,
        height=260,
        style=STYLE,
        show_legend=False,
        title=_("Rating after each rated game"),
        x_label_rotation=30,
        show_minor_x_labels=False,
        x_labels_major_count=8,
        truncate_label=-1,
    )
    chart.x_labels = [_date_words(when) for when, _rating in points]
    chart.add(_("Rating"), [round(rating) for _when, rating in points])
    return _render(chart)


def colour_chart(label: str, colours: Sequence[tuple[int, int, int, int]]) -> str:
    """Return the SVG document of one seat's four colours after each ply.

    ``label`` names the seat in the page's caption, not in the SVG: a long display name as
    pygal's title took lines from the plot and squeezed its y-axis labels (issue 32).
    """
    chart = pygal.XY(
        js=[],
        explicit_size=True,
        width=420,
        height=220,
        style=STYLE,
        show_dots=False,
        stroke_style={"width": 2},
        legend_at_bottom=True,
        legend_at_bottom_columns=4,
        x_title=_("ply"),
    )
    for index, colour in enumerate(engine.COLOR_NAMES):
        chart.add(str(COLOR_NAME[colour]), [(ply, vp[index]) for ply, vp in enumerate(colours)])
    return _render(chart)


def colour_charts_context(game: Game) -> dict[str, Any]:
    """Return ``{"colour_charts": [{"seat", "label"}]}`` for a finished game, else ``{}``.

    The charts themselves are drawn when their images are asked for; ``game`` comes with
    its seats (``with_seats``).
    """
    if game.status != Game.Status.FINISHED or game.state is None:
        return {}
    seats = seat_infos(game)
    return {"colour_charts": [{"seat": n, "label": seats[n].label} for n in sorted(seats)]}


def colour_chart_of(game: Game, seat: int) -> str:
    """Return the SVG of ``seat``'s colours over finished ``game``; ``ValueError`` otherwise.

    ``ValueError`` for an unfinished game (its totals may be secret) or no such seat.
    """
    history = colours_by_ply(game)
    seats = seat_infos(game)
    if seat not in history or seat not in seats:
        raise ValueError(f"game #{game.pk} has no seat {seat}")
    return colour_chart(seats[seat].label, history[seat])
