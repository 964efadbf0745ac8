"""Reply text: whose turn it is and what they are to do, what just happened, final scores.

Everything is read from the engine (acting players, legal moves, the step's label, the
log); nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.game import BaseGame
from engine.describe import action_words, idle_step, train_name
from engine.legal import move_decider
from engine.program_words import orders_line
from engine.status import status_lines
from storage import SeatRecord

Move = dict[str, Any]
Mention = Callable[[SeatRecord], str]

def phrase(state: BaseGame, move: Move) -> tuple[str, str]:
    """What a move does and the command word that makes it, from the title's command table;
    a step that words its move itself (`phrase` in the move) has the last word."""
    kind = move["type"]
    spec = next((c for c in type(state).COMMANDS if c.covers(move)), None)
    words, word = (spec.phrase, spec.word) if spec is not None else (kind.replace("_", " "), "action")
    return str(move.get("phrase") or words), word


def controller(state: BaseGame, move: Move) -> Any:
    """The id of the player who decides the move (the engine's answer), or None."""
    player = move_decider(state, move)
    return player.id if player is not None else None


def round_title(state: BaseGame) -> str:
    return state.round.title(state)


def _details(state: BaseGame, move: Move) -> str:
    """A few words on the choices, where they fit on a line."""
    kind = move["type"]
    choices = move.get("choices") or []
    if move.get("phrase"):
        return ""  # the step's own words say it all
    if kind == "bid":
        return ": " + ", ".join(f"{c.get('company') or c.get('corporation')} from ${c.get('min', c.get('min_price'))}"
                                for c in choices) if choices else ""
    if kind == "dividend":
        revenue = move.get("revenue")
        kinds = ", ".join(c["kind"] for c in choices)
        return f" of ${revenue} ({kinds})" if revenue is not None else f" ({kinds})"
    if kind == "buy_train" and choices:
        first = choices[0]
        if first.get("from") == "depot":
            return f" (next: {train_name(first)}-train for ${first['price']})"
    return ""


def _look_up(state: BaseGame, move: Move) -> str:
    """Where to read what the private companies up for auction do."""
    auctioned = move["type"] == "bid" and any(c.get("company") in state.companies for c in move.get("choices") or [])
    return "; what each does: /game privates" if auctioned else ""


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + ", or " + parts[-1]


def whose_turn(state: BaseGame, moves: list[Move], seats: list[SeatRecord],
               mention: Mention) -> tuple[str, list[SeatRecord]]:
    """One line per player who must act: "@Alice — T&P: lay track (/lay), or pass (/pass)"."""
    if state.finished:
        return "", []
    by_seat = {str(s.player_id): s for s in seats}
    groups: dict[tuple[str, str], list[Move]] = {}
    for move in moves:
        key = (str(controller(state, move)), str(move["entity"]))
        groups.setdefault(key, []).append(move)
    lines, acting = [], []
    for (player_id, entity), group in groups.items():
        seat = by_seat.get(player_id)
        who = mention(seat) if seat else f"(no president for {entity})"
        if seat and seat not in acting:
            acting.append(seat)
        parts = []
        for move in group:
            words, command = phrase(state, move)
            parts.append(f"{words}{_details(state, move)} (/{command}{_look_up(state, move)})")
        idle = idle_step(state, moves) if [m["type"] for m in group] == ["pass"] else None
        if idle is not None and idle[0] == entity:  # say why there is nothing else to do
            parts = [f"pass (/pass): there is no legal way to {idle[1]} now"]
        head = "" if group[0].get("entity_type", "player") == "player" else f"{entity}: "
        lines.append(f"{who} — {head}{_join(parts)}")
    if not lines:
        return "Nobody can act now.", []
    return "\n".join(lines), acting


def acting_seats(state: BaseGame, seats: list[SeatRecord]) -> list[SeatRecord]:
    by_seat = {str(s.player_id): s for s in seats}
    return [by_seat[str(p.id)] for p in state.acting_players() if str(p.id) in by_seat]


def new_log_lines(before: list[str], after: list[str]) -> list[str]:
    """What the last move added to the log (nothing when the log was rebuilt by an undo)."""
    if len(after) >= len(before) and after[: len(before)] == before:
        return after[len(before):]
    return []


def final_scores(state: BaseGame, seats: list[SeatRecord]) -> str:
    names = {str(s.player_id): s.display_name for s in seats}
    ranked = sorted(state.result().items(), key=lambda item: -item[1])
    lines = [f"{rank}. {names.get(str(key), key)} ${value}" for rank, (key, value) in enumerate(ranked, 1)]
    reason = f" ({state.end_reason.replace('_', ' ')})" if state.end_reason else ""
    return f"The game is over{reason}. Final scores:\n" + "\n".join(lines)


def summary(state: BaseGame, seats: list[SeatRecord]) -> str:
    """Round, phase, bank, and each player's cash: the status line under the turn text, then
    what the engine says players must keep in view (loans, shorts, crises, ...)."""
    names = {str(s.player_id): s.display_name for s in seats}
    cash = ", ".join(f"{names.get(str(p.id), p.name)} ${p.cash}" for p in state.players)
    if state.bank.unlimited:
        bank = ""
    else:
        broken = state.bank.cash < 0 or (state.finished and state.bank.cash <= 0)
        bank = " · bank broken" if broken else f" · bank ${state.bank.cash}"
    lines = [f"{round_title(state)} · phase {state.phase.name}{bank}", f"Cash: {cash}"]
    orders = orders_line(state, names)
    return "\n".join(lines + ([orders] if orders else []) + [line.text for line in status_lines(state)])


def notes_for(state: BaseGame, moves: list[Move]) -> list[str]:
    """The engine's status lines about whoever must act now (the operating company's loans, a
    player's crisis), for the reply to a move."""
    acting = {str(m["entity"]) for m in moves} | {str(controller(state, m)) for m in moves}
    return [line.text for line in status_lines(state) if line.about & acting]


def describe_action(action: dict[str, Any], names: dict[str, str] | None = None,
                    state: BaseGame | None = None) -> str:
    """A short account of one action, for undo messages and the log of the moderator: the
    engine's words (`engine.describe.action_words`), with the seats' names for players."""
    return action_words(action, names, state)
