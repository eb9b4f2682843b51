"""Cursor pagination (django-ninja's ``CursorPagination``) over rows turned into schemas.

An endpoint returns ``Rows(queryset, convert)``: the cursor is computed on the rows'
ordering field, and only then is the page's list of rows converted, so no row itself ever
reaches the response.

A cursor is the client's text: before any query, its position must read as a value of the
ordering field (an integer in the database's 64-bit range, a finite number, a date-time)
and its offset as an integer below ``PAGINATION_MAX_OFFSET``; anything else is a 422
``{"cursor": "Invalid Cursor"}`` (issue 28, finding 6), never a 500.
"""

from __future__ import annotations

import math
from typing import Any

import pydantic
from django.core.exceptions import FieldDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import models
from django.http import HttpRequest
from ninja import Field, Schema
from ninja.errors import ValidationError
from ninja.pagination import CursorPagination

from games.api.values import Rows

PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
MAX_CURSOR_LENGTH = 200  # a real cursor is under 60 characters
INT64 = (-(2**63), 2**63 - 1)
_CURSOR_PATTERN = r"^[A-Za-z0-9+/]*={0,2}$"


def _invalid_cursor() -> ValidationError:
    return ValidationError([{"cursor": "Invalid Cursor"}])


def _ordering_field(queryset: Any, name: str) -> models.Field[Any, Any] | None:
    """Return the model field (or annotation's output field) ``name`` orders by, if known."""
    if name == "pk":
        return queryset.model._meta.pk  # type: ignore[no-any-return]
    annotation = queryset.query.annotations.get(name)
    if annotation is not None:
        return annotation.output_field  # type: ignore[no-any-return]
    try:
        return queryset.model._meta.get_field(name)  # type: ignore[no-any-return]
    except FieldDoesNotExist:
        return None


def position_valid(field: models.Field[Any, Any] | None, position: str) -> bool:
    """Return whether ``position`` (a cursor's text) reads as a value of ``field``."""
    if field is None:
        return False
    try:
        value = field.to_python(position)
    except (DjangoValidationError, ValueError, TypeError, OverflowError):
        return False
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int):
        return INT64[0] <= value <= INT64[1]
    if isinstance(value, float):
        return math.isfinite(value)
    return True


class Page(CursorPagination):
    """``{"previous", "next", "results"}``: ``next``/``previous`` are URLs with a cursor."""

    class Input(Schema):
        """The page's query parameters, bounded so that the schema says what is accepted."""

        page_size: int | None = Field(None, ge=1, le=MAX_PAGE_SIZE)
        cursor: str | None = Field(
            None, min_length=1, max_length=MAX_CURSOR_LENGTH, pattern=_CURSOR_PATTERN
        )

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("page_size", PAGE_SIZE)
        kwargs.setdefault("max_page_size", MAX_PAGE_SIZE)
        super().__init__(**kwargs)

    def paginate_queryset(
        self, queryset: Any, pagination: Any, request: HttpRequest, **params: Any
    ) -> Any:
        """Paginate ``queryset`` (a ``Rows``) and convert the page's rows.

        Raises ninja's ``ValidationError`` (a 422) for a cursor that is not one of ours.
        """
        if not isinstance(queryset, Rows):
            raise TypeError("an endpoint with a cursor page returns Rows")
        try:
            cursor = self.Cursor.from_encoded_param(pagination.cursor, context={})
        except (pydantic.ValidationError, UnicodeError) as exc:
            raise _invalid_cursor() from exc
        if cursor.p is not None and not position_valid(
            _ordering_field(queryset.queryset, self._order_attribute), cursor.p
        ):
            raise _invalid_cursor()
        page = super().paginate_queryset(queryset.queryset, pagination, request, **params)
        page[self.items_attribute] = queryset.convert(page[self.items_attribute])
        return page
