"""18USA rule 11.6: starting a company. The president's certificate is auctioned from $100; the
starter first puts the home station on the map; the winner chooses the size the phase allows,
contributes privates, and the company is funded (subsidies 11.6.1, station tokens by size).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.core.entities import Company, Corporation, Player
from engine.core.family1817.market import liquidate
from engine.core.services.market import Cell
from engine.errors import GameError
from engine.titles.g18usa import phases as usa_phases
from engine.titles.g18usa.setup import MAX_START_300
from engine.titles.g18usa.stations import claim_subsidy

if TYPE_CHECKING:
    from engine.titles.g18usa.game import G18USA

MIN_BID = 100
MAX_START_PRICE = 200
LATE_MAX_START_PRICE = 300  # rule 17's variant, from phase 5
LATE_START_PHASE = "5"
EXTRA_TOKENS = {2: 0, 5: 1, 10: 3}
BAILEY_YARD = "P23"
CARNEGIE = "P10"
BANKRUPT_RAILROAD = "P29"
PYRAMID_SCHEME = "P14"  # counts toward the funding, then closes (s8603 at 858)
# Subsidies the company keeps as a power to use later; the others act at once or mark the map.
HELD_SUBSIDIES = ("boomtown", "free_station", "resource", "none")


@dataclass
class Ipo:
    """A company being started in a stock round."""

    corporation: Corporation
    starter: Player
    price: int
    leader: Player
    bidders: list[Player]  # still in, the next to act first
    home: str | None = None
    won: bool = False
    size: int | None = None
    owed: int = 0  # what the winner still pays (privates contributed lower it)
    contributed: list[str] = field(default_factory=list)
    contributions_done: bool = False  # the winner passed, or has no private left to give
    funded: bool = False  # `finish` has run
    subsidy_cash: int = 0


def max_bid(game: G18USA, player: Player, ipo: Ipo | None) -> int:
    """Cash plus the face value of the player's privates (11.6), plus a cash subsidy in the home."""
    bonus = ipo.subsidy_cash if ipo is not None else 0
    return bidding_power(game, player) + bonus


def bidding_power(game: G18USA, player: Player) -> int:
    """What a player can bid before any subsidy: nothing at the certificate limit (winning would
    take them over it, 11.4), else cash plus their privates' face value (11.6)."""
    if game.certificate_count(player) >= game.cert_limit:
        return 0
    privates = sum(company.value for company in game.companies_of(player) if company.id.startswith("P"))
    return player.cash + privates


def opening_max_bid(game: G18USA, player: Player) -> int:
    """The most `player` may open an auction with (11.6, 11.6.1). The rulebook's starter chooses
    the home before bidding, and a cash subsidy there counts as cash in hand (the appendix's
    Portland example: $76 of the player's and the $30 subsidy start a company at $106). Here the
    bid comes first, so it may count the best cash subsidy still open; the home must then be a
    city whose subsidy covers the rest (`home_refusal`)."""
    power = bidding_power(game, player)
    return power + best_open_subsidy(game) if power else 0


def home_refusal(game: G18USA, ipo: Ipo, coord: str) -> str | None:
    """Why the opening bid could not be paid with `coord` as the home, or None."""
    most = bidding_power(game, ipo.leader) + cash_subsidy(game, coord)
    if ipo.price <= most:
        return None
    return (f"{ipo.leader.name} bid ${ipo.price} for {ipo.corporation.id}; with the home in {coord} "
            f"they can pay at most ${most} (cash, privates' face value and the city's cash subsidy, 11.6.1)")


def best_open_subsidy(game: G18USA) -> int:
    """The largest cash subsidy a home station could still claim: while the home is not yet
    placed, the site counts it in every player's reach."""
    cash = [int(company.ability.get("cash") or 0) for subsidy in game.umap.open_subsidies.values()
            if (company := game.companies.get(subsidy)) is not None]
    return max(cash, default=0)


