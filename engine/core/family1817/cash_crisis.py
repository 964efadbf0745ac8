"""Rule 15: the cash crisis and bankruptcy in the 1817 family.

A player who owes money sells shares to the open market until the debt is paid: the normal
rules of sales apply, but no sale may change a presidency, and a player over the certificate
limit need not sell down to it. One who can sell nothing more goes bankrupt: their money goes
to the company whose interest they could not pay (else the bank), their certificates and shorts
and private companies to the open market (the site leaves the privates with them), companies they were president of into liquidation in
operating order, and a short and an ordinary share both in the market back to the stack. When
all but one player are bankrupt the game ends.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.actions import Bankrupt, SellShares
from engine.core.entities import Holder, Player
from engine.core.family1817.market import liquidate
from engine.core.family1817.shorts import match_market_shorts
from engine.core.round import Round
from engine.core.share_sales import corporation_of_shares, execute_sale, plan_sale
from engine.core.step import Move
from engine.core.steps.cash_crisis import CashCrisisStep, Debt
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.family1817.game import Family1817Game

# The site leaves a bankrupt player's private companies with them (still counted in their value);
# rule 15 puts them in the open market.
SITE_BANKRUPT_PRIVATES = "site_bankrupt_privates"
# The site takes the whole interest from a president who cannot pay it and forgives what they
# owe when they go bankrupt: the company gets nothing. Rule 15 puts the bankrupt's money (what
# they had towards the interest) on the company's charter.
SITE_INTEREST_BANKRUPTCY = "site_interest_bankruptcy"
# The site ends the game over a bankruptcy once the action is fully played out: what needs no
# decision still happens (the operating round's end and its export when the bankrupt's company
# was the last to operate). Rule 15 ends it at once.
SITE_END_AFTER_BANKRUPTCY = "site_end_after_bankruptcy"


def crisis_sales(game: Any, player: Player, need: int) -> list[Move]:
    """Every amount of each company the player may sell without a presidency changing hands,
    up to the first that covers `need`."""
    choices: list[Move] = []
    for corporation in game.corporations.values():
        owned = [s for s in game.ledger.holding_order(corporation, player) if s.percent > 0]
        if not owned:
            continue
        ordinary = [s for s in reversed(owned) if not s.president]
        unit = corporation.share_percent
        total = 0
        ids: list[str] = []
        for share in ordinary:
            ids.append(share.id)
            total += share.percent
            if total % unit:
                continue
            try:
                plan = plan_sale(game, player, corporation, list(ids), total, keep_presidency=True)
            except GameError:
                break
            proceeds = plan.price * corporation.units(plan.percent)
            choices.append({"corporation": corporation.id, "shares": list(ids), "percent": total,
                            "price": proceeds})
            if proceeds >= need:
                break
    return choices


class FamilyCashCrisisStep(CashCrisisStep):
    """The debt is already paid, the player below $0 (`Family1817Game.demand`): they sell until
    back to $0."""

    def sales(self, game: Any, player: Player) -> list[Move]:
        return crisis_sales(game, player, -player.cash)

    def process_sell(self, game: Any, rnd: Round, entity: Holder, action: SellShares) -> None:
        assert isinstance(entity, Player)
        corporation = corporation_of_shares(game, action.shares)
        if any(share.president for share_id in action.shares
               if (share := corporation.share_by_id(share_id)) is not None):
            raise GameError("in a cash crisis no sale may change a presidency (15)")
        plan = plan_sale(game, entity, corporation, action.shares, action.percent, keep_presidency=True)
        execute_sale(game, entity, plan, action.shares)
        if entity.cash >= 0:
            debt = game.cash_crisis.pop(0)
            game.log.append(f"{entity.name} has raised the money for {debt.reason}")

    def process_bankrupt(self, game: Any, rnd: Round, entity: Holder, action: Bankrupt) -> None:
        assert isinstance(entity, Player)
        if self.sales(game, entity):
            raise GameError(f"{entity.name} must first sell shares to raise the money")
        debt = game.cash_crisis.pop(0)
        go_bankrupt(game, entity, debt)


def go_bankrupt(game: Family1817Game, player: Player, debt: Debt | None) -> None:
    """The effects of rule 15 on a bankrupt player's holdings."""
    company = game.corporations.get(debt.company or "") if debt is not None else None
    # A debt was paid in full, leaving the player below $0: what they could not raise is the
    # bank's loss, and what they did pay of unpaid interest goes to the company (as their money
    # would), the rest to the bank.
    paid = debt.amount + min(0, player.cash) if debt is not None else 0
    if player.cash < 0:
        game.transfer(game.bank, player, -player.cash)
    if debt is not None and debt.kind == Debt.INTEREST and company is not None:
        if not game.option(SITE_INTEREST_BANKRUPTCY):
            game.transfer(game.bank, company, max(0, paid))
        game.transfer(player, company, player.cash)
    else:
        game.transfer(player, game.bank, player.cash)
    presided = [corp for corp in game.operating_order_all() if corp.president() is player]
    for corporation in game.corporations.values():
        for share in game.ledger.holding_order(corporation, player):
            game.ledger.move(share, game.pool)
    if not game.option(SITE_BANKRUPT_PRIVATES):
        for private in game.companies.values():
            if private.owner is player:
                private.owner = game.pool
    for corporation in presided:
        # A president without their certificate (the site's dealing dumps) presides no more:
        # the company has no president (14.2.1), so nobody pays what its loans leave unpaid.
        if corporation.president_without_certificate is player:
            corporation.president_without_certificate = None
            corporation.president_certificate_kept_by = None
            corporation.president_certificate_kept = 0
        liquidate(game, corporation, f"its president {player.name} is bankrupt")
        game.former_presidents[corporation.id] = player.key
    match_market_shorts(game)
    player.bankrupt = True
    game.cash_crisis[:] = [owed for owed in game.cash_crisis if owed.player != player.key]
    game.log.append(f"{player.name} is bankrupt")
    game.after_bankruptcy(player)
    if len(game.active_players()) <= 1:
        if game.option(SITE_END_AFTER_BANKRUPTCY):
            game.end_when_settled("bankrupt")
        else:
            game.end_game("bankrupt")
