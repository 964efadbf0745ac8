"""Moments of a game's past as players name them: an action number ("57"), a round ("SR 4",
"OR 3.2", "start of OR 5", "end of OR 3.2"), or "my last move"; each resolved against a game's
`History` to a count of effective actions, the position after them being the moment's.

A round names the position when it begins: "OR 3.2" is the board as Operating Round 3.2
starts, "start of OR 5" the start of its first operating round; "end of OR 3.2" the position
when the next round begins. An action number N is the position after the action with
18xx.games id N (what the site shows as `?action=N`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.errors import GameError
from engine.history import History
from engine.log import effective_actions

# The short names players use for rounds, by the round's name; a round not listed here is
# named by the initials of its name's capitalised words.
SHORT_NAMES = {
    "Stock Round": "SR",
    "Operating Round": "OR",
    "Merger and Conversion Round": "MR",
    "Acquisition Round": "AR",
    "Auction Round": "Auction",
    "Game over": "Game over",
}
LAST_MOVE = "my last move"
EXAMPLES = "an action number such as 57, a round such as SR 4, OR 3.2, start of OR 5 or end of SR 2, or 'my last move'"
_NUMBERED = re.compile(r"^(?P<name>.*?)\s*(?P<number>\d+(?:\.\d+)?)?$")


@dataclass(frozen=True)
class Moment:
    """A resolved moment: the position after the first `count` effective actions of the
    game's history, or, for an action number whose position an undo later took back, after
    `actions` (the effective actions of the log up to that number)."""

    count: int
    label: str  # "start of OR 3.2 (after action 309)"
    actions: tuple[dict[str, Any], ...] | None = None


def actions_upto(actions: list[Any], upto: int) -> list[Any]:
    """The raw log as it stood after the action numbered `upto`: its 18xx.games id (what the
    site shows as `?action=N`), or its position + 1 where it has none. Ids are not
    positions: the site renumbers after undos. Undo and redo inside the kept part still apply."""
    if upto < 0:
        raise GameError(f"an action number is 0 or more, not {upto}")
    kept = []
    for position, action in enumerate(actions):
        ident = action.get("id") if isinstance(action, dict) else None
        if (ident if isinstance(ident, int) else position + 1) > upto:
            break
        kept.append(action)
    return kept


def state_at(history: History, moment: Moment) -> Any:
    """A new copy of the position at `moment` (a `BaseGame`)."""
    if moment.actions is None:
        return history.state_after(moment.count)
    return history.replayed(list(moment.actions))


def short_title(title: str) -> str:
    """"OR 3.2" for "Operating Round 3.2", "SR 4" for "Stock Round 4", "Auction" for the auction."""
    match = _NUMBERED.match(title.strip())
    name, number = (match["name"], match["number"]) if match else (title, None)
    short = SHORT_NAMES.get(name) or "".join(word[0] for word in name.split() if word[:1].isupper()) or name
    return f"{short} {number}" if number else short


def rounds(history: History) -> list[tuple[str, int]]:
    """The game's rounds so far in order, each with the count of actions when it began:
    [("Auction Round", 0), ("Stock Round 1", 74), ...]."""
    found = [(history.start.round, 0)]
    for entry in history.entries:
        title = entry.after.round
        if title != found[-1][0]:
            found.append((title, entry.index + 1))
    return found


def _find_round(history: History, wanted: str) -> tuple[int, int | None, str]:
    """(count at its start, count at the next round's start or None, full title) of the round
    named `wanted` (short or full, any case)."""
    listed = rounds(history)
    key = _normal(wanted)
    for number, (title, count) in enumerate(listed):
        if key in (_normal(title), _normal(short_title(title))):
            following = listed[number + 1][1] if number + 1 < len(listed) else None
            return count, following, title
    # "OR 5" where the title numbers operating rounds "5.1", "5.2": its first.
    for number, (title, count) in enumerate(listed):
        if _normal(short_title(title)).startswith(key + ".") or _normal(title).startswith(key + "."):
            following = listed[number + 1][1] if number + 1 < len(listed) else None
            return count, following, title
    names = ", ".join(short_title(title) for title, _ in listed[-12:])
    raise GameError(f"this game has had no round {wanted.strip()!r}; its rounds so far end with: {names}")


def _normal(text: str) -> str:
    return re.sub(r"\s+", "", text).casefold()


def resolve(history: History, text: str, player: str | None = None) -> Moment:
    """The moment `text` names in this game; `player` (a player key) for "my last move".
    Raises GameError saying what was wrong and what may be named."""
    words = " ".join(str(text).split())
    lowered = words.casefold()
    if not words:
        raise GameError(f"name a moment: {EXAMPLES}")
    if lowered in (LAST_MOVE, "last move", "my move"):
        if player is None:
            raise GameError("'my last move' is for a player of this game")
        index = history.last_move_of(player)
        if index is None:
            raise GameError("you have made no move in this game yet")
        entry = history.entries[index]
        return Moment(index + 1, f"after your last move (action {entry.action_id})")
    if lowered.lstrip("#").isdigit():
        return _after_action(history, int(lowered.lstrip("#")))
    end = lowered.startswith("end of ")
    name = words[7:] if end else words[9:] if lowered.startswith("start of ") else words
    start, following, title = _find_round(history, name)
    if end:
        if following is None:
            raise GameError(f"{short_title(title)} has not ended yet")
        return Moment(following, f"end of {short_title(title)}{_after(history, following)}")
    return Moment(start, f"start of {short_title(title)}{_after(history, start)}")


def _after(history: History, count: int) -> str:
    return f" (after action {history.entries[count - 1].action_id})" if count else ""


def _after_action(history: History, action_id: int) -> Moment:
    """After the action with 18xx.games id `action_id`, as the log stood then (an action an
    undo took back later is still on the board there, as the site shows it)."""
    raw = history.raw_actions
    last = max([int(action["id"]) for action in raw if isinstance(action.get("id"), int)] + [len(raw)])
    if action_id < 0 or action_id > last:
        raise GameError(f"action {action_id} is not in this game: its actions are numbered 1 to {last}")
    kept = effective_actions(actions_upto(raw, action_id))
    label = f"after action {action_id}"
    if history.starts_with(kept):
        return Moment(len(kept), label)
    return Moment(len(kept), f"{label} (since taken back)", tuple(kept))


def suggestions(history: History, typed: str = "", limit: int = 25) -> list[str]:
    """What autocomplete offers for a moment: "my last move", then this game's rounds, the
    latest first, those containing what was typed."""
    key = _normal(typed)
    offered = [LAST_MOVE] + [short_title(title) for title, _ in reversed(rounds(history))]
    return [word for word in dict.fromkeys(offered) if key in _normal(word)][:limit]
