"""pytest fixtures: a started FakeDiscord with discord.py pointed at it.

Import them from a conftest (tests/conftest.py does) to use ``fake_discord`` in any test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from .client import pointed_at
from .server import FakeDiscord


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fresh fake Discord per test: one guild (``.guild``), a text channel (``.channel``)."""
    async with FakeDiscord() as fake:
        with pointed_at(fake):
            yield fake
        if fake.unknown_routes:
            # Surface missing endpoints even when the test itself passed.
            raise AssertionError(f"the bot called routes the fake does not know: {fake.unknown_routes}")
