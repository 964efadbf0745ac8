"""InteractionHandle: what a test holds after acting as a user, to await the bot's answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .deadlines import describe
from .models import CallbackRecord, InteractionRecord, StoredMessage

if TYPE_CHECKING:
    from .server import FakeDiscord

CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
T = TypeVar("T")


class InteractionFailed(AssertionError):
    """The user saw "The application did not respond" instead of the bot's answer."""


class InteractionHandle:
    """Awaitable views on one interaction's record; every wait raises FakeDiscordTimeout."""

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self.fake = fake
        self.record = record

    @property
    def id(self) -> int:
        return self.record.id

    async def _wait(self, found: Callable[[], T | None], timeout: float, what: str) -> T:
        """Wait for ``found()``; fails at once if the user saw no answer (3 s passed, or the
        bot's first answer was refused)."""

        def answer_or_failure() -> T | None:
            if self.record.failure is not None:
                raise InteractionFailed(f"{describe(self.record)}: {self.record.failure}\n{self.fake.describe()}")
            return found()

        return await self.fake.wait_for(answer_or_failure, timeout=timeout, what=what)

    async def wait_response(self, timeout: float = 5.0) -> CallbackRecord:
        """The initial callback (any type), which Discord needs within 3 s."""
        return await self._wait(lambda: self.record.callback, timeout, f"a callback to interaction {self.id}")

    async def wait_message(self, timeout: float = 5.0) -> StoredMessage:
        """The message the user sees as the answer, once it is no longer "thinking".

        Type 4/7: the callback's message. Type 5 (defer): the original once edited or replaced
        by the first follow-up. Type 6: the first follow-up or edit of the clicked message.
        """

        def answer() -> StoredMessage | None:
            rec = self.record
            cb = rec.callback
            if cb is None:
                return None
            if cb.type in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
                return cb.message
            if cb.type == DEFERRED_CHANNEL_MESSAGE:
                if rec.original is not None and not rec.original.loading:
                    return rec.original
                return None
            if cb.type == DEFERRED_UPDATE:
                if rec.followups:
                    return rec.followups[0]
                if rec.edits and rec.original is not None:
                    return rec.original
            return None

        return await self._wait(answer, timeout, f"an answer message to interaction {self.id}")

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[StoredMessage]:
        def enough() -> list[StoredMessage] | None:
            return list(self.record.followups) if len(self.record.followups) >= count else None

        return await self._wait(enough, timeout, f"{count} follow-up(s) to interaction {self.id}")

    async def wait_edits(self, count: int = 1, timeout: float = 5.0) -> list[dict[str, Any]]:
        def enough() -> list[dict[str, Any]] | None:
            return list(self.record.edits) if len(self.record.edits) >= count else None

        return await self._wait(enough, timeout, f"{count} edit(s) of interaction {self.id}")

    async def wait_choices(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Autocomplete choices ({"name", "value"} dicts), possibly empty."""
        cb = await self.wait_response(timeout)
        if cb.type != AUTOCOMPLETE_RESULT:
            raise AssertionError(f"expected an autocomplete result (8), got callback type {cb.type}")
        return list(cb.data.get("choices", []))

    async def wait_modal(self, timeout: float = 5.0) -> dict[str, Any]:
        cb = await self.wait_response(timeout)
        if cb.type != MODAL:
            raise AssertionError(f"expected a modal (9), got callback type {cb.type}")
        return cb.data

    def __repr__(self) -> str:
        cb = self.record.callback
        return f"<InteractionHandle id={self.id} type={self.record.type} callback={cb.type if cb else None}>"
