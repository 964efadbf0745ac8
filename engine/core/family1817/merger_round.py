"""The merger and conversion round (rule 14.1): in operating order each company in the white
area may convert to the next size, merge with another of its size, or pass; after a conversion
or merger come the share dealings (14.1.3: the president buys from the treasury, then each
other player in turn from the president's left buys one share from it or sells), the company's
loans, and the stations a conversion bought.

The printed order for a conversion is loans and stations first, then the share dealings; the
site deals shares first, then the company's loans (its own choice), then buys the stations
(`SITE_POST_CONVERSION`). A company that cannot pay for its stations goes into liquidation, to
be sold in the next acquisition round but one (the site sells only those in liquidation as the
merger round began).

A title's round is `MergerRound` with `PostConversionStep()`, `PostConversionLoansStep()` and
`ConversionStep()`, in that order, after the interrupting steps.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.core.actions import Action, BuyShares, Pass, SellShares
from engine.core.entities import Corporation, Holder, Player, Share
from engine.core.family1817.actions import Convert, Merge, ScrapTrain, TakeLoan
from engine.core.family1817.game import SITE_DEALING_DUMPS, SITE_POST_CONVERSION
from engine.core.family1817.loans import loan_refusal, take_loan
from engine.core.family1817.market import in_normal_area, liquidate
from engine.core.family1817.operating import family, scrap_moves, scrap_train
from engine.core.family1817.shorts import close_short
from engine.core.family1817.sizes import convert, merge, merger_refusal
from engine.core.round import Round
from engine.core.share_sales import (
    corporation_of_shares,
    execute_sale,
    plan_sale,
    sale_choices,
    sale_offers,
)
from engine.core.step import Handler, Move, Step, words_listed
from engine.core.steps.shares import share_choice_matches
from engine.errors import GameError

SHARES, LOANS = "shares", "loans"


@dataclass
class MergerRound(Round):
    """The 1817 family's merger and conversion round, company by company (14)."""

    name: ClassVar[str] = "Merger and Conversion Round"
    order: list[str] = field(default_factory=list)  # companies in operating order at the start
    index: int = 0
    involved: set[str] = field(default_factory=set)  # converted or merged this round
    pending: str | None = None  # the company whose conversion or merger is being settled
    phases: list[str] = field(default_factory=list)  # what is left of its settling
    dealers: list[str] = field(default_factory=list)  # players still to deal in its shares
    president_dealing: bool = False
    president_dealt: bool = False  # the president was asked (and bought or passed), not passed over
    stations_due: int = 0

    def start(self, game: Any) -> None:
        self.order = [corp.id for corp in game.operating_order()]
        game.entered_acquisition.clear()
        game.entered_liquidation.clear()
        game.log.append(self.title(game))

    def title(self, game: Any) -> str:
        return f"{self.name} {game.turn}.{game.round_num}"

    def current_entity(self, game: Any) -> Holder | None:
        if self.index >= len(self.order):
            return None
        corporation: Corporation = game.corporations[self.order[self.index]]
        return corporation

    def turn_over(self, game: Any) -> None:
        self.finished = True

    def next_company(self) -> None:
        self.index += 1

    # --- settling a conversion or merger ------------------------------------------------------
    def begin_settling(self, game: Any, corporation: Corporation, stations: int) -> None:
        self.pending = corporation.id
        self.president_dealt = False
        self.stations_due = stations
        site = game.option(SITE_POST_CONVERSION)
        if stations and not site:
            self.phases = [LOANS, "stations", SHARES]
        else:
            self.phases = [SHARES, LOANS, "stations"]
        self.advance_phase(game)

    def advance_phase(self, game: Any) -> None:
        """Do the phases that need no decision; stop at one that does."""
        while self.phases:
            phase = self.phases[0]
            if phase == SHARES and not self.dealers and not self.president_dealing:
                corporation = game.corporations[self.pending]
                president = corporation.president()
                self.president_dealing = president is not None
                others = game.players_from(president)[1:] if president is not None else list(game.players)
                self.dealers = [p.key for p in others if not p.bankrupt]
                return
            if phase == "stations":
                self.phases.pop(0)
                self.buy_stations(game)
                continue
            return
        corporation = game.corporations[self.pending] if self.pending else None
        self.pending = None
        if corporation is not None:
            game.log.append(f"{corporation.id} has settled its conversion or merger")

    def buy_stations(self, game: Any) -> None:
        corporation = game.corporations[self.pending]
        due = self.stations_due
        self.stations_due = 0
        if not due:
            return
        cost = due * game.TOKEN_PRICE
        if corporation.cash < cost:
            liquidate(game, corporation, f"it cannot pay ${cost} for its new stations")
            game.entered_liquidation.add(corporation.id)
            return
        game.transfer(corporation, game.bank, cost)
        corporation.token_count += due
        game.log.append(f"{corporation.id} buys {due} station(s) for ${cost}")

    def phase_done(self, game: Any) -> None:
        self.phases.pop(0)
        self.advance_phase(game)


