"""The titles the engine plays, as front ends list them: names, player counts, and the action
types each title's rounds take (which its command table must cover).

Front ends offer titles from here rather than naming any: a title registered in
`engine/titles/__init__.py` appears in `/game new`, `stationmaster play` and imports as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache

from engine.core.actions import ACTION_TYPES, META_TYPES
from engine.core.game import BaseGame
from engine.core.step import INFORMATIONAL
from engine.titles import TITLE_CLASSES


@dataclass(frozen=True)
class TitleInfo:
    """A title the engine plays, with its player counts."""

    name: str
    min_players: int
    max_players: int

    @property
    def label(self) -> str:
        """"18USA (2-7 players)"."""
        return f"{self.name} ({self.min_players}-{self.max_players} players)"

    def players_problem(self, count: int) -> str | None:
        if self.min_players <= count <= self.max_players:
            return None
        return f"{self.name} is for {self.min_players} to {self.max_players} players, not {count}"


def _info(cls: type[BaseGame]) -> TitleInfo:
    # The title's data is read through a bare instance: `title_data` reads files, not the position.
    low, high = cls.__new__(cls).title_data()["entities"]["player_range"]
    return TitleInfo(cls.TITLE, int(low), int(high))


@cache
def title_infos() -> tuple[TitleInfo, ...]:
    """Every title, in the order the engine registers them (the first is the default)."""
    return tuple(_info(cls) for cls in TITLE_CLASSES.values())


def title_info(name: str) -> TitleInfo | None:
    return next((info for info in title_infos() if info.name == name), None)


def default_title() -> str:
    return title_infos()[0].name


@cache
def declared_actions(name: str) -> frozenset[str]:
    """The action types a title's rounds and interrupting steps process (meta types aside): what
    players must be able to send it, so what its command table must cover."""
    cls = TITLE_CLASSES[name]
    info = _info(cls)
    game = cls([{"id": n, "name": f"Player {n}"} for n in range(1, info.min_players + 1)], 0)
    steps = [step for spec in game.round_specs().values() for step in spec.steps]
    steps += list(game.interrupt_steps())
    return frozenset(kind for step in steps for kind in step.handlers() if kind not in META_TYPES)


# Fields of an 18xx.games action the engine never reads but the site writes and a stored log
# keeps: its bookkeeping (who, when, which number), the chain of programmed moves, and figures
# the site computes itself (a run's extra revenue, 18USA's subsidy).
SITE_ACTION_FIELDS = frozenset({"id", "created_at", "user", "original_id", "auto_actions", "extra_revenue",
                                "subsidy"})


@cache
def action_fields() -> frozenset[str]:
    """The top-level fields of an 18xx.games action that the engine reads: those of every action
    type the engine's titles take (their rounds register them), and the log's own."""
    for info in title_infos():
        declared_actions(info.name)
    return frozenset({"type", "entity", "entity_type", "action_id", "message"} | {
        item.name for cls in ACTION_TYPES.values() for item in fields(cls) if item.name != "raw"})


def known_action_fields() -> frozenset[str]:
    """Every field a stored action may carry and mean something: what the engine reads, what the
    site writes beside it, and the words a legal move's choice carries (an attachment's label)."""
    return action_fields() | SITE_ACTION_FIELDS | INFORMATIONAL
