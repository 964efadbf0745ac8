"""18USA's standing orders as 18xx.games runs them: the stock round's share pass and buy shares
(the 1817 family's reading: 60% makes a president secure, and a pass during a company's
auction or forming is not an ordinary one), the merger pass of the merger and acquisition
rounds, and the site's one automatic move that is no one's program: a bidder who cannot reach
the minimum bid in a company's auction passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.core.entities import Corporation, Holder, Player
from engine.core.family1817.acquisition_round import FRIENDLY, AcquisitionRound, AcquisitionStep
from engine.core.family1817.market import in_normal_area
from engine.core.family1817.merger_round import ConversionStep, MergerRound, PostConversionStep
from engine.core.program_stock import StockSituation, disable_move, pass_move, program_moves
from engine.core.programs import BUY_SHARES, MERGER_PASS, SHARE_PASS, MergerPass, ProgramRules
from engine.core.step import Move, Step, controller
from engine.titles.g18usa import ipo as ipos
from engine.titles.g18usa.auction import SelectionAuctionStep
from engine.titles.g18usa.stock import ContributeStep, IpoBidStep, IpoSizeStep, UsaStockRound
from engine.titles.g18usa.usa_game import usa_game

if TYPE_CHECKING:
    from engine.core.game import BaseGame

MR, AR = "MR", "AR"
OTHERS_ACTED = "Other players have acted and requested to stop"


class UsaProgramRules(ProgramRules):
    secure_percent: ClassVar[int] = 60
    merger_rounds = {"merger": MR, "acquisition": AR}
    offered = (MERGER_PASS, BUY_SHARES, SHARE_PASS)

    def merger_companies(self, game: BaseGame, player: Player) -> list[Corporation]:
        """The companies the site lets a merger pass list: the player's floated companies in the
        market's normal area (not in acquisition or liquidation), in operating order."""
        return [corporation for corporation in game.operating_order()
                if corporation.president() is player and in_normal_area(game, corporation)]

    def idle_pass(self, game: BaseGame, step: Step, entity: Holder) -> Move | None:
        """Besides the stock round's turn: leaving a company's auction or the private auction,
        a company's pass in the merger round, the dealings after another company's conversion,
        and in the acquisition round declining to offer a company or to bid. Never naming the
        buyer, a company's loans, or forming a company won."""
        rnd = game.round
        offered = {(move["type"], str(move["entity"])) for move in step.legal_moves(game, rnd)}
        if ("pass", str(entity.id if isinstance(entity, Player) else entity.key)) not in offered:
            return super().idle_pass(game, step, entity)
        if isinstance(step, ConversionStep) and isinstance(entity, Corporation):
            return {"type": "pass", "entity": entity.key, "entity_type": "corporation"}
        if not isinstance(entity, Player):
            return None
        if isinstance(step, IpoBidStep | SelectionAuctionStep | PostConversionStep):
            return pass_move(entity)
        if isinstance(step, AcquisitionStep) and isinstance(rnd, AcquisitionRound):
            sale = rnd.sale
            if sale is not None and not sale.settling and not (sale.high_bidder is not None and len(sale.bidders) == 1):
                return pass_move(entity)  # declining to offer a company, or to bid
            return None
        return super().idle_pass(game, step, entity)

    def forced(self, game: BaseGame, step: Step, entity: Holder) -> list[Move]:
        """A bidder in a company's auction who cannot reach the minimum bid passes."""
        rnd = game.round
        if isinstance(step, IpoBidStep) and isinstance(rnd, UsaStockRound) and isinstance(entity, Player):
            ipo = rnd.ipo
            if ipo is not None and ipos.max_bid(usa_game(game), entity, ipo) <= ipo.price:
                return [pass_move(entity)]
        return []

    def answer(self, game: BaseGame, step: Step, entity: Holder) -> list[Move]:
        rnd = game.round
        if isinstance(step, ConversionStep) and isinstance(rnd, MergerRound):
            return merger_pass_moves(game, entity, MR, rnd.current_entity(game), bool(rnd.involved))
        if isinstance(step, AcquisitionStep) and isinstance(rnd, AcquisitionRound):
            sale = rnd.sale
            asked = sale is not None and sale.kind == FRIENDLY and not sale.offered and not sale.settling
            subject = game.corporations[sale.target] if asked and sale is not None else None
            return merger_pass_moves(game, entity, AR, subject, bool(rnd.bought))
        if isinstance(step, IpoBidStep | IpoSizeStep | ContributeStep) and isinstance(rnd, UsaStockRound):
            return forming_moves(game, step, rnd, entity)
        return super().answer(game, step, entity)


def forming_moves(game: BaseGame, step: Step, rnd: UsaStockRound, entity: Holder) -> list[Move]:
    """While a company is auctioned or formed, a program acts as in the stock round, where a pass
    is not an ordinary one and only the winner's start counts as a purchase."""
    ipo = rnd.ipo
    if ipo is None or not isinstance(entity, Player):
        return []
    program = game.programs.of(entity.key)
    if program is None:
        return []
    offered = frozenset(move["type"] for move in step.legal_moves(game, rnd) if str(move["entity"]) == str(entity.id))
    situation = StockSituation(entity, offered, normal_pass=False, bought=ipo.won, must_sell=False,
                               may_buy=lambda share: False)
    return program_moves(game, program, situation)


def merger_pass_moves(game: BaseGame, entity: Holder, key: str, subject: Holder | None, others_acted: bool) -> list[Move]:
    """A merger pass: its end when others have acted (if asked for, and not right after it was
    set), else a pass for a company it lists when that company is the one asked now (MR: to
    convert or merge, the company passing; AR: whether to offer it, its president passing)."""
    player = controller(entity)
    if player is None:
        return []
    program = game.programs.of(player.key)
    if not isinstance(program, MergerPass):
        return []
    if program.disable_others and others_acted and not game.programs.set_by_current_action(program):
        return [disable_move(player, OTHERS_ACTED)]
    if subject is None or subject.key not in program.companies_in(key):
        return []
    if key == MR:
        return [{"type": "pass", "entity": subject.key, "entity_type": "corporation"}]
    return [pass_move(player)]
