"""While you were away: what happened in a game since a player's last move, in players' words.

Every action the others made since then (tiles, stations, runs, dividends, trains bought and
rusted, shares bought, sold and shorted, loans, mergers, phase changes: the log lines each
action wrote, and the share price moves it caused), grouped by round and by who acted, and the
net change to the player's own cash and holdings. Read from a `History`; nothing is replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.describe import action_words, price_move_words
from engine.history import Entry, Facts, History
from engine.moments import short_title

MORE = "… and {count} more, `/game log`"
# Words for actions the log writes no line for, by type (a pass is told by action_words).
_SILENT = {
    "program_disable": "stops a standing order",
    "message": "writes in the chat",
}


@dataclass(frozen=True)
class Happening:
    """One action another player (or the game for nobody) made while the player was away."""

    index: int  # among the game's effective actions
    action_id: int
    round: str  # the round it was made in ("Operating Round 3.2")
    actor: str  # "SP (Alice)" for a company, "Bob" for a player
    words: tuple[str, ...]  # what it did, without the actor's name in front


@dataclass(frozen=True)
class Digest:
    """What happened since `name`'s last move (action `last_move`; None: since the start)."""

    player: str  # the player's key
    name: str
    last_move: int | None
    happenings: tuple[Happening, ...]
    before: Facts  # after the player's last move
    after: Facts  # now

    @property
    def action_ids(self) -> list[int]:
        return [happening.action_id for happening in self.happenings]

    @property
    def cash_change(self) -> int:
        return self.after.cash[self.player] - self.before.cash[self.player]

    @property
    def changed_for_the_player(self) -> bool:
        """Whether the player's cash, shares or privates changed while they were away."""
        me = self.player
        return bool(self.cash_change) or self.before.holdings.get(me) != self.after.holdings.get(me) \
            or self.before.privates.get(me) != self.after.privates.get(me)

    def summary(self) -> str:
        """"your cash $450 → $520 (+$70); PRR 20% → 40%; P5 sold"."""
        cash_before, cash_after = self.before.cash[self.player], self.after.cash[self.player]
        change = cash_after - cash_before
        parts = [f"your cash ${cash_before} → ${cash_after} ({'+' if change >= 0 else '-'}${abs(change)})"
                 if change else f"your cash stays ${cash_after}"]
        parts += holding_changes(self.before.holdings.get(self.player, {}), self.after.holdings.get(self.player, {}),
                                 self.before.privates.get(self.player, ()), self.after.privates.get(self.player, ()))
        return "; ".join(parts)

    def runs(self) -> list[tuple[str, list[tuple[str, list[Happening]]]]]:
        """(round heading, [(actor, their actions), ...]) in order: a run is the actions one
        actor made in a row within a round."""
        grouped: list[tuple[str, list[tuple[str, list[Happening]]]]] = []
        for happening in self.happenings:
            heading = short_title(happening.round)
            if not grouped or grouped[-1][0] != heading:
                grouped.append((heading, []))
            runs = grouped[-1][1]
            if not runs or runs[-1][0] != happening.actor:
                runs.append((happening.actor, []))
            runs[-1][1].append(happening)
        return grouped

    def headline(self, heading: str = "While you were away") -> str:
        """The first line alone: how many actions since the player's last move, and what they
        did to the player's cash and holdings."""
        since = f"since your last move (action {self.last_move})" if self.last_move else "since the game began"
        if not self.happenings:
            return f"Nothing happened {since}."
        return f"{heading} ({len(self.happenings)} action(s) {since}): {self.summary()}."

    def text(self, limit: int = 1900, heading: str = "While you were away") -> str:
        """The digest as one message of at most `limit` characters: a first line with what
        changed for the player, then the others' actions by round, a line per actor's run;
        what does not fit is counted at the end ("… and 12 more, `/game log`")."""
        if not self.happenings:
            return self.headline(heading)
        total = len(self.happenings)
        out = [self.headline(heading)[:limit]]
        used, shown = len(out[0]), 0
        reserve = len(MORE.format(count=total)) + 1
        for round_name, runs in self.runs():
            for number, (actor, happenings) in enumerate(runs):
                head = [f"— {round_name} —"] if number == 0 else []
                for count in range(len(happenings), 0, -1):  # the whole run, else its first actions
                    lines = [*head, f"• {actor}: {run_words(happenings[:count])}"]
                    size = sum(len(line) + 1 for line in lines)
                    if used + size + (reserve if shown + count < total else 0) <= limit:
                        out += lines
                        used, shown = used + size, shown + count
                        break
                if shown < total and happenings[-1].index >= self.happenings[shown].index:
                    return "\n".join([*out, MORE.format(count=total - shown)])
        return "\n".join(out)


