"""Files named by a user, read up to a limit and never further.

A path may name a folder, a device that never ends (``/dev/zero``), a pipe, or a file of
gigabytes. :func:`read_limited` reads at most ``limit + 1`` bytes, so one byte past the limit
is enough to refuse, whatever the file claims to be; a regular file's size is checked first, so
a huge one is refused without being read at all.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from untrusted.json_text import UnsafeJSON, loads
from untrusted.quote import cut

MAX_LOG_BYTES = 4 * 1024 * 1024  # a game log: an 18USA game of 2,000 actions is well under 1 MB
MIN_LIMIT = 1000  # a log this small holds a few actions at most
MAX_LIMIT = 64 * 1024 * 1024  # a log of 5,000 actions is about 2 MB; more is held in memory at once
PATH_QUOTE = 300  # a path is quoted whole unless it is absurd (a real one is at most 4,096 bytes)


class FileRefused(ValueError):
    """The file cannot be read or is over its limit; the message names it and says why."""


def read_limited(path: str | os.PathLike[str], limit: int) -> bytes:
    """The file's bytes, or FileRefused if it is not a readable file or holds more than ``limit``."""
    shown = cut(os.fspath(path), PATH_QUOTE)
    try:
        info = os.stat(path)
    except OSError as error:
        raise FileRefused(f"cannot read {shown}: {error.strerror or error}") from None
    if stat.S_ISDIR(info.st_mode):
        raise FileRefused(f"{shown} is a folder; name a file")
    if stat.S_ISREG(info.st_mode) and info.st_size > limit:
        raise FileRefused(f"{shown} is {info.st_size} bytes; the limit is {limit} bytes")
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)  # one byte past the limit is enough to refuse
    except OSError as error:
        raise FileRefused(f"cannot read {shown}: {error.strerror or error}") from None
    if len(data) > limit:
        raise FileRefused(f"{shown} holds more than the limit of {limit} bytes")
    return data


def read_json_file(path: str | os.PathLike[str], limit: int) -> object:
    """A JSON file read with :func:`read_limited` and parsed by :func:`untrusted.json_text.loads`."""
    data = read_limited(path, limit)
    try:
        return loads(data)
    except UnsafeJSON as error:
        raise FileRefused(f"{cut(os.fspath(path), PATH_QUOTE)}: {error}") from None


def limit_problem(limit: int) -> str | None:
    """Why ``limit`` cannot be a file limit (a command line's --max-bytes), or None."""
    if not MIN_LIMIT <= limit <= MAX_LIMIT:
        return f"must be from {MIN_LIMIT} to {MAX_LIMIT} bytes, not {limit}"
    return None


def folder_problem(path: str | os.PathLike[str]) -> str | None:
    """Why files cannot be written into the folder ``path``, or None: asked before any work whose
    results would go there, not after the first one. Tried by creating it and a file in it; what
    the trial created is removed again (the writer creates the folder when it has something to
    write), so a command refused later leaves no empty folder behind."""
    shown = cut(os.fspath(path), PATH_QUOTE)
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        return f"{shown} is a file, not a folder"
    missing = [folder, *folder.parents]
    missing = missing[:next((n for n, part in enumerate(missing) if part.exists()), len(missing))]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"cannot create the folder {shown}: {error.strerror or error}"
    import tempfile  # here: it loads shutil and random, which reading a log never needs

    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        return f"cannot write in the folder {shown}: {error.strerror or error}"
    finally:
        for created in missing:  # the deepest first
            with contextlib.suppress(OSError):
                created.rmdir()
    return None