def can_outbid(game: G18USA, player: Player, price: int, subsidy_cash: int) -> bool:
    return bidding_power(game, player) + subsidy_cash > price


def max_start_price(game: G18USA) -> int:
    """$200 (11.6); with rule 17's variant $300 once the first 5-train is bought or exported."""
    if game.option(MAX_START_300) and game.phase_at_least(LATE_START_PHASE):
        return LATE_MAX_START_PRICE
    return MAX_START_PRICE


def start_cells(game: G18USA) -> list[Cell]:
    """The market cells a company may start on: the starting prices and, under the variant, the
    ordinary cells above them up to the maximum."""
    most = max_start_price(game)
    return [cell for cell in game.market.cells.values()
            if cell.price <= most and (cell.is_par or (not cell.types and cell.price > MAX_START_PRICE))]


def start_price(game: G18USA, bid: int) -> int:
    """Half the bid, rounded down to a market price between $50 and the maximum."""
    target = bid // 2
    prices = [cell.price for cell in start_cells(game) if cell.price <= target]
    if not prices:
        raise GameError(f"a bid of ${bid} gives no starting price; the minimum bid is ${MIN_BID}")
    return max(prices)


def liquidate_underfunded(game: G18USA, started: set[str]) -> None:
    """Rule 17's $300 variant, in every phase: a company started this stock round whose players
    hold less than half its shares goes into liquidation."""
    for corporation_id in sorted(started):
        corporation = game.corporations[corporation_id]
        held = sum(corporation.percent_owned_by(player) for player in game.players)
        if held < 50 and corporation.id in game.market.position:
            liquidate(game, corporation, f"its players hold {held}% of it at the end of its first stock round (17)")


def cash_subsidy(game: G18USA, home: str | None) -> int:
    if home is None:
        return 0
    subsidy = game.umap.open_subsidies.get(home)
    company = game.companies.get(subsidy or "")
    if company is None:
        return 0
    return int(company.ability.get("cash") or 0)


def win(game: G18USA, ipo: Ipo) -> None:
    """The auction is over: the share price is set, the winner pays, the company is funded."""
    corporation, winner = ipo.corporation, ipo.leader
    ipo.won = True
    price = start_price(game, ipo.price)
    cell = next(cell for cell in start_cells(game) if cell.price == price)
    game.market.place(corporation.id, cell)
    corporation.ipoed = True
    corporation.floated = True
    subsidy = claim_subsidy(game.umap, ipo.home) if ipo.home else None
    if subsidy is not None:
        company = game.companies[subsidy]
        if company.ability.get("kind") in HELD_SUBSIDIES:
            company.owner = corporation
        else:
            company.closed = True
    paid = ipo.price - ipo.subsidy_cash
    game.transfer(winner, game.bank, paid) if winner.cash >= paid else _overdraw(game, winner, paid)
    game.transfer(game.bank, corporation, 2 * price)
    ipo.owed = paid
    game.ledger.move(corporation.president_share(), winner)
    game.programs.note_engine_par(winner.key, corporation.id)  # others' standing orders see a start
    game.log.append(f"{winner.name} wins the auction for {corporation.id} at ${ipo.price}; it starts at ${price}")
    if len(game.corporation_sizes()) == 1:
        set_size(game, ipo, game.corporation_sizes()[0])


def _overdraw(game: G18USA, player: Player, amount: int) -> None:
    """The winner may owe more than their cash until their privates are contributed (11.6)."""
    player.cash -= amount
    game.bank.cash += amount


def set_size(game: G18USA, ipo: Ipo, size: int) -> None:
    allowed = game.corporation_sizes()
    if size not in allowed:
        raise GameError(f"a company started now has {', '.join(map(str, allowed))} shares; not {size} (8)")
    corporation = ipo.corporation
    ipo.size = size
    if size != 2:
        holder = corporation.president_share().owner
        game.ledger.create(corporation, shares=size, president_shares=2)
        game.ledger.move(corporation.president_share(), holder)


