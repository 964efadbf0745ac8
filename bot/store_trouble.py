"""When the store cannot serve a command: what players read, and how work nobody waits for
(reminders, the change feed) logs it.

Three kinds of trouble are the store's, not the command's: the database cannot be reached
(its server stopped or restarting: ``StoreUnavailable``), another process has held the game
too long (frozen while holding it: ``GameBusy``), and a store that is damaged or may only be
read (``StoreUnusable``). Each is answered with its own words, never as a failure inside the
bot, and none of them ends a front door.
"""

from __future__ import annotations

import logging

from storage import GameBusy, StoreUnavailable, StoreUnusable

UNAVAILABLE = "The game store is unavailable; try again in a moment."
STORE_TROUBLE = (StoreUnavailable, GameBusy, StoreUnusable)


def trouble_text(error: BaseException, *, detail: bool = False) -> str | None:
    """The reply to a command the store could not serve, or None if ``error`` is not such
    trouble. ``detail``: add the store's own words (the terminal; on Discord they stay in the
    operator's log, since they name the database's host)."""
    if isinstance(error, StoreUnavailable):
        if error.in_doubt:
            text = ("The game store became unavailable while your move was being stored, so it may or may "
                    "not have been made: once the store is back, /game status shows which. Look before "
                    "sending it again.")
        else:
            text = f"{UNAVAILABLE} Nothing was changed."
        return f"{text} ({error.detail})" if detail else text
    if isinstance(error, GameBusy):
        game = f"Game #{error.game_id}" if error.game_id is not None else "The game"
        return (f"{game} is busy: another process has held it for more than {error.seconds:g} s (it may be "
                "stuck), so your command was not made. Try again in a moment.")
    if isinstance(error, StoreUnusable):
        return f"The game store cannot be used for this: {error}. Nothing was changed."
    return None


def log_failure(log: logging.Logger, what: str, error: BaseException) -> None:
    """Log background work that failed: store trouble as one line (it passes by itself),
    anything else with its traceback."""
    if isinstance(error, STORE_TROUBLE):
        log.warning("%s: %s", what, error)
    else:
        log.error("%s", what, exc_info=error)