def run_words(happenings: list[Happening]) -> str:
    """"lays tile 57 in F20 (rotation 1); takes a loan of $100 ×2" for one actor's run."""
    words = [word for happening in happenings for word in happening.words]
    return "; ".join(_folded(_passes_dropped(words)))


def since(history: History, player: str, upto: int | None = None) -> Digest:
    """What happened between the player's last move and the position after the first `upto`
    effective actions (all when None)."""
    end = len(history.entries) if upto is None else upto
    last = history.last_move_of(player, before=end)
    first = 0 if last is None else last + 1
    rounds = {entry.after.round for entry in history.entries} | {history.start.round}
    happenings = []
    previous = history.facts_after(first)
    for entry in history.entries[first:end]:
        if entry.is_move:
            happenings.append(Happening(entry.index, entry.action_id, entry.made_in, _actor(history, entry),
                                        tuple(entry_words(history, entry, previous, rounds))))
        previous = entry.after
    return Digest(player, history.names.get(player, player),
                  history.entries[last].action_id if last is not None else None,
                  tuple(happenings), history.facts_after(first), history.facts_after(end))


def _actor(history: History, entry: Entry) -> str:
    """"SP (Alice)" for a company, "Alice" for a player."""
    who = history.names.get(entry.decider or "", "")
    return entry.entity if not who or who == entry.entity else f"{entry.entity} ({who})"


def entry_words(history: History, entry: Entry, previous: Facts, rounds: set[str]) -> list[str]:
    """What one action did, in the log's words without the actor's name in front: its lines
    (round starts and "X operates" left out: the digest groups by them), the share price
    moves it caused, and for an action the log writes no line for, the action in words."""
    words: list[str] = []
    for part in entry.parts:
        lines = [line for line in part.lines if line not in rounds and not _operates(line)]
        if not lines and part is entry.parts[0]:
            kind = str(part.action.get("type"))
            lines = [_SILENT.get(kind) or ("sets a standing order" if kind.startswith("program_")
                                           else action_words(dict(part.action), history.names))]
        words += [_without(line, entry.entity) for line in lines]
    words += price_moves(previous.prices, entry.after.prices)
    return words


def _operates(line: str) -> bool:
    head, _, tail = line.partition(" ")
    return tail == "operates" and bool(head)


def _without(line: str, actor: str) -> str:
    return line[len(actor) + 1:] if line.startswith(actor + " ") else line


def price_moves(before: Mapping[str, int], after: Mapping[str, int]) -> list[str]:
    """"PRR share price $70 → $80" for each company on the market before and after whose
    price moved (in the words a move's reply uses, engine.describe)."""
    return price_move_words(before, after)


def holding_changes(before: Mapping[str, int], after: Mapping[str, int],
                    privates_before: tuple[str, ...] = (), privates_after: tuple[str, ...] = ()) -> list[str]:
    """"PRR 20% → 40%", "NYC 0% → short 20%", "P5 gained", "P5 gone" for what changed."""
    changes = [f"{corp} {_percent(before.get(corp, 0))} → {_percent(after.get(corp, 0))}"
               for corp in dict.fromkeys([*before, *after]) if before.get(corp, 0) != after.get(corp, 0)]
    changes += [f"{company} gone" for company in privates_before if company not in privates_after]
    changes += [f"{company} gained" for company in privates_after if company not in privates_before]
    return changes


def _percent(value: int) -> str:
    return f"short {-value}%" if value < 0 else f"{value}%"


def _passes_dropped(words: list[str]) -> list[str]:
    """A pass among other actions says nothing the others do not (a step left out); alone it
    is the news."""
    kept = [word for word in words if word != "passes"]
    return kept or words[:1]


def _folded(words: list[str]) -> list[str]:
    """Repeated words said once with a count: "takes a loan of $100 ×2"."""
    out: list[tuple[str, int]] = []
    for word in words:
        if out and out[-1][0] == word:
            out[-1] = (word, out[-1][1] + 1)
        else:
            out.append((word, 1))
    return [word if count == 1 else f"{word} ×{count}" for word, count in out]
