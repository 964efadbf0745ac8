"""`Family1817Game`: the base of an 1817-family title, a `BaseGame` with the family's services
configured and the family's rules as hooks (loans, the one-row market's areas, shorts, company
sizes). A title subclasses it, supplies its data and rounds, and overrides what differs."""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core.entities import Corporation, Player, Share, Train
from engine.core.family1817 import market as areas
from engine.core.family1817.cash_crisis import (
    SITE_BANKRUPT_PRIVATES,
    SITE_END_AFTER_BANKRUPTCY,
    SITE_INTEREST_BANKRUPTCY,
    FamilyCashCrisisStep,
    go_bankrupt,
)
from engine.core.family1817.ruin import ruin_warnings
from engine.core.family1817.shorts import shorts_of
from engine.core.family1817.sizes import joining_target, placed_stations
from engine.core.family1817.tokens import TokenReductionStep
from engine.core.game import BaseGame
from engine.core.step import Step
from engine.core.steps.cash_crisis import Debt, demand_payment
from engine.core.steps.discard import DiscardTrainStep
from engine.core.steps.pending_token import PendingTokenStep
from engine.errors import GameError

# Where the printed rules and the reference site differ, the printed rule is the default and
# these options give the site's reading (on for imported and replayed logs).
SITE_LOANS_AFTER_INTEREST = "site_loans_after_interest"
SITE_POST_CONVERSION = "site_post_conversion"
SITE_SELL_AFTER_SHORT = "site_sell_after_short"
SITE_SALE_STATIONS = "site_sale_stations"
SITE_CLOSE_SHORT_AT_LIMIT = "site_close_short_at_limit"
SITE_SALE_LOANS_OVER_LIMIT = "site_sale_loans_over_limit"
SITE_LIQUIDATION_PRESIDENT_ASKED = "site_liquidation_president_asked"
SITE_DEALING_DUMPS = "site_dealing_dumps"
SITE_TRAINS_LEFT_PLAY_WAIT = "site_trains_left_play_wait"
FAMILY_OPTIONS: dict[str, str] = {
    SITE_LOANS_AFTER_INTEREST: "A company may take loans at its repay-loans step, after paying interest, as on "
                               "the site (rule 12.8: no further loans after paying interest).",
    SITE_POST_CONVERSION: "After a conversion the shares are dealt first, then loans, then the new stations "
                          "are bought, as on the site (rule 14.1.1: loans, stations, then the share "
                          "dealings); either way a company without the money goes into liquidation.",
    SITE_SELL_AFTER_SHORT: "A player may sell shares after selling short in the same turn, as on the site "
                           "(rule 11: sell, then sell short, then buy).",
    SITE_SALE_STATIONS: "When a company is sold or merged, the buyer's own station leaves a city it shares "
                        "with the company it takes over, the other's stations become the buyer's in the first "
                        "open slot of their city, the buyer is asked which station to remove in a hex where "
                        "the two hold different cities and may take off any station in such a hex, as on "
                        "the site (rule 14.3: the taken-over company's station in a hex where the buyer has "
                        "one goes back to the charter unasked).",
    SITE_CLOSE_SHORT_AT_LIMIT: "A player at the certificate limit may buy a share that closes one of their short "
                               "shares, as on the site (rule 11.4: a player must hold fewer certificates than the "
                               "limit to buy one).",
    SITE_SALE_LOANS_OVER_LIMIT: "A company may buy a company in acquisition or a friendly sale whose loans take "
                                "it over its loan limit, as on the site: it repays the loans over the limit "
                                "at once from its treasury, and its bids count that money against it (rule 9: "
                                "a company never holds more loans than its share size, so it may not bid).",
    SITE_LIQUIDATION_PRESIDENT_ASKED: "In a stock round the president of a company in liquidation is asked to "
                                      "act even with nothing to do but pass, as on the site (a player who "
                                      "can do nothing is passed over).",
    SITE_DEALING_DUMPS: "In the share dealings after a conversion or merger a player may sell a president's "
                        "certificate that no other player holds enough shares to take over (of a 2-share "
                        "company or one in liquidation too), alone or with ordinary shares, as the site "
                        "allows: they are paid the share price for each share the sale names, the whole "
                        "certificate goes to the open market and they stay president; the part of it the "
                        "sale did not name still counts as theirs, a player with more (and at least the "
                        "certificate's size) becomes president, and the certificate is bought there like "
                        "a share (rule 11.1: a president's certificate is never in the open market, and "
                        "shares of a 2-share company are never sold).",
    SITE_INTEREST_BANKRUPTCY: "A president who goes bankrupt over a company's interest has paid it in full "
                              "to the bank and the company gets nothing, as on the site (rule 15: their "
                              "money goes on the company's charter).",
    SITE_TRAINS_LEFT_PLAY_WAIT: "While a train that left play with a company nobody bought has not rusted, every "
                                "company with room for a train and at least $1 is asked at its buy-trains "
                                "step, even with nothing it can buy, as on the site (a step with nothing to "
                                "decide is passed over).",
    SITE_END_AFTER_BANKRUPTCY: "A bankruptcy that leaves one player ends the game once what needs no decision "
                               "has happened, the end of the operating round and its export included, as on "
                               "the site (rule 15: the game ends at once).",
    SITE_BANKRUPT_PRIVATES: "A bankrupt player keeps their private companies, as on the site (rule 15: they go "
                            "to the open market).",
}


