"""The stock round of the 1829 family: sell, then buy one certificate or start a company."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core.entities import Corporation, Holder, Player, Share
from engine.core.rounds import Round
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


@dataclass
class SalePlan:
    """What a sale does, worked out before anything moves."""

    corporation: Corporation
    percent: int
    new_president: Player | None
    price: int


def plan_sale(game: BaseGame, player: Player, corporation: Corporation, share_ids: list[str],
              percent: int | None = None, keep_presidency: bool = False) -> SalePlan:
    """Check a sale by a player to the pool and say what it would do."""
    if not corporation.ipoed or corporation.id not in game.market.position:
        raise GameError(f"{corporation.id} has not been started")
    reason = game.sell_blocked_reason(player, corporation)
    if reason:
        raise GameError(reason)
    shares: list[Share] = []
    for share_id in share_ids:
        share = corporation.share_by_id(share_id)
        if share is None:
            raise GameError(f"{share_id} is not a certificate of {corporation.id}")
        if share.owner is not player:
            raise GameError(f"{player.name} does not own {share_id}")
        if share in shares:
            raise GameError(f"{share_id} is listed twice")
        shares.append(share)
    listed = sum(share.percent for share in shares)
    # Selling part of a president's certificate is allowed: it is first swapped for ordinary shares.
    sold = listed if percent is None else percent
    unit = corporation.share_percent
    if not isinstance(sold, int) or sold <= 0 or sold % unit or sold > listed:
        raise GameError(f"the certificates listed make {listed}%; sell a multiple of {unit}% up to that")
    pool_after = corporation.percent_owned_by(game.pool) + sold
    if pool_after > game.pool_limit_percent():
        raise GameError(
            f"at most {game.pool_limit_percent()}% of {corporation.id} may be in the bank pool; "
            f"this sale would make {pool_after}%"
        )
    holding = corporation.percent_owned_by(player)
    remaining = holding - sold
    new_president = None
    president_cert = corporation.president_share()
    if president_cert.owner is player:
        new_president = game.new_president_after(corporation, player, remaining)
        if keep_presidency and new_president is not None:
            raise GameError(f"{player.name} must keep the president's certificate of {corporation.id}")
        if new_president is None and remaining < president_cert.percent:
            raise GameError(
                f"the president's certificate of {corporation.id} may not go to the pool and no "
                f"other player holds enough shares to take it over"
            )
    elif president_cert in shares:
        raise GameError("only the president holds the president's certificate")
    if president_cert in shares and new_president is None:
        raise GameError(f"{player.name} must keep the president's certificate of {corporation.id}")
    return SalePlan(corporation, sold, new_president, game.share_price(corporation))


def execute_sale(game: BaseGame, player: Player, plan: SalePlan, share_ids: list[str]) -> None:
    """Move a sale's certificates the way the reference site does, so share ids stay in step.

    The listed certificates go to the pool; if the president's certificate went with them, the
    new president pays it with ordinary shares into the pool; a sale of less than the listed
    certificates (part of a president's certificate) takes back the pool's earliest shares.
    """
    corporation = plan.corporation
    bundle = [share for share_id in share_ids if (share := corporation.share_by_id(share_id))]
    if not bundle:
        bundle = [s for s in game.ledger.holding_order(corporation, player) if not s.president]
    listed = sum(share.percent for share in bundle)
    president_cert = corporation.president_share()
    for share in bundle:
        game.ledger.move(share, game.pool)
    if plan.new_president is not None:
        if president_cert.owner is game.pool:
            handed = 0
            for share in game.ledger.holding_order(corporation, plan.new_president):
                if handed >= president_cert.percent:
                    break
                if not share.president:
                    game.ledger.move(share, game.pool)
                    handed += share.percent
            game.ledger.move(president_cert, plan.new_president)
            game.log.append(f"{plan.new_president.name} becomes the president of {corporation.id}")
        else:
            game.swap_presidency(corporation, player, plan.new_president)
    returned = 0
    for share in game.ledger.holding_order(corporation, game.pool):
        if returned >= listed - plan.percent:
            break
        if not share.president:
            game.ledger.move(share, player)
            returned += share.percent
    proceeds = plan.price * corporation.units(plan.percent)
    game.transfer(game.bank, player, proceeds)
    game.log.append(f"{player.name} sells {plan.percent}% of {corporation.id} for ${proceeds}")
    game.after_sale(corporation, plan.percent)


def share_ids_of(action: dict[str, Any]) -> list[str]:
    shares = action.get("shares")
    if not isinstance(shares, list) or not shares or not all(isinstance(s, str) for s in shares):
        raise GameError("name the certificates as a list of share ids, e.g. [\"SP_3\"]")
    return shares


def corporation_of_shares(game: BaseGame, share_ids: list[str]) -> Corporation:
    names = {share_id.rsplit("_", 1)[0] for share_id in share_ids}
    if len(names) != 1:
        raise GameError("certificates of one company at a time")
    return game.corporation(names.pop())


@dataclass
class StockTurn:
    sold: bool = False
    bought: bool = False


@dataclass
class StockRound(Round):
    """Players in turn sell any number of certificates and buy at most one."""

    name = "Stock Round"
    current_index: int = 0
    consecutive_passes: int = 0
    turn_state: StockTurn = field(default_factory=StockTurn)
    sold_this_round: dict[str, set[str]] = field(default_factory=dict)
    last_to_act: Player | None = None

    def __post_init__(self) -> None:
        Round.__init__(self)

    def start(self, game: BaseGame) -> None:
        self.current_index = game.priority_index
        game.log.append(f"Stock Round {game.turn}")

    def current(self, game: BaseGame) -> Player:
        return game.players[self.current_index]

    def label(self, game: BaseGame) -> str:
        return f"{self.name} {game.turn}"

    def acting_players(self, game: BaseGame) -> list[Player]:
        return [self.current(game)]

    # --- actions ---------------------------------------------------------------------------
    def process(self, game: BaseGame, entity: Holder, action: dict[str, Any]) -> None:
        player = self.current(game)
        if entity is not player:
            raise GameError(f"it is {player.name}'s turn in the stock round")
        kind = action["type"]
        if kind in ("pass", "buy_shares", "par"):
            reason = self.must_sell_reason(game, player)
            if reason:
                raise GameError(reason)
        if kind == "pass":
            self._end_turn(game)
        elif kind == "sell_shares":
            self._sell(game, player, action)
        elif kind == "buy_shares":
            self._buy(game, player, action)
            self._end_turn(game)
        elif kind == "par":
            self._par(game, player, action)
            self._end_turn(game)
        else:
            raise GameError(f"{kind} is not a stock round action; allowed: sell_shares, buy_shares, par, pass")

    def must_sell_reason(self, game: BaseGame, player: Player) -> str | None:
        """Rule 11.1: a player over the certificate limit who can sell must do so first."""
        count = game.certificate_count(player)
        if count <= game.cert_limit or not self._legal_sells(game, player):
            return None
        return (f"{player.name} holds {count} certificates, more than the limit of {game.cert_limit}, "
                f"and must sell first (11.1)")

    def _sell(self, game: BaseGame, player: Player, action: dict[str, Any]) -> None:
        if self.turn_state.bought:
            raise GameError("shares are sold before buying, not after")
        share_ids = share_ids_of(action)
        corporation = corporation_of_shares(game, share_ids)
        plan = plan_sale(game, player, corporation, share_ids, action.get("percent"))
        execute_sale(game, player, plan, share_ids)
        self.sold_this_round.setdefault(player.key, set()).add(corporation.id)
        self.turn_state.sold = True
        self.last_to_act = player

    def check_buy(self, game: BaseGame, player: Player, share: Share) -> int:
        """Validate buying one certificate; return its price."""
        corporation = share.corporation
        if self.turn_state.bought:
            raise GameError("only one certificate may be bought each turn")
        if corporation.id in self.sold_this_round.get(player.key, set()):
            raise GameError(f"{player.name} sold {corporation.id} this round and may not buy it back")
        if share.owner is corporation:
            if not corporation.ipoed:
                raise GameError(f"{corporation.id} has not been started; start it with par")
        elif share.owner is not game.pool:
            raise GameError(f"{share.id} is neither in the company treasury nor in the bank pool")
        if share.president:
            raise GameError("the president's certificate is bought with par")
        if game.certificate_count(player) >= game.cert_limit:
            raise GameError(f"{player.name} is at the certificate limit of {game.cert_limit}")
        after = corporation.percent_owned_by(player) + share.percent
        if after > game.max_player_percent():
            raise GameError(f"a player may hold at most {game.max_player_percent()}% of a company")
        price = game.share_price(corporation) * corporation.units(share.percent)
        if player.cash < price:
            raise GameError(f"{share.id} costs ${price}; {player.name} has ${player.cash}")
        return price

    def _buy(self, game: BaseGame, player: Player, action: dict[str, Any]) -> None:
        share_ids = share_ids_of(action)
        if len(share_ids) != 1:
            raise GameError("buy one certificate at a time")
        corporation = corporation_of_shares(game, share_ids)
        share = corporation.share_by_id(share_ids[0])
        if share is None:
            raise GameError(f"{share_ids[0]} is not a certificate of {corporation.id}")
        price = self.check_buy(game, player, share)
        source = share.owner
        game.transfer(player, corporation if source is corporation else game.bank, price)
        game.ledger.move(share, player)
        game.log.append(f"{player.name} buys {share.percent}% of {corporation.id} for ${price}")
        game.check_presidency_after_buy(corporation, player)
        game.check_float(corporation)
        self.turn_state.bought = True
        self.last_to_act = player

    def _par(self, game: BaseGame, player: Player, action: dict[str, Any]) -> None:
        corporation = game.corporation(action.get("corporation"))
        if self.turn_state.bought:
            raise GameError("only one certificate may be bought each turn")
        cell = game.market.by_id.get(str(action.get("share_price")))
        game.check_par(player, corporation, cell)
        if game.certificate_count(player) >= game.cert_limit:
            raise GameError(f"{player.name} is at the certificate limit of {game.cert_limit}")
        assert cell is not None
        game.par_corporation(player, corporation, cell, pay=True)
        self.turn_state.bought = True
        self.last_to_act = player

    def advance(self, game: BaseGame) -> bool:
        """A player who can neither sell, buy nor start a company passes automatically."""
        if self.finished or self.turn_state.sold or self.turn_state.bought:
            return False
        if self.has_any_action(game, self.current(game)):
            return False
        game.log.append(f"{self.current(game).name} has no valid actions and passes")
        self._end_turn(game)
        return True

    def has_any_action(self, game: BaseGame, player: Player) -> bool:
        return any(move["type"] != "pass" for move in self.legal_moves(game))

    def _end_turn(self, game: BaseGame) -> None:
        acted = self.turn_state.sold or self.turn_state.bought
        self.consecutive_passes = 0 if acted else self.consecutive_passes + 1
        self.turn_state = StockTurn()
        active = [p for p in game.players if not p.bankrupt]
        if self.consecutive_passes >= len(active):
            self.finished = True
            return
        for _ in range(len(game.players)):
            self.current_index = (self.current_index + 1) % len(game.players)
            if not game.players[self.current_index].bankrupt:
                break

    def finish(self, game: BaseGame) -> None:
        if self.last_to_act is not None:
            game.priority_index = game.players.index(game.player_left_of(self.last_to_act))
        game.end_of_stock_round()

    # --- legal moves -----------------------------------------------------------------------
    def legal_moves(self, game: BaseGame) -> list[dict[str, Any]]:
        player = self.current(game)
        moves: list[dict[str, Any]] = []
        if self.must_sell_reason(game, player):
            return [{"type": "sell_shares", "entity": player.id, "choices": self._legal_sells(game, player)}]
        if not self.turn_state.bought:
            sells = self._legal_sells(game, player)
            if sells:
                moves.append({"type": "sell_shares", "entity": player.id, "choices": sells})
            buys = []
            for corporation in game.corporations.values():
                for source in (corporation, game.pool):
                    share = next((s for s in sorted(corporation.shares, key=lambda s: s.id)
                                  if s.owner is source and not s.president), None)
                    if share is None:
                        continue
                    try:
                        price = self.check_buy(game, player, share)
                    except GameError:
                        continue
                    buys.append({"corporation": corporation.id, "share": share.id,
                                 "from": "treasury" if source is corporation else "pool",
                                 "percent": share.percent, "price": price})
            if buys:
                moves.append({"type": "buy_shares", "entity": player.id, "choices": buys})
            pars = []
            if game.certificate_count(player) < game.cert_limit:
                for corporation in game.corporations.values():
                    for cell in game.market.par_cells():
                        try:
                            game.check_par(player, corporation, cell)
                        except GameError:
                            continue
                        pars.append({"corporation": corporation.id, "share_price": cell.engine_id,
                                     "price": cell.price, "cost": cell.price * 2})
            if pars:
                moves.append({"type": "par", "entity": player.id, "choices": pars})
        moves.append({"type": "pass", "entity": player.id})
        return moves

    def _legal_sells(self, game: BaseGame, player: Player) -> list[dict[str, Any]]:
        if self.turn_state.bought:
            return []
        return sale_choices(game, player)


def sale_choices(game: BaseGame, player: Player, keep_president_of: Corporation | None = None,
                 stop_at: int | None = None, prices: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Every amount of each company the player may sell now, with certificates that make it."""
    choices = []
    for corporation in game.corporations.values():
        owned = game.ledger.holding_order(corporation, player)
        if not owned:
            continue
        ordinary = [s for s in reversed(owned) if not s.president]
        president = [s for s in owned if s.president]
        holding = sum(s.percent for s in owned)
        unit = corporation.share_percent
        for percent in range(unit, holding + 1, unit):
            ids: list[str] = []
            total = 0
            for share in ordinary + president:
                if total >= percent:
                    break
                ids.append(share.id)
                total += share.percent
            try:
                plan = plan_sale(game, player, corporation, ids, percent,
                                 keep_presidency=corporation is keep_president_of)
            except GameError:
                continue
            price = (prices or {}).get(corporation.id, plan.price)
            proceeds = price * corporation.units(plan.percent)
            choices.append({"corporation": corporation.id, "shares": ids, "percent": percent,
                            "price": proceeds})
            if stop_at is not None and proceeds >= stop_at:
                break
    return choices
