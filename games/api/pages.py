"""Cursor pagination (django-ninja's ``CursorPagination``) over rows turned into schemas.

An endpoint returns ``Rows(queryset, convert)``: the cursor is computed on the rows'
ordering field, and only then is the page's list of rows converted, so no row itself ever
reaches the response.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.pagination import CursorPagination

from games.api.values import Rows

PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


class Page(CursorPagination):
    """``{"previous", "next", "results"}``: ``next``/``previous`` are URLs with a cursor."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("page_size", PAGE_SIZE)
        kwargs.setdefault("max_page_size", MAX_PAGE_SIZE)
        super().__init__(**kwargs)

    def paginate_queryset(
        self, queryset: Any, pagination: Any, request: HttpRequest, **params: Any
    ) -> Any:
        """Paginate ``queryset`` (a ``Rows``) and convert the page's rows."""
        if not isinstance(queryset, Rows):
            raise TypeError("an endpoint with a cursor page returns Rows")
        page = super().paginate_queryset(queryset.queryset, pagination, request, **params)
        page[self.items_attribute] = queryset.convert(page[self.items_attribute])
        return page
