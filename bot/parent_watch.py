"""Worker processes that end when the process that started them ends.

The optimizer's and the pictures' workers are ``concurrent.futures`` pools started by
multiprocessing's spawn. A worker waits for work on a queue whose write end it holds itself, so
it never sees the queue close: a moderator killed (SIGKILL, or SIGTERM and SIGHUP, after which
Python cleans nothing up) would leave its workers waiting for ever, and multiprocessing's
resource tracker with them (the tracker ends once every process holding its pipe has).

So each worker watches its parent from a thread of its own: a parent that dies leaves its
children to init (or to a subreaper), which changes their parent's pid, and the worker ends at
once. The watch is the pool's initializer, in this small module, so that it starts before the
worker imports the engine or the renderer (seconds on a busy machine). Polling ``getppid`` is used rather than Linux's parent-death signal, which fires when the
*thread* that started the worker ends: a pool started from a thread that then finished (a
command line run in a thread, a test) would lose its workers while its process lives on.
"""

from __future__ import annotations

import importlib
import os
import threading
import time
from typing import Any

POLL_SECONDS = 0.25


def end_with_parent(parent_pid: int) -> None:
    """Called first in a worker process: end it (with no cleanup, as its parent had none) as
    soon as ``parent_pid`` is no longer its parent, including if it already is not."""

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(POLL_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="stationmaster-parent-watch", daemon=True).start()


def start_worker(parent_pid: int, prepare: str = "", *args: Any) -> None:
    """A worker pool's initializer: watch the parent first, then run ``prepare``
    ("module:function", imported only now) with ``args``."""
    end_with_parent(parent_pid)
    if prepare:
        module, name = prepare.split(":")
        getattr(importlib.import_module(module), name)(*args)
