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
        problems = fake.problems()
        if problems:
            # What Discord would have refused fails the test that caused it, even if the test
            # itself did not look (a reminder that could not be posted, a late answer).
            raise AssertionError("fakediscord: " + "\n".join(problems))
