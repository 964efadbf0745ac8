"""The terminal's input: lines read one at a time, Ctrl-C, a byte-order mark, player lists.

Lines are read in a daemon thread, one only when the console asks for it: a line is never read
ahead and then left unhandled, and a session that ends while the thread waits for a line
(Ctrl-C at the prompt) exits at once instead of waiting for one more Enter that it would drop.
Ctrl-C at the prompt ends the session as Ctrl-D does; pressed while a command is being made,
it lets that command finish (its reply is shown) and then ends the session. A line is read up
to a bound: a longer one is skipped to its end and reported by its length (never held whole),
and one with no end in sight (`stationmaster play < /dev/zero`) ends the input.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import TextIO

BOM = "\ufeff"  # a UTF-8 file written by some editors starts with it; it is not part of a command
CHUNK = 64 * 1024  # characters read at a time while skipping an overlong line
ENDLESS = 16 * 1024 * 1024  # characters of one line past which the input is taken as having no end


class Overlong:
    """What was read instead of a line longer than the reader's bound: its ``length`` in
    characters, and whether it went on past ``ENDLESS`` (``endless``: the input ends there)."""

    def __init__(self, length: int, endless: bool) -> None:
        self.length = length
        self.endless = endless


class LineReader:
    """``await next_line()``: the next line of ``source`` ("" at its end), from a daemon thread,
    or an Overlong for a line of more than ``longest`` characters."""

    def __init__(self, source: TextIO, longest: int) -> None:
        self._source = source
        self._longest = longest
        self._wanted = threading.Semaphore(0)
        self._loop = asyncio.get_running_loop()
        self._waiting: asyncio.Future[str | Overlong] | None = None
        self._first = True
        threading.Thread(target=self._read, name="terminal-input", daemon=True).start()

    def _read(self) -> None:
        while True:
            self._wanted.acquire()
            try:
                text = self._bounded_line()
            except (OSError, ValueError):  # the input was closed under us (or is not text)
                text = ""
            self._loop.call_soon_threadsafe(self._deliver, text)
            if not text or isinstance(text, Overlong) and text.endless:
                return

    def _bounded_line(self) -> str | Overlong:
        # One character more than a line may hold, and its newline: enough to tell it is too long.
        text = self._source.readline(self._longest + 2)
        if len(text) <= self._longest + 1 or text.endswith("\n"):
            return text
        length = len(text)
        while length <= ENDLESS:
            more = self._source.readline(CHUNK)
            length += len(more)
            if not more or more.endswith("\n"):
                return Overlong(length - more.endswith("\n"), endless=False)
        return Overlong(length, endless=True)

    def _deliver(self, text: str | Overlong) -> None:
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(text)

    async def next_line(self) -> str | Overlong:
        self._waiting = self._loop.create_future()
        self._wanted.release()
        text = await self._waiting
        if self._first and isinstance(text, str):
            text = text.removeprefix(BOM)
        self._first = False
        return text


class Interrupts:
    """Ctrl-C (SIGINT) noted while the console runs, instead of a KeyboardInterrupt thrown
    into whatever was running."""

    def __init__(self) -> None:
        self.event = asyncio.Event()

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGINT, self.event.set)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals here
            yield
            return
        try:
            yield
        finally:
            loop.remove_signal_handler(signal.SIGINT)

    @property
    def pressed(self) -> bool:
        return self.event.is_set()


async def line_or_interrupt(reader: LineReader, interrupts: Interrupts) -> str | Overlong | None:
    """The next line, or None if Ctrl-C came first."""
    if interrupts.pressed:
        return None
    reading = asyncio.ensure_future(reader.next_line())
    stopping = asyncio.ensure_future(interrupts.event.wait())
    await asyncio.wait((reading, stopping), return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if reading.done():
        return reading.result()
    reading.cancel()
    return None


def player_names(text: str) -> list[str]:
    """``--players "Alice,Bob,Carol"``: each name stripped; an empty entry is refused (ValueError)
    rather than dropped, since the table would then have one player fewer than was typed."""
    names = [name.strip() for name in text.split(",")]
    for number, name in enumerate(names, start=1):
        if not name:
            raise ValueError(f"--players: entry {number} of {len(names)} is empty ({text[:80]!r}); "
                             "give each player's name once, separated by commas")
    return names
