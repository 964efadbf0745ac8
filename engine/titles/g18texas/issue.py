"""18Texas rule 12.7: a company may issue shares to the pool or redeem them, not both."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.actions import Action, BuyShares, Pass, SellShares
from engine.core.entities import Corporation, Holder
from engine.core.round import Round
from engine.core.step import Handler, Move
from engine.core.steps.operating import OperatingStep, operating
from engine.core.steps.shares import share_choice_matches
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame

LIMIT = 50


def issuable(game: BaseGame, corp: Corporation) -> int:
    """How many treasury shares may be issued now."""
    if corp.times_operated == 0:
        return 0
    room = (LIMIT - corp.percent_owned_by(game.pool)) // 10
    return max(0, min(room, len(corp.shares_of(corp))))


def redeemable(game: BaseGame, corp: Corporation) -> int:
    price = game.share_price(corp)
    room = (LIMIT - corp.percent_owned_by(corp)) // 10
    affordable = corp.cash // price if price else 0
    return max(0, min(room, len(corp.shares_of(game.pool)), affordable))


class IssueRedeemStep(OperatingStep):
    label = "issue or redeem shares"
    key = "issue"

    def handlers(self) -> Mapping[str, Handler]:
        return {"sell_shares": self.process_issue, "buy_shares": self.process_redeem,
                "pass": self.process_pass}

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        corp = operating(rnd).corporation
        kinds = []
        if not self.turn(rnd).redeemed and issuable(game, corp):
            kinds.append("sell_shares")
        if redeemable(game, corp):
            kinds.append("buy_shares")
        return kinds + ["pass"] if kinds else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        corp = operating(rnd).corporation
        if action.type == "sell_shares" and entity is corp and corp.times_operated == 0:
            return f"{corp.id} may not issue shares in its first operating turn (12.7)"
        return super().refusal(game, rnd, entity, action)

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        self.operator(rnd, entity)
        self.done(rnd)

    def _own_shares(self, corp: Corporation, share_ids: tuple[str, ...]) -> list[Any]:
        shares = [corp.share_by_id(share_id) for share_id in share_ids]
        if any(share is None for share in shares):
            raise GameError(f"{corp.id} can only issue or redeem its own shares")
        return shares

    def process_issue(self, game: BaseGame, rnd: Round, entity: Holder, action: SellShares) -> None:
        corp = self.operator(rnd, entity)
        shares = self._own_shares(corp, action.shares)
        price = game.share_price(corp)
        if any(share.owner is not corp or share.president for share in shares):
            raise GameError(f"only shares in {corp.id}'s treasury can be issued")
        if len(shares) > issuable(game, corp):
            raise GameError(f"{corp.id} may issue at most {issuable(game, corp)} share(s) now; "
                            f"the pool may hold at most {LIMIT}%")
        for share in shares:
            game.ledger.move(share, game.pool)
        game.transfer(game.bank, corp, price * len(shares))
        game.market.move(corp.id, "down", len(shares))
        game.log.append(f"{corp.id} issues {len(shares)} share(s) for ${price * len(shares)}")
        self.done(rnd)

    def process_redeem(self, game: BaseGame, rnd: Round, entity: Holder, action: BuyShares) -> None:
        corp = self.operator(rnd, entity)
        shares = self._own_shares(corp, action.shares)
        price = game.share_price(corp)
        if any(share.owner is not game.pool for share in shares):
            raise GameError("only shares in the bank pool can be redeemed")
        if len(shares) > redeemable(game, corp):
            raise GameError(f"{corp.id} may redeem at most {redeemable(game, corp)} share(s) now; "
                            f"the treasury may hold at most {LIMIT}%")
        game.transfer(corp, game.bank, price * len(shares))
        for share in shares:
            game.ledger.move(share, corp)
        self.turn(rnd).redeemed = True
        game.log.append(f"{corp.id} redeems {len(shares)} share(s) for ${price * len(shares)}")
        # Several shares may be redeemed, but in one action: it ends the step as on the site.
        self.done(rnd)

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, SellShares | BuyShares):
            return share_choice_matches(game, choice, action.shares, action.percent)
        return super().matches(game, choice, action)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        kinds = self.own_actions(game, rnd)
        corp = operating(rnd).corporation
        moves: list[Move] = []
        price = game.share_price(corp)
        if "sell_shares" in kinds:
            ids = [s.id for s in sorted(corp.shares_of(corp), key=lambda s: s.id)]
            moves.append({"type": "sell_shares", "entity": corp.id, "choices": [
                {"shares": ids[:n], "percent": 10 * n, "price": price * n}
                for n in range(1, issuable(game, corp) + 1)]})
        if "buy_shares" in kinds:
            ids = [s.id for s in sorted(corp.shares_of(game.pool), key=lambda s: s.id)]
            moves.append({"type": "buy_shares", "entity": corp.id, "choices": [
                {"shares": ids[:n], "percent": 10 * n, "price": price * n}
                for n in range(1, redeemable(game, corp) + 1)]})
        if kinds:
            moves.append({"type": "pass", "entity": corp.id})
        return moves