def _merger(rnd: Round) -> MergerRound:
    assert isinstance(rnd, MergerRound), f"{type(rnd).__name__} is not a merger round"
    return rnd


class ConversionStep(Step):
    key = "conversion"
    label = "convert or merge"

    def handlers(self) -> Mapping[str, Handler]:
        return {"convert": self.process_convert, "merge": self.process_merge, "pass": self.process_pass,
                "scrap_train": self.process_scrap}

    def active(self, game: Any, rnd: Round) -> bool:
        return _merger(rnd).pending is None and rnd.current_entity(game) is not None

    def may_act(self, game: Any, rnd: MergerRound, corporation: Corporation) -> bool:
        return (corporation.id not in rnd.involved and in_normal_area(game, corporation)
                and corporation.president() is not None
                and family(game).company_size(corporation) in family(game).NEXT_SIZE)

    def partners(self, game: Any, rnd: MergerRound, corporation: Corporation) -> list[Corporation]:
        return list(self.partner_offers(game, rnd, corporation))

    def partner_offers(self, game: Any, rnd: MergerRound, corporation: Corporation) -> Iterator[Corporation]:
        """`partners` one at a time, each worked out when asked for (whether there is any is
        asked after every action of the round)."""
        for other in game.operating_order():
            if (other is not corporation and other.id not in rnd.involved and in_normal_area(game, other)
                    and merger_refusal(family(game), corporation, other) is None):
                yield other

    def actions(self, game: Any, rnd: Round, entity: Holder) -> list[str]:
        merger = _merger(rnd)
        if entity is not rnd.current_entity(game) or not isinstance(entity, Corporation):
            return []
        if not self.may_act(game, merger, entity):
            return []
        kinds = ["convert"]
        if next(self.partner_offers(game, merger, entity), None) is not None:
            kinds.append("merge")
        # A title's scrappable trains (18USA's Pullman) go at any time the company may act.
        if family(game).scrappable_trains(entity):
            kinds.append("scrap_train")
        return kinds + ["pass"]

    def process_scrap(self, game: Any, rnd: Round, entity: Holder, action: ScrapTrain) -> None:
        assert isinstance(entity, Corporation)
        scrap_train(family(game), entity, action)

    def skip(self, game: Any, rnd: Round) -> None:
        _merger(rnd).next_company()

    def process_pass(self, game: Any, rnd: Round, entity: Holder, action: Pass) -> None:
        _merger(rnd).next_company()

    def process_convert(self, game: Any, rnd: Round, entity: Holder, action: Convert) -> None:
        merger = _merger(rnd)
        assert isinstance(entity, Corporation)
        stations = convert(family(game), entity)
        merger.involved.add(entity.id)
        merger.next_company()
        merger.begin_settling(game, entity, stations)

    def process_merge(self, game: Any, rnd: Round, entity: Holder, action: Merge) -> None:
        merger = _merger(rnd)
        assert isinstance(entity, Corporation)
        other = game.corporation(action.corporation)
        if other not in self.partners(game, merger, entity):
            reason = merger_refusal(family(game), entity, other)
            raise GameError(reason or f"{other.id} may not merge now: it converted or merged this round, "
                                      f"or is in liquidation or acquisition")
        merge(family(game), entity, other)
        merger.involved.update({entity.id, other.id})
        merger.next_company()
        merger.begin_settling(game, entity, 0)

    def refusal(self, game: Any, rnd: Round, entity: Holder, action: Action) -> str | None:
        if not self.active(game, rnd):  # another step holds the round (the new company's shares)
            return None
        current = rnd.current_entity(game)
        if isinstance(entity, Corporation) and entity is not current and current is not None:
            words = words_listed(game, self.actions(game, rnd, current), current)
            return f"it is {current.key}'s turn to convert or merge" + (f" ({words})" if words else "")
        if isinstance(entity, Corporation) and not self.may_act(game, _merger(rnd), entity):
            return (f"{entity.id} may not {words_listed(game, ['convert', 'merge'], entity)}: it did already this round, is in liquidation "
                    f"or acquisition, or has 10 shares (14.1)")
        if isinstance(action, Merge) and isinstance(entity, Corporation):
            other = game.corporations.get(action.corporation)
            if other is None:
                return f"there is no company {action.corporation!r}"
            return merger_refusal(family(game), entity, other) or (
                f"{other.id} may not merge now: it converted or merged this round, or is in liquidation "
                f"or acquisition (14.1)")
        return None

    def legal_moves(self, game: Any, rnd: Round) -> list[Move]:
        corporation = rnd.current_entity(game)
        if not isinstance(corporation, Corporation):
            return []
        kinds = self.actions(game, rnd, corporation)
        moves: list[Move] = []
        base = {"entity": corporation.id, "entity_type": "corporation"}
        if "convert" in kinds:
            moves.append({"type": "convert", **base})
        if "merge" in kinds:
            moves.append({"type": "merge", **base, "choices": [
                {"corporation": other.id} for other in self.partners(game, _merger(rnd), corporation)]})
        if "scrap_train" in kinds:
            moves += scrap_moves(family(game), corporation)
        if "pass" in kinds:
            moves.append({"type": "pass", **base})
        return moves

    def matches(self, game: Any, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, Merge):
            return bool(choice["corporation"] == action.corporation)
        if isinstance(action, ScrapTrain):
            return bool(choice["train"] == action.train)
        return super().matches(game, choice, action)


