"""Standing orders at the table: `/auto` shows yours; `/auto pass`, `/auto buy`, `/auto mergers`
set one (replacing any other); `/auto off` switches it off. Usable at any time, also out of turn.

The engine holds the orders and makes their moves (engine/core/programs.py); this part of the
Moderator turns the words into the 18xx.games action, says why an order cannot be set, and
tells an order's owner privately when it ends (`order_whispers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.away import away_now, when, zone_of
from bot.errors import CommandError
from bot.games import Games
from bot.model import Actor, Command, Reply, Whisper
from bot.outcome import Commit, Outcome
from bot.sessions import Session
from bot.vocabulary import SOURCE_WORDS
from engine.core.actions import parse_action
from engine.core.entities import Player
from engine.core.game import BaseGame
from engine.core.programs import (
    BUY_SHARES,
    DISABLE,
    DISABLE_OTHERS,
    FLOAT,
    MERGER_PASS,
    SHARE_PASS,
    USER,
    Notice,
    ProgramAction,
    program_from,
)
from engine.core.stock_round import StockRound
from engine.program_words import notice_words, order_words
from storage import SeatRecord

ROUND_KEYS = {"MR": "MR", "AR": "AR", "merger": "MR", "acquisition": "AR"}


class StandingOrders:
    def __init__(self, games: Games, commit: Commit) -> None:
        self.games = games
        self.commit = commit

    async def show(self, game_id: int, actor: Actor) -> Reply:
        """Your standing order (for you alone), and who else has one."""
        session, seat, refusal = await self.games.seated(game_id, actor)
        if refusal is not None:
            return refusal.reply
        assert session is not None and session.game is not None and seat is not None
        state = session.game.state
        program = state.programs.of(str(seat.player_id))
        if program is None:
            words = ", ".join(f"/auto {word}" for word in offered_words(state))
            mine = f"You have no standing order. Set one with {words}."
        else:
            mine = f"Your standing order: {order_words(program)}. Switch it off with /auto off."
        others = [s.display_name for s in session.seats
                  if s is not seat and state.programs.of(str(s.player_id)) is not None]
        lines = [mine] + ([f"Standing orders are also set for: {', '.join(others)}."] if others else [])
        until = away_now(session, self.games.now()).get(str(seat.player_id))
        if until is not None:
            lines.append(f"You are away until {when(until, zone_of(session))} (/auto back to end it).")
        return Reply("\n".join(lines), private=True, game_id=game_id)

    async def companies(self, game_id: int, typed: str) -> list[tuple[str, str]]:
        """The companies a buy order may name (those started), for autocomplete: read-only."""
        session = await self.games.sessions.get(game_id)
        if session.game is None:
            return []
        return [(corp.id, corp.id) for corp in session.game.state.corporations.values()
                if corp.ipoed and not corp.closed and typed.strip().upper() in corp.id.upper()][:25]

    async def order(self, game_id: int, actor: Actor, command: Command) -> Outcome:
        """Set, replace or switch off the actor's standing order."""
        async with self.games.sessions.lock(game_id):
            session, seat, refusal = await self.games.seated(game_id, actor)
            if refusal is not None:
                return refusal
            assert session is not None and session.game is not None and seat is not None
            state = session.game.state
            try:
                action = order_action(state, seat.player_id, command)
            except CommandError as error:
                return Outcome(Reply.error(f"{error}.", game_id))
            return await self.commit(session, actor, action, note=order_note(state, seat, action))


def offered_words(state: BaseGame) -> list[str]:
    """The /auto words for the order types the game's title offers."""
    words = {SHARE_PASS: "pass", BUY_SHARES: "buy", MERGER_PASS: "mergers"}
    return [words[kind] for kind in type(state).PROGRAM_RULES.offered if kind in words]


def order_action(state: BaseGame, player_id: Any, command: Command) -> dict[str, Any]:
    """The 18xx.games action for an /auto command, or CommandError saying why not."""
    base: dict[str, Any] = {"entity": player_id, "entity_type": "player"}
    word = command.name.removeprefix("auto ").strip()
    player = state.player(player_id)
    if word == "pass":
        return {"type": SHARE_PASS, **base, "unconditional": bool(command.get("unconditional", False)),
                "indefinite": bool(command.get("indefinite", False))}
    if word == "buy":
        return {"type": BUY_SHARES, **base, **buy_fields(state, player, command)}
    if word == "mergers":
        return {"type": MERGER_PASS, **base, **merger_fields(state, player, command)}
    if word == "off":
        program = state.programs.of(player.key)
        if program is None:
            raise CommandError("You have no standing order to switch off")
        return {"type": DISABLE, **base, "reason": USER, "original_type": program.kind}
    raise CommandError(f"/auto {word} is not known; the words are /auto, /auto "
                       + ", /auto ".join([*offered_words(state), "off"]))


