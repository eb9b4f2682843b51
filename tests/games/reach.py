"""What a template could reach from its context: a model row anywhere, however deep (issue 27).

A Django template follows ``.`` through dictionary keys, attributes and list indexes, and
calls what it finds there without arguments: ``{{ u.seats.all.0.game.seed }}`` goes from a
``User`` to every seat of theirs, to each seat's game and to that game's seed and snapshot
(every hand and the bag). So a context is safe only when no value reachable in it is an ORM
object at all: no model instance, queryset or manager, whatever the depth.

``templates_reached()`` listens to Django's ``template_rendered`` signal (sent for every
template rendered under the test runner: pages, includes, partials rendered by code, emails)
and walks each context as it is rendered, the way a template could: mappings, sequences,
dataclass fields, lazy objects (forced), and the public attributes of any other object
(templates cannot read names starting with ``_``). Methods are not called (a value's methods
are code, not data); classes, modules and Django's template machinery are not entered.
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import functools
import types
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.db import models
from django.db.models.manager import BaseManager
from django.forms.renderers import BaseRenderer
from django.template import Context, Engine, Template
from django.template.base import Node
from django.test.signals import template_rendered
from django.utils.functional import LazyObject, Promise, empty

ATOMS = (
    str,
    bytes,
    int,
    float,
    complex,
    bool,
    type(None),
    decimal.Decimal,
    datetime.date,
    datetime.time,
    datetime.timedelta,
    datetime.tzinfo,
    uuid.UUID,
    Promise,  # a lazy translation: text
    enum.Enum,
)
# Not data a page put in a context: code, and the template engine's own objects (a form's
# renderer holds the engine, whose loaders cache compiled templates).
OPAQUE = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.MethodWrapperType,
    functools.partial,
    Engine,
    Template,
    Node,
    BaseRenderer,
)
MAX_DEPTH = 40


def _unwrap(value: Any) -> Any:
    """Return what a lazy object stands for (``request.user``, ``csrf_token``), forced."""
    if isinstance(value, LazyObject):
        if value._wrapped is empty:  # type: ignore[attr-defined]
            value._setup()  # type: ignore[attr-defined]
        return value._wrapped  # type: ignore[attr-defined]
    return value


def _children(value: Any) -> Iterator[tuple[str, Any]]:
    """Yield (step, child) for each value a template could reach in one step from ``value``."""
    if isinstance(value, Mapping):
        for key, child in value.items():
            yield f"[{key!r}]", child
        return
    if isinstance(value, list | tuple | set | frozenset):
        for n, child in enumerate(value):
            yield f"[{n}]", child
        return
    if dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            if not f.name.startswith("_"):
                yield f".{f.name}", getattr(value, f.name)
        return
    names: dict[str, Any] = {}
    for klass in type(value).__mro__:  # __slots__ of any class of it
        for name in getattr(klass, "__slots__", ()):
            if not name.startswith("_") and hasattr(value, name):
                names[name] = getattr(value, name)
    names.update((k, v) for k, v in getattr(value, "__dict__", {}).items() if not k.startswith("_"))
    for name, child in names.items():
        yield f".{name}", child


def orm_object_in(value: Any, path: str, seen: dict[int, Any], depth: int = 0) -> str:
    """Return the path to the first ORM object reachable from ``value``, or ``""``.

    ``seen`` maps id → object of everything walked so far (kept alive so ids stay unique);
    a value met again is not walked twice.
    """
    value = _unwrap(value)
    if isinstance(value, ATOMS + OPAQUE) or id(value) in seen:
        return ""
    seen[id(value)] = value
    if isinstance(value, models.Model):
        return f"{path}: a {type(value).__name__} row"
    if isinstance(value, models.QuerySet | BaseManager):
        return f"{path}: a query of {value.model.__name__} rows"
    if depth >= MAX_DEPTH:
        return ""
    for step, child in _children(value):
        found = orm_object_in(child, path + step, seen, depth + 1)
        if found:
            return found
    return ""


@dataclasses.dataclass
class Reached:
    """What ``templates_reached`` saw: the templates rendered and each ORM object found."""

    templates: list[str] = dataclasses.field(default_factory=list)
    found: list[str] = dataclasses.field(default_factory=list)
    seen: dict[int, Any] = dataclasses.field(default_factory=dict)


def context_findings(context: Context | Mapping[str, Any], seen: dict[int, Any]) -> list[str]:
    """Return a line for each context variable from which an ORM object is reachable."""
    flat = context.flatten() if isinstance(context, Context) else dict(context)
    found = []
    for key, value in flat.items():
        where = orm_object_in(value, str(key), seen)
        if where:
            found.append(where)
    return found


@contextmanager
def templates_reached() -> Iterator[Reached]:
    """Check every template context rendered inside the block; yield what was found."""
    reached = Reached()

    def check(sender: Any, template: Any, context: Any, **kwargs: Any) -> None:
        name = getattr(template, "name", None) or "<string>"
        reached.templates.append(name)
        for line in context_findings(context, reached.seen):
            reached.found.append(f"{name}: {line}")

    template_rendered.connect(check, dispatch_uid="reach-check")
    try:
        yield reached
    finally:
        template_rendered.disconnect(dispatch_uid="reach-check")
