"""Site-wide response headers Django has no setting for."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


def permissions_policy(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Add ``settings.PERMISSIONS_POLICY`` as the Permissions-Policy header of every response.

    The site uses no camera, microphone, location or other powerful feature: the header
    denies them to the site and to anything it might ever embed. A view that sets the
    header itself keeps its own.
    """
    header = settings.PERMISSIONS_POLICY

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if header and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = header
        return response

    return middleware
