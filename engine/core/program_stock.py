"""The stock round's programs as 18xx.games runs them: share pass and buy shares, and the check
that stops a conditional program when another player's dealings may affect its owner.

The reason texts are the site's, word for word: the site writes them into its logs
(`program_disable` actions), and a log it recomputes must carry the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.entities import Corporation, Holder, Player, Share
from engine.core.programs import FLOAT, BuyShares, Dealing, Program, SharePass
from engine.core.step import Move
from engine.core.stock_round import StockRound
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.core.steps.shares import BuySellParShares


@dataclass(frozen=True)
class StockSituation:
    """What the step the game waits for offers the player a program serves, as the program's
    rules read it."""

    player: Player
    offered: frozenset[str]  # the action types the player may take now
    normal_pass: bool  # a pass would end a turn (not leave an auction or a company being formed)
    bought: bool  # this turn has already bought a certificate or started a company
    must_sell: bool  # over a limit: the player must sell before anything else
    may_buy: Callable[[Share], bool]  # whether the player may buy this certificate now


def stock_step_moves(game: BaseGame, step: BuySellParShares, entity: Holder) -> list[Move]:
    """What the stock round's share step does by itself for `entity`, the player to act."""
    rnd = game.round
    if not isinstance(entity, Player) or not isinstance(rnd, StockRound):
        return []
    program = game.programs.of(entity.key)
    if not isinstance(program, SharePass | BuyShares):
        return []
    offered = frozenset(move["type"] for move in step.legal_moves(game, rnd)
                        if str(move["entity"]) == str(entity.id) and move.get("entity_type", "player") == "player")

    def may_buy(share: Share) -> bool:
        try:
            step.check_buy(game, rnd, entity, share)
        except GameError:
            return False
        return True

    situation = StockSituation(entity, offered, normal_pass=True, bought=rnd.turn_state.bought,
                               must_sell=step.must_sell_reason(game, rnd, entity) is not None, may_buy=may_buy)
    return program_moves(game, program, situation)


def program_moves(game: BaseGame, program: Program, situation: StockSituation) -> list[Move]:
    if isinstance(program, SharePass):
        return share_pass_moves(game, program, situation)
    if isinstance(program, BuyShares):
        return buy_moves(game, program, situation)
    return []


def share_pass_moves(game: BaseGame, program: SharePass, situation: StockSituation) -> list[Move]:
    """Pass, unless passing is not offered (the player must sell: the program waits) or is not
    an ordinary pass; a conditional program first checks what the others did."""
    if "pass" not in situation.offered or not situation.normal_pass:
        return []
    if not program.unconditional:
        reason = interference(game, program, situation, None)
        if reason:
            return [disable_move(situation.player, reason)]
    return [pass_move(situation.player)]


def buy_moves(game: BaseGame, program: BuyShares, situation: StockSituation) -> list[Move]:
    """Buy one certificate a turn until the goal; at the goal the program ends (and, if asked,
    becomes a share pass)."""
    player = situation.player
    corporation = game.corporation(program.corporation)
    reached = goal_reached(program, corporation, player)
    if reached:
        moves = [disable_move(player, reached)]
        if program.auto_pass_after:
            moves.append({"type": "program_share_pass", "entity": player.id, "entity_type": "player",
                          "unconditional": False, "indefinite": False})
        return moves
    if "buy_shares" in situation.offered:
        source_name = "market" if program.from_market else type(game).PROGRAM_RULES.ipo_name
        source: Holder = game.pool if program.from_market else corporation
        buyable = [share for share in offered_in_order(game, corporation, source) if situation.may_buy(share)]
        if not buyable:
            return [disable_move(player, f"Cannot buy {corporation.id} from {source_name}")]
        if len({share.percent for share in buyable}) > 1:
            return [disable_move(player, f"Shares of different sizes exist, cannot auto buy {corporation.id} "
                                         f"from {source_name}")]
        share = buyable[0]
        reason = interference(game, program, situation, share)
        if reason:
            return [disable_move(player, reason)]
        return [{"type": "buy_shares", "entity": player.id, "entity_type": "player", "shares": [share.id],
                 "percent": share.percent}]
    if situation.bought and "pass" in situation.offered:
        if program.until == FLOAT and corporation.floated:
            return []  # left to the player, who may still sell
        return [pass_move(player)]
    return []