class PostConversionStep(Step):
    """Rule 14.1.3: the president buys any number of shares from the treasury, one at a time;
    then each other player in turn buys one or sells any number (of any company); no short
    sales."""

    key = "post_conversion"
    label = "buy or sell shares of the new company"

    def handlers(self) -> Mapping[str, Handler]:
        return {"buy_shares": self.process_buy, "sell_shares": self.process_sell, "pass": self.process_pass}

    def active(self, game: Any, rnd: Round) -> bool:
        merger = _merger(rnd)
        return merger.pending is not None and bool(merger.phases) and merger.phases[0] == SHARES

    def corporation(self, game: Any, rnd: Round) -> Corporation:
        pending = _merger(rnd).pending
        assert pending is not None
        corporation: Corporation = game.corporations[pending]
        return corporation

    def acting_entity(self, game: Any, rnd: Round) -> Holder | None:
        merger = _merger(rnd)
        if merger.president_dealing:
            return self.corporation(game, rnd).president()
        return game.player(merger.dealers[0]) if merger.dealers else None

    def buys(self, game: Any, rnd: Round, player: Player) -> list[Move]:
        corporation = self.corporation(game, rnd)
        share = next((s for s in game.ledger.holding_order(corporation, corporation)
                      if not s.president and s.percent > 0), None)
        if share is None or game.certificate_count(player) >= game.cert_limit:
            return []
        if not in_normal_area(game, corporation):
            return []
        price = game.share_price(corporation)
        if player.cash < price:
            return []
        if corporation.percent_owned_by(player) + share.percent > family(game).max_player_percent_of(corporation, player):
            return []
        return [{"corporation": corporation.id, "share": share.id, "from": "treasury", "percent": share.percent,
                 "price": price}]

    def sells(self, game: Any, rnd: Round, player: Player) -> list[Move]:
        """14.1.3 lets the other players "sell any number of shares to the open market": of any
        company, under the usual rules (11.1), as on the site (s8400 at 644: MKT after PRR's
        merger). A player is asked only when they could buy or sell the new company's shares
        (as on the site: 109372 at 717, s8400 at 467)."""
        if not self.offers_sales(game, rnd, player):
            return []
        return sale_choices(game, player) + president_dumps(game, player)

    def offers_sales(self, game: Any, rnd: Round, player: Player, buys: bool | None = None) -> bool:
        """Whether `sells` offers any sale, from the first sale found (`buys`: whether the player
        may buy, when already known)."""
        corporation = self.corporation(game, rnd)
        if _merger(rnd).president_dealing or not in_normal_area(game, corporation):
            return False
        if buys if buys is not None else self.buys(game, rnd, player):
            return any(sale_offers(game, player)) or bool(president_dumps(game, player))
        return any(choice["corporation"] == corporation.id for choice in sale_offers(game, player))

    def actions(self, game: Any, rnd: Round, entity: Holder) -> list[str]:
        if entity is not self.acting_entity(game, rnd) or not isinstance(entity, Player):
            return []
        kinds = []
        buys = bool(self.buys(game, rnd, entity))
        if buys:
            kinds.append("buy_shares")
        if self.offers_sales(game, rnd, entity, buys):
            kinds.append("sell_shares")
        return kinds + ["pass"] if kinds else []

    def waiting(self, game: Any, rnd: Round) -> bool:
        entity = self.acting_entity(game, rnd)
        return entity is not None and bool(self.actions(game, rnd, entity))

    def skip(self, game: Any, rnd: Round) -> None:
        self.next_dealer(game, rnd)

    def next_dealer(self, game: Any, rnd: Round) -> None:
        merger = _merger(rnd)
        if merger.president_dealing:
            merger.president_dealing = False
        elif merger.dealers:
            merger.dealers.pop(0)
        if not merger.president_dealing and not merger.dealers:
            merger.phase_done(game)

    def process_pass(self, game: Any, rnd: Round, entity: Holder, action: Pass) -> None:
        merger = _merger(rnd)
        merger.president_dealt |= merger.president_dealing
        self.next_dealer(game, rnd)

    def process_buy(self, game: Any, rnd: Round, entity: Holder, action: BuyShares) -> None:
        assert isinstance(entity, Player)
        corporation = self.corporation(game, rnd)
        offered = self.buys(game, rnd, entity)
        share = corporation.share_by_id(action.shares[0]) if len(action.shares) == 1 else None
        if not offered or share is None or share.owner is not corporation or share.president:
            raise GameError(f"buy one share of {corporation.id} from its treasury, within the limits")
        price = offered[0]["price"]
        game.transfer(entity, corporation, price)
        game.ledger.move(share, entity)
        game.log.append(f"{entity.name} buys {share.percent}% of {corporation.id} for ${price}")
        close_short(family(game), entity, share)
        former = corporation.president()
        game.check_presidency_after_buy(corporation, entity)
        merger = _merger(rnd)
        if merger.president_dealing:
            merger.president_dealt = True
            return
        if former is not entity and corporation.president() is entity:
            # As on the site, a player the purchase made president now deals as the president
            # does (any number of shares from the treasury, until they pass), and a former
            # president who was passed over deals as the others do, last.
            merger.dealers.pop(0)
            if former is not None and not former.bankrupt and not merger.president_dealt:
                merger.dealers.append(former.key)
            merger.president_dealing = True
        else:
            self.next_dealer(game, rnd)

    def process_sell(self, game: Any, rnd: Round, entity: Holder, action: SellShares) -> None:
        assert isinstance(entity, Player)
        corporation = corporation_of_shares(game, action.shares)
        if not self.sells(game, rnd, entity):
            raise GameError(f"{entity.name} may not sell now: the president of {_merger(rnd).pending} "
                            "buys from its treasury first (14.1.3)")
        certificate = dumpable_certificate(game, entity, corporation)
        if certificate is not None and certificate.id in action.shares:
            dump_president_certificate(game, entity, corporation, action.shares, action.percent)
        else:
            plan = plan_sale(game, entity, corporation, action.shares, action.percent)
            execute_sale(game, entity, plan, action.shares)
        self.next_dealer(game, rnd)

    def legal_moves(self, game: Any, rnd: Round) -> list[Move]:
        player = self.acting_entity(game, rnd)
        if not isinstance(player, Player):
            return []
        moves: list[Move] = []
        buys = self.buys(game, rnd, player)
        if buys:
            moves.append({"type": "buy_shares", "entity": player.id, "choices": buys})
        sells = self.sells(game, rnd, player)
        if sells:
            moves.append({"type": "sell_shares", "entity": player.id, "choices": sells})
        if moves:
            moves.append({"type": "pass", "entity": player.id})
        return moves

    def matches(self, game: Any, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, SellShares):
            return share_choice_matches(game, choice, action.shares, action.percent)
        if isinstance(action, BuyShares):
            return len(action.shares) == 1 and action.shares[0].rsplit("_", 1)[0] == choice["corporation"]
        return super().matches(game, choice, action)


