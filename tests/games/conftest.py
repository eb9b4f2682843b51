"""Fixtures of the games tests."""

from __future__ import annotations

import pytest

from tests.games.factories import UserFactory


@pytest.fixture
def user_factory() -> type[UserFactory]:
    """The ``UserFactory`` class."""
    return UserFactory
