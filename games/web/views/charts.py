"""The charts as SVG documents (issue 18), each shown by its page with ``<img>``.

pygal's SVG styles itself inline, which the site's policy refuses on its pages; these
answers carry their own policy instead: no script, no fetch, inline styles only
(``csp_override``). A finished game's chart may be kept a day (it never changes).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override, csp_report_only_override
from django.views.decorators.http import require_GET

from games.selectors.profiles import rating_points
from games.web.charts import colour_chart_of, rating_chart
from games.web.views.game import HtmxHttpRequest, _viewable_game

SVG_POLICY = {"default-src": [CSP.NONE], "style-src": [CSP.UNSAFE_INLINE]}


def _svg(content: str, *, max_age: int = 0) -> HttpResponse:
    response = HttpResponse(content, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = f"private, max-age={max_age}" if max_age else "no-cache"
    return response


@require_GET
@csp_override(SVG_POLICY)
@csp_report_only_override(SVG_POLICY)
def rating_svg(request: HttpRequest, user_id: int) -> HttpResponse:
    """The player's rating after each rated game the viewer may see: one dot per game."""
    user = get_object_or_404(get_user_model(), pk=user_id)
    return _svg(rating_chart(rating_points(user.pk, request.user)))


@require_GET
@csp_override(SVG_POLICY)
@csp_report_only_override(SVG_POLICY)
def colours_svg(request: HtmxHttpRequest, game_id: int, seat: int) -> HttpResponse:
    """A finished game's seat: its four colours after each ply (404 before the end)."""
    game = _viewable_game(request, game_id)
    try:
        svg = colour_chart_of(game, seat)
    except ValueError:
        raise Http404("no chart") from None
    return _svg(svg, max_age=86400)