def dumpable_certificate(game: Any, player: Player, corporation: Corporation) -> Share | None:
    """The president's certificate `player` holds that no other player could take over, which the
    site lets them sell in the share dealings (`SITE_DEALING_DUMPS`); else None."""
    if not game.option(SITE_DEALING_DUMPS):
        return None
    share = next((s for s in corporation.shares if s.president), None)
    if share is None or share.owner is not player:
        return None
    if any(corporation.percent_owned_by(other) >= share.percent for other in game.players if other is not player):
        return None  # another player would take the certificate over: an ordinary sale
    return share


def president_dumps(game: Any, player: Player) -> list[Move]:
    """The site's sales of a president's certificate no other player could take over: the
    certificate with none, one or more of the player's ordinary shares, for each share count up to
    what they make."""
    offers: list[Move] = []
    for corporation in game.corporations.values():
        certificate = dumpable_certificate(game, player, corporation)
        if certificate is None:
            continue
        price = game.share_price(corporation)
        ordinary = [s for s in game.ledger.holding_order(corporation, player) if not s.president and s.percent > 0]
        unit = corporation.share_percent
        for count in range(len(ordinary) + 1):
            listed = [s.id for s in ordinary[:count]] + [certificate.id]
            total = certificate.percent + unit * count
            for percent in range(unit, total + 1, unit):
                offers.append({"corporation": corporation.id, "shares": listed, "percent": percent,
                               "price": price * corporation.units(percent)})
    return offers