def goal_reached(program: BuyShares, corporation: Corporation, player: Player) -> str | None:
    """The reason the program ends, once its goal is met: floated, or N shares held (a count of
    the player's percent in ordinary shares, not rounded: a president's double share is 2)."""
    if program.until == FLOAT:
        if corporation.floated or corporation.float_percent - corporation.percent_held_by_players() <= 0:
            return f"{corporation.id} is floated"
        return None
    held = corporation.percent_owned_by(player) / corporation.share_percent
    if held >= int(program.until):
        return f"{program.until} share(s) bought in {corporation.id}, end condition met"
    return None


def offered_in_order(game: BaseGame, corporation: Corporation, source: Holder) -> list[Share]:
    """The source's certificates of the company, first the one a purchase takes: the company's
    own in index order, the open market's in the order they arrived there."""
    if source is corporation:
        held = [share for share in corporation.shares if share.owner is source]
        return sorted(held, key=lambda share: int(share.id.rsplit("_", 1)[1]))
    return [share for share in game.ledger.holding_order(corporation, source) if share.percent > 0]


# --- the interference check ------------------------------------------------------------------
def interference(game: BaseGame, program: Program, situation: StockSituation, share: Share | None) -> str | None:
    """Why a conditional program stops now, or None: the first of the other players' dealings
    since their turn began, newer than the program, that may affect its owner (players in the
    order they first appeared this round, then their companies, then time)."""
    player = situation.player
    if situation.must_sell:
        return f"{player.name} must sell shares"
    for other, by_company in game.programs.history.items():
        if other == player.key:
            continue
        for dealings in by_company.values():
            for dealing in dealings:
                if not dealing.newer_than(program):
                    continue
                reason = dealing_reason(game, program, player, game.player(other), dealing, share)
                if reason:
                    return reason
    return None


def dealing_reason(game: BaseGame, program: Program, owner: Player, other: Player, dealing: Dealing,
                   share: Share | None) -> str | None:
    name = dealing.corporation
    if dealing.kind == "par":
        # A buy program stops for a start only where the owner could sell that company now,
        # which no company started this round allows in these titles.
        return f"Corporation {name} parred" if isinstance(program, SharePass) else None
    if dealing.kind == "buy_shares":
        if dealing.by_company:
            return f"{name} redeemed a share."
        corporation = game.corporations.get(name)
        if corporation is None or corporation.president() is not owner:
            return None
        held = corporation.percent_owned_by(owner)
        secure = type(game).PROGRAM_RULES.secure_percent
        if held >= secure:
            return None
        if isinstance(program, BuyShares) and program.corporation == name and share is not None:
            return presidency_threat(corporation, owner, other, share, secure)
        return f"{other.name} bought on corporation {name} and is unsecure"
    if dealing.kind == "sell_shares":
        return "Shares were sold"
    if dealing.kind == "take_loan":
        return f"{name} took a loan"
    if dealing.kind == "short":
        return "Short bought"
    return f"Unknown action {dealing.kind} disabling for safety"


def presidency_threat(corporation: Corporation, owner: Player, buyer: Player, share: Share,
                      secure: int) -> str | None:
    """A buy program buying the company an opponent bought: it stops only if, with the share it
    would buy, the owner is still not secure and a larger certificate the owner does not hold
    could make the buyer president."""
    after = corporation.percent_owned_by(owner) + share.percent
    if after > secure:
        return None
    bought = corporation.percent_owned_by(buyer)
    if any(cert.percent > share.percent and cert.owner is not owner and after < bought + cert.percent
           for cert in corporation.shares):
        return f"{buyer.name} has bought, shares exist that could allow them to gain presidency"
    return None


# --- the moves ---------------------------------------------------------------------------------
def pass_move(player: Player) -> Move:
    return {"type": "pass", "entity": player.id, "entity_type": "player"}


def disable_move(player: Player, reason: str) -> Move:
    return {"type": "program_disable", "entity": player.id, "entity_type": "player", "reason": reason}