class Family1817Game(BaseGame):
    NEGATIVE_HOLDINGS = True
    DISCARDS_TO_MARKET = True
    FIRST_SHORT_INDEX = 10
    # The price the dividend thresholds use while a company is in the acquisition spaces.
    ACQUISITION_DIVIDEND_PRICE: ClassVar[int] = 40
    TOKEN_PRICE: ClassVar[int] = 50
    MAX_TOKENS: ClassVar[int] = 8
    # The company sizes (shares) and the next size a conversion or merger gives.
    NEXT_SIZE: ClassVar[dict[int, int]] = {2: 5, 5: 10}

    def __init__(self, players: list[dict[str, Any]], seed: int,
                 options: list[str] | None = None) -> None:
        # Stations a company has yet to buy (at formation or conversion), by company id.
        self.tokens_owed: dict[str, int] = {}
        # Companies that entered the acquisition spaces by loans during this M&A round (14).
        self.entered_acquisition: set[str] = set()
        # Companies that went into liquidation in this merger round (a conversion they could not
        # pay for): as on the site, they are sold in the next acquisition round, not this one.
        self.entered_liquidation: set[str] = set()
        # The bankrupt president of a company left without one (its liquidation's bidding
        # starts at their left, 14.2.1).
        self.former_presidents: dict[str, str] = {}
        # A buyer removing stations (14.3) from its own and a bought company's, whose stations
        # become its own once it has: buyer id -> bought company's id.
        self.joining_stations: dict[str, str] = {}
        super().__init__(players, seed, options)
        # Set after the base setup made the loan service; no round has asked for a rate yet.
        self.loans.tiers = self.interest_tiers()

    # --- loans --------------------------------------------------------------------------------
    def max_loans(self, corporation: Corporation) -> int:
        """Rule 9: as many loans as the company has shares."""
        return self.company_size(corporation)

    def interest_tiers(self) -> tuple[tuple[int, int], ...]:
        """The Bank of New York's rows, cheapest first: (rate, loans). 1817's: five per $5 step."""
        total = self.loans.total or 0
        return tuple((5 * (row + 1), 5) for row in range((total + 4) // 5))

    def buying_power_bonus(self, target: Corporation) -> int:
        """What a company put up for sale adds to every bidder's limit (a title's private may)."""
        return 0

    def interest_due(self, corporation: Corporation) -> int:
        """The interest the company owes now on all its loans (a title's privates may lower it)."""
        return self.loans.interest_due(corporation.id)

    def loans_after_interest(self) -> bool:
        """Whether a company may take loans at its repay step, after paying interest (the site)."""
        return self.option(SITE_LOANS_AFTER_INTEREST)

    def sells_after_short(self) -> bool:
        """Whether a player may sell shares after selling short in the same turn (the site)."""
        return self.option(SITE_SELL_AFTER_SHORT)

    def site_sale_stations(self) -> bool:
        """Whether a company sale settles shared hexes as the site does (14.3)."""
        return self.option(SITE_SALE_STATIONS)
    def buys_over_loan_limit(self) -> bool:
        """Whether a company may buy another whose loans take it over its limit, repaying the
        excess at once (the site)."""
        return self.option(SITE_SALE_LOANS_OVER_LIMIT)

    def asks_liquidation_presidents(self) -> bool:
        """Whether a stock round asks the president of a company in liquidation to act even
        when they can only pass (the site)."""
        return self.option(SITE_LIQUIDATION_PRESIDENT_ASKED)

    def off_map_token_choices(self, corporation: Corporation) -> list[str]:
        """The `choose` words that take a token off the map instead of a station while the company
        removes stations (14.3); none in the family."""
        return []

    def remove_off_map_token(self, corporation: Corporation, choice: str) -> None:
        raise GameError(f"{corporation.id} has no token off the map to remove")

    def tokens_off_the_map(self, corporation: Corporation) -> int:
        """Tokens of the company's that are not stations but count toward the most it may hold
        in a merger or acquisition (14.3): a title's markers. None in the family."""
        return 0

    def after_loan(self, corporation: Corporation) -> None:
        """A loan's money first buys the stations the company still owes (rule 11.6)."""
        self.buy_owed_tokens(corporation)

    def buy_owed_tokens(self, corporation: Corporation) -> None:
        # The stations are bought together, once the company can pay for all of them (18USA
        # s8403 at 656-659: a new 10-share company with $60 buys its three after a loan).
        owed = self.tokens_owed.get(corporation.id, 0)
        if not owed or corporation.cash < owed * self.TOKEN_PRICE:
            return
        self.transfer(corporation, self.bank, owed * self.TOKEN_PRICE)
        corporation.token_count += owed
        self.log.append(f"{corporation.id} buys {owed} station(s) for ${owed * self.TOKEN_PRICE}")
        self.tokens_owed.pop(corporation.id, None)

    def conversion_tokens(self, new_size: int) -> int:
        """Stations a company buys when it converts to `new_size` shares (14.1.1)."""
        return {5: 1, 10: 2}.get(new_size, 0)

    def retire(self, corporation: Corporation) -> None:
        """A company that left play (merged or sold) is made ready to be started again (7.2):
        off the market, no money, trains, private companies, loans or stations, its certificates
        new."""
        self.market.remove(corporation.id)
        # A merged company's stations may still wait for the survivor's removals (14.3).
        for coord, city_index, slot in [] if joining_target(self, corporation) else \
                reversed(placed_stations(self, corporation)):
            self.board.remove_token(coord, city_index, slot)
        if corporation.cash:
            self.transfer(corporation, self.bank, corporation.cash)
        # Trains still held here leave play with the company (the bank took it in liquidation).
        for train in corporation.trains:
            self.depot.discard(train, to_market=False)
            self.depot.left_play.append(train)
        corporation.trains = []
        # Privates nobody took over (a liquidation without a buyer) leave the game with it.
        for company in self.companies.values():
            if company.owner is corporation and not company.closed:
                company.closed = True
                self.log.append(f"{company.id} closes with {corporation.id}")
        self.loans.forgive(corporation.id)
        self.tokens_owed.pop(corporation.id, None)
        corporation.ipoed = corporation.floated = False
        corporation.times_operated = 0
        corporation.has_paid = corporation.route_seen = False
        _forget_dumped_certificate(corporation)
        corporation.market_percent_offset = corporation.players_percent_offset = 0
        corporation.token_count = self.starting_tokens(corporation)
        self.ledger.create(corporation, 2, 2)
        self.log.append(f"{corporation.id} leaves play and may be started again")

    def starting_tokens(self, corporation: Corporation) -> int:
        return 1

    def has_a_train(self, corporation: Corporation) -> bool:
        """Whether the company owns a train (a title's cars that are not trains do not count)."""
        return bool(corporation.trains)

    def scrappable_trains(self, corporation: Corporation) -> dict[str, int]:
        """Trains the company may scrap now, by id, with what the bank pays (none by default)."""
        return {}

    def train_scrapped(self, corporation: Corporation, train: Train) -> None:
        """After the company scrapped `train`: what the title ties to it goes with it."""

    # --- sizes and the market -----------------------------------------------------------------
    def company_size(self, corporation: Corporation) -> int:
        return corporation.units(100)

    def total_shares(self, corporation: Corporation) -> int:
        return self.company_size(corporation)

    def may_buy_president_certificate(self, share: Share) -> bool:
        """With the site's dealing dumps a president's certificate may lie in the open market; the
        site sells it there like a share, and its buyer becomes president."""
        return self.option(SITE_DEALING_DUMPS) and share.owner is self.pool

    def check_presidency_after_buy(self, corporation: Corporation, buyer: Player) -> None:
        president = corporation.president()
        if president is None or president is buyer or corporation.president_share().owner is president:
            super().check_presidency_after_buy(corporation, buyer)
            return
        # A president whose certificate is in the market (site_dealing_dumps) has none to hand
        # over: the site counts the shares of it their sale left unsold as still theirs, and a
        # player holding more, and at least as much as the certificate, becomes president, the
        # certificate staying in the market.
        certificate = corporation.president_share()
        held = corporation.percent_owned_by(buyer)
        if held >= certificate.percent and held > corporation.percent_owned_by(president) + _kept(corporation, president):
            corporation.president_without_certificate = buyer
            corporation.president_certificate_kept_by = None
            corporation.president_certificate_kept = 0
            self.log.append(f"{buyer.name} becomes president of {corporation.id}")

    def president_certificate_bought(self, corporation: Corporation, player: Player, source: Any) -> None:
        """As the site plays it: a buyer holding more than the president (with the shares of it
        their sale left unsold) presides and hands ordinary shares worth the certificate to the
        market it came from, as a new president does; otherwise the president stays."""
        from engine.core.family1817.sizes import hand_shares_for_certificate

        if source is self.pool:
            # The site counted the certificate in the market for the part its sale named and
            # takes all of it out now: its count of the market stays that much lower, and its
            # count of the players' holdings that much higher, the seller keeping that part (11.8).
            certificate = corporation.president_share().percent
            unsold = certificate - min(certificate, corporation.president_certificate_sold)
            corporation.market_percent_offset -= unsold
            corporation.players_percent_offset += unsold
        president = corporation.president_without_certificate
        if president is not None and president is not player and \
                corporation.percent_owned_by(player) <= corporation.percent_owned_by(president) + _kept(corporation, president):
            return
        handed = hand_shares_for_certificate(self, corporation, player, source)
        if source is self.pool:
            # The site's counts do not see the shares handed back to the market.
            corporation.market_percent_offset -= handed
            corporation.players_percent_offset += handed
        _forget_dumped_certificate(corporation)

    def max_player_percent_of(self, corporation: Corporation, player: Player | None = None) -> int:
        """Rule 11.4: two shares of a 2-share company, three of a 5, six of a 10 (a title's
        variant may let `player`, its president, go beyond)."""
        return 100 if self.company_size(corporation) <= 2 else 60

    def pool_limit_percent(self) -> int:
        return 10_000  # the open market has no limit (shorts add certificates to it)

    def buy_within_certificate_limit(self, player: Player, share: Share) -> bool:
        """On the site a share that closes a short adds no certificate, so it may be bought at
        the limit (11.4 as printed: only below the limit)."""
        if self.option(SITE_CLOSE_SHORT_AT_LIMIT) and shorts_of(share.corporation, player):
            return True
        return super().buy_within_certificate_limit(player, share)

    def counts_toward_limit(self, share: Share) -> bool:
        return share.percent > 0  # short certificates do not count (11.2)

    def after_sale(self, corporation: Corporation, percent: int) -> None:
        """Rule 11.1: sales do not move the price."""

    def sell_blocked_reason(self, player: Player, corporation: Corporation) -> str | None:
        if self.company_size(corporation) <= 2:
            return f"shares of a 2-share company ({corporation.id}) may not be sold (11.1)"
        where = areas.area(self, corporation)
        if where is not None:
            return f"{corporation.id} is in {where}; its shares may not be sold (11.1)"
        if corporation.id in self.formed_this_round():
            return f"{corporation.id} was formed this stock round; its shares may not be sold yet (11.1)"
        return None

    def formed_this_round(self) -> set[str]:
        started: set[str] = getattr(self.round, "started", set())
        return started

    def shorts_forbidden(self) -> str | None:
        """Why no short sale is allowed now (a title's late phase), or None."""
        return None

    def dividend_kinds(self) -> list[str]:
        return ["payout", "half", "withhold"]

    def half_withheld_of(self, corporation: Corporation, revenue: int) -> int:
        """Rule 12.5: half to the treasury; a 10-share company's paid half is rounded up to $10
        (the withheld half down), a 5-share company's to $5."""
        size = self.company_size(corporation)
        if size >= 10:
            return revenue // 20 * 10
        if size >= 5:
            return revenue // 10 * 5
        return revenue // 2

    def dividend_price_move(self, corporation: Corporation, paid: int) -> None:
        areas.move_for_dividend(self, corporation, paid)

    def after_dividend(self, corporation: Corporation) -> None:
        """Title hook: what ends with the company's earnings (a title's obsolete trains)."""

    def end_of_stock_round(self) -> None:
        areas.end_of_stock_round_moves(self)
        for corp_id in list(self.tokens_owed):
            corporation = self.corporations[corp_id]
            if not self.liquidates_for_unpaid_stations(corporation):
                continue
            areas.liquidate(self, corporation, "it could not pay for its stations by the end of the stock round")
            self.tokens_owed.pop(corp_id)

    def ruin_warnings(self) -> list[tuple[str, set[str]]]:
        return ruin_warnings(self)

    def liquidates_for_unpaid_stations(self, corporation: Corporation) -> bool:
        """Whether a company still owing stations at the end of the stock round is liquidated;
        one that is not keeps owing them and buys them as money comes in."""
        return True

    # --- players ------------------------------------------------------------------------------
    def demand(self, player: Player, amount: int, payee: Any, reason: str, company: str | None = None,
               kind: str = "") -> bool:
        """Rule 15: the player pays in full; one who has not the money is left below $0, as on
        the site, and in a cash crisis until sales bring them back to $0."""
        shortfall = amount - player.cash
        if shortfall <= 0:
            return demand_payment(self, player, amount, payee, reason, company, kind)
        if player.cash > 0:
            self.transfer(player, payee, player.cash)
        player.cash -= shortfall
        payee.cash += shortfall
        payee_key = "bank" if payee is self.bank else payee.key
        self.cash_crisis.append(Debt(player.key, amount, payee_key, reason, company, kind))
        self.log.append(f"{player.name} pays ${amount} for {reason}, ${shortfall} more than they have, "
                        f"and must raise it")
        return False

    def player_value(self, player: Player) -> int:
        """Rule 16: cash plus shares at market price, less shorts; privates count for nothing."""
        shares = sum(
            self.share_price(corp) * corp.units(share.percent)
            for corp in self.corporations.values() if corp.id in self.market.position
            for share in corp.shares if share.owner is player
        )
        return player.cash + shares

    def bankrupt(self, player: Player) -> None:
        go_bankrupt(self, player, None)

    def interrupt_steps(self) -> tuple[Step, ...]:
        return (TokenReductionStep(), DiscardTrainStep(), FamilyCashCrisisStep(), PendingTokenStep())

    def after_bankruptcy(self, player: Player) -> None:
        """Rule 15: the certificate limit rises to the table's for the players left."""
        limits = self.data["entities"]["constants"]["certificate_limit"]
        left = str(len(self.active_players()))
        if left in limits:
            self.cert_limit = int(limits[left])
            self.log.append(f"The certificate limit is now {self.cert_limit}")

    def active_players(self) -> list[Player]:
        return [player for player in self.players if not player.bankrupt]

    def check_family_option_names(self) -> None:
        unknown = set(FAMILY_OPTIONS) - set(self.RULE_OPTIONS)
        if unknown:
            raise GameError(f"{self.TITLE} must list the family options {sorted(unknown)} in RULE_OPTIONS")


def _kept(corporation: Corporation, president: Player) -> int:
    """The percent of a president's certificate sold in the dealings (site_dealing_dumps) that
    still counts as its seller's while they preside."""
    if corporation.president_certificate_kept_by is not president:
        return 0
    return corporation.president_certificate_kept * corporation.share_percent


def _forget_dumped_certificate(corporation: Corporation) -> None:
    """The president's certificate is held again (or the company left play): no president
    without it, nothing of it counted as kept or sold."""
    corporation.president_without_certificate = None
    corporation.president_certificate_kept_by = None
    corporation.president_certificate_kept = 0
    corporation.president_certificate_sold = 0