def contributable(game: G18USA, ipo: Ipo) -> list[Company]:
    return [company for company in game.companies_of(ipo.leader) if company.id.startswith("P")]


def contribute(game: G18USA, ipo: Ipo, company: Company) -> None:
    """A private goes to the new company: the winner pays its face value less (never getting
    back more than they paid) and the treasury receives that much less (below $0 until the
    company is funded)."""
    corporation, winner = ipo.corporation, ipo.leader
    if company.owner is not winner or not company.id.startswith("P") or company.closed:
        names = ", ".join(c.id for c in contributable(game, ipo)) or "none"
        raise GameError(f"{winner.name} may contribute only their own privates: {names}")
    company.owner = corporation
    refund = min(company.value, ipo.owed)
    ipo.owed -= refund
    winner.cash += refund
    game.bank.cash -= refund
    # As on the site the treasury gives up the private's full face value, even below $0, while
    # privates are being contributed; `finish` brings a negative treasury back to $0.
    corporation.cash -= company.value
    game.bank.cash += company.value
    ipo.contributed.append(company.id)
    game.log.append(f"{winner.name} contributes {company.id} to {corporation.id}")
    if company.id == CARNEGIE and ipo.home:
        laid = game.umap.carnegie_metropolis(ipo.home)
        company.closed = True
        if laid:
            game.log.append(f"{ipo.home} becomes a metropolis")
    if company.id == BANKRUPT_RAILROAD and _home_had_no_subsidy(game, corporation):
        _free_train(game, corporation)
    if company.id in (BANKRUPT_RAILROAD, PYRAMID_SCHEME):
        company.closed = True


def _home_had_no_subsidy(game: G18USA, corporation: Corporation) -> bool:
    """Whether the company's home city held a "No Subsidy" tile (kept by the company until it is
    funded, `finish`)."""
    return any(is_no_subsidy(game, company) for company in game.companies_of(corporation))


def is_no_subsidy(game: G18USA, company: Company) -> bool:
    """A "No Subsidy" tile, or the Resource Subsidy when every resource's privates are in play:
    the appendix treats it "for all purposes as a No subsidy tile" (P29 gives its train there)."""
    kind = company.ability.get("kind")
    return kind == "none" or (kind == "resource" and not game.umap.setup.resource_subsidy_resources)


def _free_train(game: G18USA, corporation: Corporation) -> None:
    """P29's card: the company gets the bank's next train for nothing (a 2-train early on)."""
    train = game.depot.next_train()
    if train is None:
        return
    game.depot.take(train)
    corporation.trains.append(train)
    train.owner = corporation
    game.log.append(f"{corporation.id} receives a {train.name}-train from the bank for nothing (P29)")
    usa_phases.first_train(game, train)


def finish(game: G18USA, ipo: Ipo) -> None:
    """The company buys the station tokens its size needs (11.6), as far as its cash goes."""
    corporation = ipo.corporation
    if corporation.cash < 0:
        game.transfer(game.bank, corporation, -corporation.cash)
    for company in game.companies_of(corporation):
        # A "No Subsidy" tile matters only while the company starts (P29 looks at it).
        if is_no_subsidy(game, company):
            company.closed = True
    extra = EXTRA_TOKENS[ipo.size or 2]
    if game.owns(corporation, BAILEY_YARD):
        # P23's station is free: a 2-share company gets a second one, a larger company one of
        # those its size makes it buy (the site: 2, 2 and 4 stations for 2, 5 and 10 shares).
        corporation.token_count += 1
        extra = max(0, extra - 1)
    if extra:
        # Stations the company cannot pay for now it buys with its first loans; a company still
        # owing them at the end of the stock round goes into liquidation (11.6).
        game.tokens_owed[corporation.id] = extra
        game.buy_owed_tokens(corporation)