def buy_fields(state: BaseGame, player: Player, command: Command) -> dict[str, Any]:
    name = str(command.get("corporation", "")).strip().upper()
    corporation = next((c for c in state.corporations.values() if c.id.upper() == name), None)
    if corporation is None:
        raise CommandError(f"there is no company {name!r}; companies: {', '.join(state.corporations)}")
    if not corporation.ipoed:
        raise CommandError(f"{corporation.id} has not been started: a standing order buys shares of a started company")
    until_text = str(command.get("until", "")).strip().lower()
    from_market = SOURCE_WORDS.get(str(command.get("from", "treasury")).strip().lower()) == "pool"
    if until_text == FLOAT:
        if corporation.floated:
            raise CommandError(f"{corporation.id} has already floated; give a number of shares instead (until:3)")
        until: str | int = FLOAT
    elif until_text.isdigit() and int(until_text) > 0:
        until = int(until_text)
        held = corporation.percent_owned_by(player) / corporation.share_percent
        if held >= until:
            raise CommandError(f"you already hold {held:g} shares of {corporation.id}; ask for more than that")
    else:
        raise CommandError(f"until: is float (until the company floats) or the number of shares to hold, "
                           f"such as until:3, not {until_text!r}")
    source = state.pool if from_market else corporation
    if not any(share.owner is source and not share.president and share.percent > 0 for share in corporation.shares):
        where = "in the market" if from_market else "in its treasury"
        raise CommandError(f"{corporation.id} has no share {where} to buy")
    return {"corporation": corporation.id, "until_condition": until, "from_market": from_market,
            "auto_pass_after": bool(command.get("then_pass", False))}


def merger_fields(state: BaseGame, player: Player, command: Command) -> dict[str, Any]:
    rules = type(state).PROGRAM_RULES
    if MERGER_PASS not in rules.offered:
        raise CommandError(f"{type(state).TITLE} has no merger rounds")
    if isinstance(state.round, StockRound):
        raise CommandError("a merger pass cannot be set in a stock round (it would end with the round); set it "
                           "in the operating round before the merger round, or in the merger round itself")
    eligible = [c.id for c in rules.merger_companies(state, player)]
    if not eligible:
        raise CommandError("none of your companies can take part in a merger or acquisition round now")
    rounds = _listed(str(command.get("rounds", "MR,AR")))
    keys = [ROUND_KEYS.get(r, ROUND_KEYS.get(r.lower(), "")) for r in rounds]
    if not keys or "" in keys:
        raise CommandError(f"rounds: is MR (merger round), AR (acquisition round) or MR,AR, not {command.get('rounds')!r}")
    named = _listed(str(command.get("companies", ""))) or eligible
    chosen = [next((c for c in eligible if c.upper() == n.upper()), "") for n in named]
    if "" in chosen:
        wrong = [n for n, c in zip(named, chosen, strict=True) if not c]
        raise CommandError(f"{', '.join(wrong)}: not among your companies that can take part now "
                           f"({', '.join(eligible)})")
    return {"corporations_by_round": {key: chosen for key in dict.fromkeys(keys)},
            "options": [DISABLE_OTHERS] if command.get("unless_others_act", True) else []}


def _listed(text: str) -> list[str]:
    return [part.strip() for part in text.replace(" ", ",").split(",") if part.strip()]


def order_note(state: BaseGame, seat: SeatRecord, action: dict[str, Any]) -> str:
    """The public line for an /auto command."""
    if action["type"] == DISABLE:
        return f"{seat.display_name} switches off their standing order."
    typed = parse_action(action)
    assert isinstance(typed, ProgramAction)
    return f"{seat.display_name} sets a standing order: {order_words(program_from(typed, 0))}."


def order_whispers(session: Session, notices: Sequence[Notice]) -> tuple[Whisper, ...]:
    """What each owner of an order that ended is told privately: why, in players' words. An order
    switched off by its owner is told in the reply, and one that ends with its round (as it said
    it would) is not news."""
    seats = {str(seat.player_id): seat for seat in session.seats}
    told = []
    for notice in notices:
        seat = seats.get(notice.owner)
        if seat is None or notice.event != "disabled" or notice.reason == USER:
            continue
        told.append(Whisper(seat.discord_user_id, seat.display_name, notice_words(notice)))
    return tuple(told)
