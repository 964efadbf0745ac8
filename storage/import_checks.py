"""What an imported log may carry besides the game itself, checked before it is stored.

Stationmaster keeps a log's title, players, seed, rule options and actions. Of the rest:

- the site's own bookkeeping at the top of a document (``turn``, ``round``, ``result``, ...) is
  not kept; a field the site does not write there, or one of its fields with a value it could
  not have written (a negative turn, a text of a megabyte), is left out *with a note*, so an
  absurd value is never taken silently;
- an action's fields the engine does not read and the site does not write are left out of the
  stored action, with a note saying which;
- a time (``created_at``) in an action is stored, so one that is not whole seconds since 1970
  is refused, as is a seed that is text but not a number.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from storage.errors import ImportRefused
from untrusted.quote import cut

LATEST_TIME = 253_402_300_799  # 9999-12-31 23:59:59 UTC, in seconds since 1970
SHORT = 1_000  # characters: longer than any name, description or round the site writes


def _time(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= LATEST_TIME)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100_000


def _text(value: Any) -> bool:
    return value is None or (isinstance(value, str) and len(value) <= SHORT)


def _id(value: Any) -> bool:
    return _text(value) or (isinstance(value, int) and not isinstance(value, bool))


# The top-level fields 18xx.games writes in a game's JSON, and what their values look like there.
SITE_FIELDS: dict[str, Callable[[Any], bool]] = {
    "id": _id, "description": _text, "user": lambda v: v is None or isinstance(v, dict), "status": _text,
    "max_players": _count, "min_players": _count, "turn": _count, "round": _text, "game_end_reason": _text,
    "acting": lambda v: isinstance(v, list), "result": lambda v: v is None or isinstance(v, dict),
    "loaded": lambda v: isinstance(v, bool), "user_settings": lambda v: v is None or isinstance(v, dict),
    "created_at": _time, "updated_at": _time, "finished_at": _time,
}
KEPT_FIELDS = frozenset({"title", "players", "settings", "actions", "stationmaster"})
SETTINGS_KEPT = frozenset({"seed", "optional_rules"})
SITE_SETTINGS = {"unlisted": lambda v: isinstance(v, bool), "auto_routing": lambda v: isinstance(v, bool),
                 "is_async": lambda v: isinstance(v, bool),
                 "player_order": lambda v: v is None or isinstance(v, str | list),
                 "seating": lambda v: v is None or isinstance(v, str | list)}


def _shown(value: Any) -> str:
    return cut(repr(value), 40)


def check_seed(document: dict[str, Any]) -> None:
    """A seed written as text must be a number: ``"abc"`` would otherwise be replaced silently."""
    seed = (document.get("settings") or {}).get("seed")
    if isinstance(seed, str) and seed.strip() and not re.fullmatch(r"-?[0-9]{1,19}", seed.strip()):
        raise ImportRefused(f"'settings.seed' must be a whole number (or its digits as text), not {_shown(seed)}")


def check_action_times(document: dict[str, Any]) -> None:
    for position, action in enumerate(document.get("actions") or [], start=1):
        if "created_at" in action and not _time(action["created_at"]):
            raise ImportRefused(f"action {position} (id {_shown(action.get('id'))}) has created_at "
                                f"{_shown(action['created_at'])}; a time is whole seconds since 1970, "
                                f"from 0 to {LATEST_TIME}")


def left_out(document: dict[str, Any], known_action_fields: frozenset[str]) -> list[str]:
    """Take out of ``document`` what no part of Stationmaster reads and 18xx.games would not have
    written; the notes say what was left out."""
    notes = []
    odd = [key for key, value in document.items()
           if key not in KEPT_FIELDS and not SITE_FIELDS.get(key, lambda _: False)(value)]
    for key in odd:
        what = ("not a field 18xx.games writes" if key not in SITE_FIELDS
                else f"{_shown(document[key])} is not a value 18xx.games writes there")
        notes.append(f"{cut(key, 40)} ({what})")
        del document[key]
    settings = document.get("settings")
    if isinstance(settings, dict):
        for key in [k for k, v in settings.items()
                    if k not in SETTINGS_KEPT and not SITE_SETTINGS.get(k, lambda _: False)(v)]:
            notes.append(f"settings.{cut(key, 40)} ({_shown(settings[key])})")
            del settings[key]
    fields: dict[str, list[int]] = {}
    for position, action in enumerate(document.get("actions") or [], start=1):
        for key in [k for k in action if k not in known_action_fields]:
            fields.setdefault(key, []).append(position)
            del action[key]
    for key, positions in list(fields.items())[:10]:
        where = ", ".join(str(p) for p in positions[:5])
        where += f" and {len(positions) - 5} more" if len(positions) > 5 else ""
        notes.append(f"the field {cut(key, 40)!r} of action{'s' if len(positions) > 1 else ''} {where} "
                     "(the engine does not read it)")
    if len(fields) > 10:
        notes.append(f"{len(fields) - 10} more unknown action fields")
    return notes


def notes_text(notes: list[str]) -> str:
    """One sentence for the importer."""
    return "Left out, as nothing in Stationmaster reads them: " + "; ".join(notes) + "." if notes else ""