def dump_president_certificate(game: Any, player: Player, corporation: Corporation,
                               share_ids: tuple[str, ...] | list[str], percent: int | None) -> None:
    """`SITE_DEALING_DUMPS`: the listed certificates go to the open market, the bank pays for the
    shares the sale named (the ordinary ones first), and the player stays president."""
    certificate = dumpable_certificate(game, player, corporation)
    listed = [share for share_id in share_ids if (share := corporation.share_by_id(share_id)) is not None]
    total = sum(share.percent for share in listed)
    unit = corporation.share_percent
    if certificate is None or certificate not in listed or len(listed) != len(set(share_ids)) \
            or any(share.owner is not player or share.percent <= 0 for share in listed):
        raise GameError(f"{player.name} may not sell those certificates of {corporation.id}")
    sold = total if percent is None else percent
    if sold <= 0 or sold % unit or sold > total:
        raise GameError(f"the certificates listed make {total}%; sell a multiple of {unit}% up to that")
    paid = game.share_price(corporation) * corporation.units(sold)
    for share in listed:
        game.ledger.move(share, game.pool)
    on_certificate = max(0, sold - (total - certificate.percent))
    corporation.president_without_certificate = player
    corporation.president_certificate_sold = on_certificate
    corporation.president_certificate_kept = corporation.units(certificate.percent - on_certificate)
    corporation.president_certificate_kept_by = player
    if paid:
        game.transfer(game.bank, player, paid)
    game.log.append(f"{player.name} sells {total}% of {corporation.id}, its president's certificate among "
                    f"them, to the market for ${paid} and stays its president")


class PostConversionLoansStep(Step):
    """The converted or merged company may take loans (then pays for its stations)."""

    key = "post_conversion_loans"
    label = "take loans"

    def handlers(self) -> Mapping[str, Handler]:
        return {"take_loan": self.process_take_loan, "pass": self.process_pass}

    def active(self, game: Any, rnd: Round) -> bool:
        merger = _merger(rnd)
        return merger.pending is not None and bool(merger.phases) and merger.phases[0] == LOANS

    def acting_entity(self, game: Any, rnd: Round) -> Holder | None:
        pending = _merger(rnd).pending
        return game.corporations[pending] if pending else None

    def actions(self, game: Any, rnd: Round, entity: Holder) -> list[str]:
        if entity is not self.acting_entity(game, rnd) or not isinstance(entity, Corporation):
            return []
        return ["take_loan", "pass"] if loan_refusal(family(game), entity) is None else []

    def skip(self, game: Any, rnd: Round) -> None:
        _merger(rnd).phase_done(game)

    def process_take_loan(self, game: Any, rnd: Round, entity: Holder, action: TakeLoan) -> None:
        assert isinstance(entity, Corporation)
        take_loan(family(game), entity)

    def process_pass(self, game: Any, rnd: Round, entity: Holder, action: Pass) -> None:
        _merger(rnd).phase_done(game)

    def legal_moves(self, game: Any, rnd: Round) -> list[Move]:
        corporation = self.acting_entity(game, rnd)
        if not isinstance(corporation, Corporation) or not self.actions(game, rnd, corporation):
            return []
        base = {"entity": corporation.id, "entity_type": "corporation"}
        return [{"type": "take_loan", **base}, {"type": "pass", **base}]
