"""A game's history: what every move of its log did, kept from one replay.

Coming back to a game asks questions about the past: what happened since a player's last
move (`engine.since`), what the board looked like at an earlier moment (`engine.moments`),
how values, prices and revenues went through the game (`engine.story`). They are all
answered from this record, made by replaying the log once as `load_game` does:

- for every effective action, the log lines it and its auto actions wrote, who decided it,
  the round it was made in, and small facts of the position after it (players' cash,
  holdings, share prices, phase, round), each shared with the previous action's while it did
  not change, so a long game costs little memory;
- copies of the position every `CHECKPOINT_EVERY` actions, so a position of the past is
  rebuilt from the nearest copy rather than from the start.

A history grows with the game (`extend` applies only the new actions) and is rebuilt when an
undo changed what came before. CPU work: a front end runs `replay` and `extend` in a thread.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.core.entities import Company, Corporation, Player
from engine.core.game import BaseGame
from engine.core.operating_round import OperatingRound
from engine.core.step import decider
from engine.errors import GameError
from engine.log import document_options, effective_actions, game_setup, title_class

# A copy of the position costs about 0.2 MB and 13 ms (18USA, late game); one every 200 actions
# keeps a rebuild under 200 actions of replay (about 60 ms).
CHECKPOINT_EVERY = 200

Holdings = Mapping[str, Mapping[str, int]]  # player key -> {company id: percent (negative: short)}


@dataclass(frozen=True)
class Facts:
    """What a front end compares between two moments: the round and phase, and each player's
    cash and holdings, each company's share price and players' values (as scored)."""

    round: str
    phase: str
    cash: Mapping[str, int]  # player key -> cash
    holdings: Holdings
    privates: Mapping[str, tuple[str, ...]]  # player key -> the private companies they hold
    prices: Mapping[str, int]  # company id -> share price, for companies on the market
    # Player key -> value as scored; recorded only where a round ends (and at the start).
    values: Mapping[str, int] | None = None


@dataclass(frozen=True)
class Part:
    """One action applied, the top-level one or one of its auto actions, with its log lines."""

    action: Mapping[str, Any]
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Entry:
    """One effective action of the log and what it did."""

    index: int  # position among the effective actions, from 0
    action_id: int  # the 18xx.games id (the raw log's position + 1 where it has none)
    parts: tuple[Part, ...]
    decider: str | None  # the key of the player who made it (None: nobody, e.g. a message)
    entity: str  # who acted, as the players name it: a player's name, a company's id
    made_in: str  # the round it was made in ("Operating Round 3.2")
    after: Facts
    revenue: tuple[str, int] | None = None  # (company, revenue) where it ran trains

    @property
    def action(self) -> Mapping[str, Any]:
        return self.parts[0].action

    @property
    def kind(self) -> str:
        return str(self.action.get("type"))

    @property
    def is_move(self) -> bool:
        """A move a player made (a chat message is not one)."""
        return self.kind != "message"


class History:
    """The record of a game's effective actions; see the module's docstring."""

    def __init__(self, title: str, players: list[dict[str, Any]], seed: int, options: list[str]) -> None:
        self.title = title
        self.players = players
        self.seed = seed
        self.options = list(options)
        state = title_class(title)(players, seed, options)
        state.importing = True  # stored runs keep their revenue, as load_game replays them
        self._state = state
        self.names: dict[str, str] = {player.key: player.name for player in state.players}
        self.setup_lines: tuple[str, ...] = tuple(state.log)
        self.start: Facts = self._facts(state, None, values=True)
        self.entries: list[Entry] = []
        self._actions: list[dict[str, Any]] = []  # the effective actions recorded, in order
        self.raw_actions: list[dict[str, Any]] = []  # the log last given to `extend`, undos and all
        self._checkpoints: dict[int, BaseGame] = {0: state.snapshot()}  # actions applied -> copy

    # --- building ---------------------------------------------------------------------------
    @classmethod
    def replay(cls, title: str, players: list[dict[str, Any]], seed: int, options: list[str],
               actions: list[dict[str, Any]]) -> History:
        """The history of a log (raw actions, undo and redo included). Raises GameError where
        the log does not replay."""
        history = cls(title, players, seed, options)
        history.extend(actions)
        return history

    @classmethod
    def of_document(cls, data: dict[str, Any], options: list[str] | None = None) -> History:
        """The history of an 18xx.games-shaped document, read as `load_game` reads it."""
        title, players, seed = game_setup(data)
        actions = data.get("actions")
        if not isinstance(actions, list):
            raise GameError("the game log needs a list of actions")
        chosen = options if options is not None else document_options(data)
        return cls.replay(title, players, seed, chosen, [a for a in actions if isinstance(a, dict)])

    def matches(self, actions: list[dict[str, Any]]) -> bool:
        """Whether this history's actions are the start of the log `actions` (raw), so that
        `extend` may add the rest; False after an undo took back something recorded."""
        kept = effective_actions(actions)
        return len(kept) >= len(self._actions) and kept[:len(self._actions)] == self._actions

    def extend(self, actions: list[dict[str, Any]]) -> None:
        """Record the actions of the log `actions` (raw) that follow those recorded. Raises
        GameError when the recorded ones are not its start (build a new history then)."""
        kept = effective_actions(actions)
        if kept[:len(self._actions)] != self._actions:
            raise GameError("the log no longer starts with the recorded actions; replay it again")
        self.raw_actions = actions
        positions = {id(action): position for position, action in enumerate(actions)}
        for action in kept[len(self._actions):]:
            position = positions.get(id(action), len(actions))
            self._record(action, position)

    def _record(self, action: dict[str, Any], position: int) -> None:
        state = self._state
        previous = self.entries[-1].after if self.entries else self.start
        made_in = state.round_title()
        who, entity = self._who(state, action)
        parts = []
        for part in (action, *(action.get("auto_actions") or ())):
            before = len(state.log)
            try:
                state._apply_one({key: value for key, value in part.items() if key != "auto_actions"})
            except GameError as error:
                raise GameError(f"action {action.get('id', position + 1)} ({action.get('type')}) "
                                f"does not replay: {error}") from error
            parts.append(Part(part, tuple(state.log[before:])))
        state.raw_actions.append(action)
        ident = action.get("id")
        after = self._facts(state, previous, values=state.round_title() != made_in)
        self.entries.append(Entry(len(self.entries), ident if isinstance(ident, int) else position + 1,
                                  tuple(parts), who, entity, made_in, after, _revenue(state, action)))
        self._actions.append(action)
        if len(self._actions) % CHECKPOINT_EVERY == 0:
            self._checkpoints[len(self._actions)] = state.snapshot()

    def _who(self, state: BaseGame, action: Mapping[str, Any]) -> tuple[str | None, str]:
        """The key of the player who decides the action now, and the actor's name."""
        if action.get("type") == "message":
            return None, self.names.get(str(action.get("entity")), str(action.get("entity")))
        try:
            holder = state.lookup(str(action.get("entity_type", "player")), action.get("entity"))
        except GameError:
            return None, str(action.get("entity"))
        player = decider(state, holder)
        name = holder.name if isinstance(holder, Player) else holder.key
        if isinstance(holder, Company) and isinstance(holder.owner, Corporation):
            name = holder.owner.id  # a private a company owns acts for that company
        return (player.key if player is not None else None), name

    def _facts(self, state: BaseGame, previous: Facts | None, values: bool) -> Facts:
        """The facts after the latest action, sharing the previous ones' parts that did not change."""
        cash: Mapping[str, int] = {player.key: player.cash for player in state.players}
        holdings: Holdings = _holdings(state)
        privates: Mapping[str, tuple[str, ...]] = {player.key: tuple(company.id for company in state.companies.values()
                                      if company.owner is player and not company.closed)
                    for player in state.players}
        prices: Mapping[str, int] = {corp.id: state.share_price(corp) for corp in state.corporations.values()
                  if corp.id in state.market.position}
        if previous is not None:
            cash = previous.cash if cash == previous.cash else cash
            holdings = previous.holdings if holdings == previous.holdings else holdings
            privates = previous.privates if privates == previous.privates else privates
            prices = previous.prices if prices == previous.prices else prices
        scored = {player.key: state.player_value(player) for player in state.players} if values else None
        return Facts(state.round_title(), state.phase.name, cash, holdings, privates, prices, scored)

    # --- reading ----------------------------------------------------------------------------
    @property
    def state(self) -> BaseGame:
        """The position after every recorded action (read it, do not change it)."""
        return self._state

    def facts_after(self, count: int) -> Facts:
        """The facts after the first `count` effective actions (0: at the start)."""
        return self.entries[count - 1].after if count > 0 else self.start

    def last_move_of(self, player: str, before: int | None = None) -> int | None:
        """The index of the player's latest move among the first `before` actions (all when
        None), or None when they have made none."""
        end = len(self.entries) if before is None else min(before, len(self.entries))
        for index in range(end - 1, -1, -1):
            entry = self.entries[index]
            if entry.decider == player and entry.is_move:
                return index
        return None

    def state_after(self, count: int) -> BaseGame:
        """A new copy of the position after the first `count` effective actions, rebuilt from
        the nearest copy kept before it (the caller may change it)."""
        if not 0 <= count <= len(self._actions):
            raise GameError(f"the game has {len(self._actions)} actions, not {count}")
        start = max(kept for kept in self._checkpoints if kept <= count)
        state = self._checkpoints[start].snapshot()
        state.importing = True
        for action in self._actions[start:count]:
            state.apply(action)
        state.importing = False
        return state

    def starts_with(self, actions: list[dict[str, Any]]) -> bool:
        """Whether `actions` (effective ones) are the first of those recorded."""
        return len(actions) <= len(self._actions) and self._actions[:len(actions)] == actions

    def replayed(self, actions: list[dict[str, Any]]) -> BaseGame:
        """A new position after `actions` (effective ones) from the start of this game."""
        state = self._checkpoints[0].snapshot()
        state.importing = True
        for action in actions:
            state.apply(action)
        state.importing = False
        return state

    def company_colors(self) -> dict[str, str]:
        """Each company's colour on the map, by id."""
        return {corp.id: corp.color for corp in self._state.corporations.values()}


def _holdings(state: BaseGame) -> dict[str, dict[str, int]]:
    """Each player's percent of every company they hold (negative for a short)."""
    held: dict[str, dict[str, int]] = {player.key: {} for player in state.players}
    for corp in state.corporations.values():
        for share in corp.shares:
            owner = share.owner
            if isinstance(owner, Player):
                mine = held[owner.key]
                mine[corp.id] = mine.get(corp.id, 0) + share.percent
    return {key: {cid: percent for cid, percent in mine.items() if percent} for key, mine in held.items()}


def _revenue(state: BaseGame, action: Mapping[str, Any]) -> tuple[str, int] | None:
    """(company, revenue) when `action` ran a company's trains."""
    if action.get("type") != "run_routes":
        return None
    company = str(action.get("entity"))
    # The run is over when the action returns: the round's turn still holds it unless the
    # company's turn ended with it; the runs on the map say the same.
    rnd = state.round
    if isinstance(rnd, OperatingRound) and rnd.turn is not None and rnd.turn.corporation.id == company \
            and rnd.turn.revenue is not None:
        return company, rnd.turn.revenue
    return company, sum(getattr(run, "revenue", 0) for run in state.last_runs)
