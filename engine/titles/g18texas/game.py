"""18Texas: data, setup and the rules where it differs from the shared 1829-family core."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.board import HexState
from engine.core.commands import STANDARD, standard
from engine.core.entities import Company, Corporation, Player, Share, Train
from engine.core.game import BaseGame
from engine.core.graph import Reach
from engine.core.operating_round import OperatingRound
from engine.core.round import OperatingSet, RoundSequence, RoundSpec
from engine.core.steps.buy_train import BuyTrainStep
from engine.core.steps.dividend import DividendStep
from engine.core.steps.route import RouteStep
from engine.core.steps.shares import BuySellParShares
from engine.core.stock_round import StockRound
from engine.core.track import place_token
from engine.errors import GameError
from engine.titles.g18texas.abilities import PrivatePowersStep, TexasTokenStep, TexasTrackStep
from engine.titles.g18texas.auction import AuctionRound, JayGouldParStep, PrivateBidStep
from engine.titles.g18texas.issue import IssueRedeemStep

DATA_DIR = Path(__file__).with_name("data")


@cache
def load_data() -> dict[str, Any]:
    return {name: json.loads((DATA_DIR / f"{name}.json").read_text())
            for name in ("map", "tiles", "market", "entities")}


class G18Texas(BaseGame):
    TITLE = "18Texas"
    SOLD_OUT_MOVE = "up"
    ROUNDS = RoundSequence(opening=("auction",), cycle=("stock", OperatingSet(("operating",))))
    COMMANDS = (replace(STANDARD["bid"], description="Bid on a private company in the auction",
                        phrase="bid on a private company"),
                *standard("par", "buy", "sell", "pass", "lay", "token", "run", "dividend", "train",
                          "issue", "redeem", "discard", "bankrupt"))
    RULE_OPTIONS = {
        "site_auction_bids": "Auction bids need not be multiples of $5 (rule 10 says they must).",
        "site_y_city_terrain": "The first #511 on Dallas/Fort Worth (D9) or Houston (I14) pays the "
                               "$60 water cost, also through the G&RRRC (rules 12.2 and 5 say it is free).",
        "site_train_prices": "A train bought from any other company may cost any amount from $1 to the "
                             "buyer's treasury (rule 12.6: only between companies with the same president; "
                             "otherwise face value).",
        "site_tile_6_upgrades": "Tile 6 may also be upgraded to 619 (the rulebook chart allows 14 and 15).",
        "site_sell_after_dividend": "A company's shares may be sold once it has reached its dividend step, "
                                    "even later in that same first turn (rule 11.1: only after it has "
                                    "completed a turn).",
        "site_sticky_routes": "A company that has once had a route counts as having one for good, so "
                              "without trains it must buy one (rule 12.6 looks at the route it has now).",
        "site_ign_unconnected": "The two I&GN tiles need not be connected to each other (rule 5 says they must).",
        "site_emergency_sale_prices": "Shares a president sells for a compulsory train fetch the price they "
                                      "have when each sale is made, as on the site (rule 12.6: their value "
                                      "at the start of the train-buying action, even after earlier sales of "
                                      "the same company dropped it).",
        "site_emergency_company_trains": "A company that must buy a train may buy another company's train "
                                         "with its treasury alone, even when that is below the cheapest "
                                         "bank train, as long as it has more than $0 and its president "
                                         "has not sold shares for the purchase (rule 12.6: only a company "
                                         "with the resources may; otherwise the cheapest bank train).",
        "site_discard_order": "Companies over the train limit discard in the fixed order T&P, MKT, SP, MP, "
                              "SSW, SAA (rule 12.6: in descending share price, then furthest right, then "
                              "top of the stack).",
        "site_private_cards": "The private companies' powers as the site's cards give them: the I&GN keeps "
                              "D13 and E12 closed to other lays until it closes and lays only #8 and #9, "
                              "and the NOPR works only in phases 3-4 (rule 5: no block, any plain yellow "
                              "tiles, and the NOPR from phase 2).",
        "site_bankrupt_cash": "A bankrupt president's cash goes to the bank (rule 13: the player keeps it "
                              "and it counts in their wealth).",
        "site_repeat_sale_prices": "A second sale of a company in the same stock-round turn fetches the price "
                                   "the first sale dropped it to (rule 11.1: all the company's shares sold "
                                   "in one turn fetch the price before the turn's first sale of it).",
        "site_home_track": "A company may lay track away from its home hex once any of its stations has "
                           "track (rule 12.2: not while there is no track in its home hex itself, even "
                           "with a station placed by the G&RRRC or NOPR).",
        "site_any_runs": "A company may run any legal set of runs, even for less than its trains can earn "
                         "(rule 12.4: the highest earnings must be declared).",
        "site_private_station": "Right after the G&RRRC's or NOPR's #511, the private alone places the "
                                "company's station there or declines it with a pass, also where the "
                                "company cannot place one; declining leaves the company's own station "
                                "step (rule 5: the station is placed in the company's station step).",
    }

    def title_data(self) -> dict[str, Any]:
        return load_data()

    # --- setup (rule 7) --------------------------------------------------------------------------
    def setup(self) -> None:
        entities = self.data["entities"]
        for raw in entities["corporations"]:
            corp = Corporation(
                id=raw["id"], name=raw.get("rulebook_name") or raw["name"],
                color=raw["engine_color"], text_color="white" if raw["engine_color"] != "orange" else "black",
                token_count=raw["tokens"], token_fee=raw["token_fee"], home_hex=raw["home_hex"],
                home_city=raw["home_city_index"], float_percent=raw["float_percent"],
            )
            self.ledger.create(corp, shares=10, president_shares=2)
            self.corporations[corp.id] = corp
        count = len(self.players)
        for raw in entities["privates"]["companies"]:
            if raw.get("min_players", 0) > count:
                continue
            self.companies[raw["id"]] = Company(
                id=raw["id"], name=raw.get("rulebook_name") or raw["name"], value=raw["value"],
                revenue=raw["revenue"], ability=raw.get("ability", {}),
                text=raw.get("ability", {}).get("summary", ""),
            )
        corp_ids = [raw["id"] for raw in entities["corporations"]]
        self.jay_gould_corporation = corp_ids[self.rng.draw() % len(corp_ids)]
        jg_corp = self.corporations[self.jay_gould_corporation]
        self.company_shares: dict[str, list[Share]] = {"JG": [jg_corp.president_share()]}
        extra = [s for s in jg_corp.shares if not s.president]
        for company_id in ("IGN", "NOPR"):
            if company_id in self.companies:
                self.company_shares[company_id] = [extra.pop(0)]
        for company_id, shares in self.company_shares.items():
            for share in shares:
                self.ledger.move(share, self.companies[company_id])
        self.phase_private_close = "5"

    def round_specs(self) -> dict[str, RoundSpec]:
        return {
            "auction": RoundSpec(AuctionRound, (JayGouldParStep(), PrivateBidStep())),
            "stock": RoundSpec(StockRound, (BuySellParShares(),)),
            # Rule 12: track, station, runs, dividend, trains, then issue or redeem (12.7); the
            # privates' powers act alongside the company's own steps.
            "operating": RoundSpec(OperatingRound, (
                PrivatePowersStep(), TexasTrackStep(), TexasTokenStep(), RouteStep(), DividendStep(),
                BuyTrainStep(), IssueRedeemStep())),
        }

    def on_private_bought(self, company: Company) -> None:
        """The I&GN and NOPR come with a 10% share of the Jay Gould company (rule 5)."""
        if company.id == "JG":
            return
        for share in self.company_shares.get(company.id, []):
            assert isinstance(company.owner, Player)
            self.ledger.move(share, company.owner)

    def pending_jay_gould_par(self) -> Player | None:
        corp = self.corporations[self.jay_gould_corporation]
        owner = self.companies["JG"].owner
        if not corp.ipoed and isinstance(owner, Player):
            return owner
        return None

    def jay_gould_par(self, player: Player, cell: Any) -> None:
        """The Jay Gould buyer sets the par; the bank funds the shares given out in the auction."""
        corp = self.corporations[self.jay_gould_corporation]
        if cell is None or not cell.is_par:
            pars = ", ".join(f"${c.price} ({c.engine_id})" for c in self.market.par_cells())
            raise GameError(f"choose a par price from the par spaces: {pars}")
        self.par_corporation(player, corp, cell, pay=False)
        given = corp.percent_held_by_players()
        self.transfer(self.bank, corp, cell.price * given // 10)

    def blocking_companies(self, coord: str) -> list[Company]:
        """Rule 5: only the BB-B&C blocks a hex; the site's I&GN card blocks D13 and E12 too."""
        found = super().blocking_companies(coord)
        if self.option("site_private_cards"):
            return found
        return [company for company in found if company.ability.get("type") == "blocks_hexes"]

    def bankrupt(self, player: Player) -> None:
        """Rule 13: the game ends; a bankrupt player may still win, with their stock and cash
        (the site takes the cash: `site_bankrupt_cash`)."""
        if self.option("site_bankrupt_cash"):
            super().bankrupt(player)
            return
        player.bankrupt = True
        self.log.append(f"{player.name} is bankrupt")
        self.end_game("bankrupt")

    def home_first_problem(self, corporation: Corporation, reach: Reach) -> bool:
        """Rule 12.2 looks at the home hex; the site at all the company's track, so a station
        placed by the G&RRRC or NOPR lets it lay elsewhere (`site_home_track`)."""
        if self.option("site_home_track"):
            return not reach.paths
        return super().home_first_problem(corporation, reach)

    def turn_sales_at_first_price(self) -> bool:
        return not self.option("site_repeat_sale_prices")

    # --- stock rules (rule 11) -------------------------------------------------------------------
    def sell_blocked_reason(self, player: Player, corporation: Corporation) -> str | None:
        operated = corporation.has_paid if self.option("site_sell_after_dividend") else corporation.times_operated > 0
        if not operated:
            return f"{corporation.id} has not yet completed an operating turn, so its shares cannot be sold (11.1)"
        return None

    def on_float(self, corporation: Corporation) -> None:
        """Rule 11.2: token fee to the bank, home station, price up one row."""
        self.transfer(corporation, self.bank, corporation.token_fee)
        assert corporation.home_hex is not None
        state = self.board.hexes[corporation.home_hex]
        city = corporation.home_city if len(state.tokens) > corporation.home_city else 0
        slots = state.tokens[city]
        slot = next(index for index, token in enumerate(slots) if token is None)
        place_token(self, corporation, corporation.home_hex, city, slot)
        self.market.move(corporation.id, "up")

    # --- operating rules (rule 12) --------------------------------------------------------------
    def terrain_cost(self, state: HexState) -> int:
        if state.tile_laid:
            return 0
        if state.hexdef.color == "yellow":
            return state.hexdef.terrain_cost if self.option("site_y_city_terrain") else 0
        return state.hexdef.terrain_cost

    def no_token_hexes(self) -> set[str]:
        return set(self.data["map"].get("no_station_tokens", []))

    def must_run_for_the_most(self) -> bool:
        """Rule 12.4: "the highest legal earnings announced by any player must be declared"; on
        the site a president declares any legal runs (`site_any_runs`)."""
        return not self.option("site_any_runs")

    def sticky_routes(self) -> bool:
        return self.option("site_sticky_routes")

    def crowded_order(self, crowded: list[Corporation]) -> list[Corporation]:
        """Rule 12.6: descending share price, then furthest right, then top of the stack; the
        site goes through the companies in their fixed order."""
        if self.option("site_discard_order"):
            order = list(self.corporations)
            return sorted(crowded, key=lambda corp: order.index(corp.id))
        return super().crowded_order(crowded)

    def emergency_company_trains(self, corporation: Corporation, sold: bool) -> bool:
        """Rule 12.6: only a company with the resources may arrange to buy another company's
        train; the site lets any treasury above $0 buy one until the president has sold shares."""
        return self.option("site_emergency_company_trains") and corporation.cash > 0 and not sold

    def emergency_sales_at_start_price(self) -> bool:
        return not self.option("site_emergency_sale_prices")

    def dividend_kinds(self) -> list[str]:
        return ["payout", "half", "withhold"]

    def half_withheld(self, revenue: int) -> int:
        """Rule 12.5: the paid half is rounded up to a multiple of $10."""
        return revenue // 20 * 10

    def inter_company_price_ok(self, buyer: Corporation, seller: Corporation, train: Train,
                               price: int) -> str | None:
        if price < 1:
            return "a train costs at least $1"
        if price > buyer.cash:
            return f"{buyer.id} has only ${buyer.cash}"
        if self.option("site_train_prices") or buyer.president() is seller.president():
            return None
        if price != train.price:
            return (f"{seller.id} has another president, so its {train.name}-train is sold at face "
                    f"value, ${train.price} (12.6)")
        return None

    def inter_company_price_limits(self, buyer: Corporation, seller: Corporation,
                                   train: Train) -> tuple[int, int] | None:
        if self.option("site_train_prices") or buyer.president() is seller.president():
            return (1, buyer.cash) if buyer.cash >= 1 else None
        # Rule 12.6: from a company with another president, only at face value.
        return (train.price, train.price) if buyer.cash >= train.price else None

    def train_sale_consent(self, buyer: Corporation, train_id: str) -> Player | None:
        """Rule 12.6: a train from a company with another president needs that president's
        consent. The site's reading (`site_train_prices`) sells any train without asking."""
        return None if self.option("site_train_prices") else self.other_president_selling(buyer, train_id)

    def upgrade_targets(self, state: HexState) -> tuple[str, ...]:
        targets = self.board.upgrade_targets(state)
        if state.tile.name == "6" and not self.option("site_tile_6_upgrades"):
            return tuple(name for name in targets if name != "619")
        return targets
