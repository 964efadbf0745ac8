"""18USA stock rounds (rule 11): the round, and the steps of a company being started (11.6).

A turn is the player's own (sell, sell one short, then buy one certificate or start a company)
or a company's (loans, then buying its own shares from the open market, 11.7). Starting a
company runs through steps in front of the turn step: the home station, the auction, the size,
the privates contributed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.actions import Action, Bid, LayTile, Pass, PlaceToken
from engine.core.entities import Corporation, Holder, Player
from engine.core.family1817.stock import FamilyStockRound
from engine.core.round import Round, RoundSpec
from engine.core.step import Handler, Move, Step, command_word
from engine.errors import GameError
from engine.titles.g18usa import ipo as ipos
from engine.titles.g18usa.actions import Assign, Choose
from engine.titles.g18usa.stations import check_station, city_of, place_station
from engine.titles.g18usa.track import DENVER_UNSET, TrackTurn, apply_lay, check_lay, legal_lays
from engine.titles.g18usa.usa_game import usa_game as _usa

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.titles.g18usa.game import G18USA


@dataclass
class UsaStockRound(FamilyStockRound):
    """18USA's stock round, with the auction that starts a company (11.6)."""

    ipo: ipos.Ipo | None = None  # the company being started (11.6)

    name: ClassVar[str] = "Stock Round"

    def acting_players(self, game: BaseGame) -> list[Player]:
        """While a company without a president must act (its home station), the site lists every
        player, in the round's order."""
        entity = self.acting_entity(game)
        if isinstance(entity, Corporation) and entity.president() is None:
            start = game.priority_index
            return [game.players[(start + i) % len(game.players)] for i in range(len(game.players))
                    if not game.players[(start + i) % len(game.players)].bankrupt]
        return super().acting_players(game)


def _stock(rnd: Round) -> UsaStockRound:
    assert isinstance(rnd, UsaStockRound)
    return rnd


def _ipo(rnd: Round) -> ipos.Ipo:
    ipo = _stock(rnd).ipo
    if ipo is None:
        raise GameError("no company is being started")
    return ipo


def end_ipo(game: G18USA, rnd: UsaStockRound) -> None:
    """The company is started: funded, and the turn goes on to the left of the player who
    started the auction (11.6)."""
    ipo = _ipo(rnd)
    rnd.started.add(ipo.corporation.id)
    rnd.ipo = None
    rnd.last_to_act = ipo.starter
    rnd.current_index = game.players.index(ipo.starter)
    rnd.turn_state.bought = True
    rnd.end_turn(game)


class HomeTokenStep(Step):
    """Rule 11.6 step 2: the new company's first station, in any open slot on the map."""

    key = "home_token"
    label = "place the home station"

    def handlers(self) -> Mapping[str, Handler]:
        return {"place_token": self.process_place}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        ipo = _stock(rnd).ipo
        return ipo is not None and ipo.home is None

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        return _ipo(rnd).corporation

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["place_token"] if entity is _ipo(rnd).corporation else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        ipo = _stock(rnd).ipo
        if ipo is None or ipo.home is not None:
            return None
        return (f"{ipo.corporation.id}'s home station must be placed first with "
                f"{command_word(game, 'place_token', ipo.corporation)} (11.6)")

    def process_place(self, game: BaseGame, rnd: Round, entity: Holder, action: PlaceToken) -> None:
        usa = _usa(game)
        ipo = _ipo(rnd)
        corporation = ipo.corporation
        coord, city = city_of(usa.umap, action.city)
        place = check_station(usa.umap, corporation.id, coord, city, None)
        reason = ipos.home_refusal(usa, ipo, coord)
        if reason:
            raise GameError(reason)
        place_station(usa.umap, corporation.id, place)
        ipo.home = coord
        usa.home_hexes[corporation.id] = coord
        ipo.subsidy_cash = ipos.cash_subsidy(usa, coord)
        game.log.append(f"{corporation.id}'s home station goes in {coord}")
        settle(usa, ipo)
        progress(usa, _stock(rnd))

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        usa = _usa(game)
        ipo = _ipo(rnd)
        corporation = ipo.corporation
        choices = []
        for coord, state in usa.board.hexes.items():
            if ipos.home_refusal(usa, ipo, coord):
                continue
            for city in range(len(state.tokens)):
                try:
                    check_station(usa.umap, corporation.id, coord, city, None)
                except GameError:
                    continue
                stop = state.tile.stop("city", city)
                choices.append({"city": f"{state.tile_id}-{stop.part_index}", "hex": coord})
        return [{"type": "place_token", "entity": corporation.id, "entity_type": "corporation",
                 "choices": choices}]

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        return isinstance(action, PlaceToken) and choice["city"] == action.city


def drop_unable_bidders(game: G18USA, ipo: ipos.Ipo, subsidy_cash: int) -> None:
    """After each bid (the opening one too) the site drops every player who cannot bid more than
    it: cash, privates' face value and `subsidy_cash` (for the opening bid the best subsidy still
    open, the home not being placed yet; after it the home's). Passes drop nobody else."""
    ipo.bidders = [p for p in ipo.bidders
                   if p is ipo.leader or ipos.can_outbid(game, p, ipo.price, subsidy_cash)]


def settle(game: G18USA, ipo: ipos.Ipo) -> None:
    """The next bidder is never the leader; with one bidder left the company is theirs."""
    while ipo.bidders and ipo.bidders[0] is ipo.leader and len(ipo.bidders) > 1:
        ipo.bidders.append(ipo.bidders.pop(0))
    if len(ipo.bidders) <= 1:
        ipos.win(game, ipo)


class IpoBidStep(Step):
    """Rule 11.6 step 4: raises of at least $1 in turn, or pass and leave the auction."""

    key = "ipo_bid"
    label = "bid for the president's certificate"

    def handlers(self) -> Mapping[str, Handler]:
        return {"bid": self.process_bid, "pass": self.process_pass}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        ipo = _stock(rnd).ipo
        return ipo is not None and ipo.home is not None and not ipo.won

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        return _ipo(rnd).bidders[0]

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["bid", "pass"] if entity is self.acting_entity(game, rnd) else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        ipo = _stock(rnd).ipo
        if ipo is None or ipo.won or ipo.home is None:
            return None
        return f"the auction for {ipo.corporation.id} is running; it is {ipo.bidders[0].name}'s turn to bid"

    def process_bid(self, game: BaseGame, rnd: Round, entity: Holder, action: Bid) -> None:
        usa = _usa(game)
        ipo = _ipo(rnd)
        player = ipo.bidders[0]
        assert isinstance(entity, Player)
        if action.corporation != ipo.corporation.id:
            raise GameError(f"the auction is for {ipo.corporation.id}")
        price = action.price
        if price is None or price <= ipo.price:
            raise GameError(f"a bid for {ipo.corporation.id} must be more than ${ipo.price}")
        most = ipos.max_bid(usa, player, ipo)
        if price > most:
            raise GameError(f"{player.name} can bid at most ${most} (cash and privates' face value, 11.6)")
        ipo.price, ipo.leader = price, player
        ipo.bidders.append(ipo.bidders.pop(0))
        game.log.append(f"{player.name} bids ${price} for {ipo.corporation.id}")
        drop_unable_bidders(usa, ipo, ipo.subsidy_cash)
        settle(usa, ipo)
        progress(usa, _stock(rnd))

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        ipo = _ipo(rnd)
        player = ipo.bidders.pop(0)
        game.log.append(f"{player.name} leaves the auction for {ipo.corporation.id}")
        settle(_usa(game), ipo)
        progress(_usa(game), _stock(rnd))

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        ipo = _ipo(rnd)
        player = ipo.bidders[0]
        most = ipos.max_bid(_usa(game), player, ipo)
        moves: list[Move] = []
        if most > ipo.price:
            moves.append({"type": "bid", "entity": player.id, "choices": [
                {"corporation": ipo.corporation.id, "min": ipo.price + 1, "max": most}]})
        return moves + [{"type": "pass", "entity": player.id}]

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, Bid):
            return (choice["corporation"] == action.corporation and action.price is not None
                    and choice["min"] <= action.price <= choice["max"])
        return super().matches(game, choice, action)


class IpoSizeStep(Step):
    """Rule 11.6 step 5: the winner chooses 2, 5 or 10 shares, as the phase allows."""

    key = "ipo_size"
    label = "choose the company's size"

    def handlers(self) -> Mapping[str, Handler]:
        return {"choose": self.process_choose}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        ipo = _stock(rnd).ipo
        return ipo is not None and ipo.won and ipo.size is None

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        return _ipo(rnd).leader

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["choose"] if entity is self.acting_entity(game, rnd) else []

    def process_choose(self, game: BaseGame, rnd: Round, entity: Holder, action: Choose) -> None:
        usa = _usa(game)
        ipo = _ipo(rnd)
        try:
            size = int(action.choice)
        except (TypeError, ValueError):
            raise GameError(f"choose the size as a number: {usa.corporation_sizes()}") from None
        ipos.set_size(usa, ipo, size)
        progress(usa, _stock(rnd))

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        ipo = _ipo(rnd)
        return [{"type": "choose", "entity": ipo.leader.id,
                 "choices": [{"choice": size} for size in _usa(game).corporation_sizes()]}]

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        return isinstance(action, Choose) and str(choice["choice"]) == str(action.choice)


def progress(game: G18USA, rnd: UsaStockRound) -> None:
    """A started company with its size, nothing left to contribute (or the winner done with it)
    and Denver's orientation chosen where it starts there is funded at once."""
    ipo = rnd.ipo
    if ipo is None or not ipo.won or ipo.size is None:
        return
    if not ipo.contributions_done and not ipos.contributable(game, ipo):
        ipo.contributions_done = True
    if ipo.contributions_done and not ipo.funded:
        # Funded (its stations bought) once the privates are in, before Denver's tile if that is
        # still to lay.
        ipos.finish(game, ipo)
        ipo.funded = True
    if ipo.contributions_done and not denver_home_open(game, ipo):
        end_ipo(game, rnd)


class ContributeStep(Step):
    """Rule 11.6 step 7: the winner gives privates to the new company, one at a time, or passes."""

    key = "contribute"
    label = "contribute private companies"

    def handlers(self) -> Mapping[str, Handler]:
        return {"assign": self.process_assign, "pass": self.process_pass, "lay_tile": self.process_lay}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        ipo = _stock(rnd).ipo
        return ipo is not None and ipo.won and ipo.size is not None

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        ipo = _ipo(rnd)
        return ipo.corporation if ipo.contributions_done else ipo.leader

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        ipo = _ipo(rnd)
        if entity is ipo.corporation:
            return ["lay_tile"] if denver_home_open(_usa(game), ipo) else []
        if entity is not ipo.leader or ipo.contributions_done:
            return []
        return ["assign", "pass"]

    def process_assign(self, game: BaseGame, rnd: Round, entity: Holder, action: Assign) -> None:
        usa = _usa(game)
        ipo = _ipo(rnd)
        company = usa.companies.get(str(action.target))
        if company is None or action.target_type != "company":
            raise GameError(f"contribute a private company you own, not {action.target!r}")
        ipos.contribute(usa, ipo, company)
        progress(usa, _stock(rnd))

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        ipo = _ipo(rnd)
        if ipo.leader.cash < 0:
            raise GameError(f"{ipo.leader.name} still owes ${-ipo.leader.cash} more than their cash for "
                            f"{ipo.corporation.id}: contribute private companies first (11.6)")
        ipo.contributions_done = True
        progress(_usa(game), _stock(rnd))

    def process_lay(self, game: BaseGame, rnd: Round, entity: Holder, action: LayTile) -> None:
        """12.2.3: a company starting in Denver chooses the orientation of its metropolis tile, at
        its start (the site asks for it before or after the privates are contributed)."""
        usa = _usa(game)
        ipo = _ipo(rnd)
        lay = check_lay(usa.umap, _start_turn(usa, ipo), ipo.corporation.id, action.hex, action.tile,
                        action.rotation)
        if lay.nature != "denver":
            raise GameError(f"{ipo.corporation.id} lays no track while it starts; only Denver's "
                            f"orientation is chosen now, in {ipo.home}")
        apply_lay(usa.umap, lay)
        usa.last_tile_hexes = [action.hex]
        game.log.append(f"{ipo.corporation.id} lays Denver's metropolis tile in {action.hex} "
                        f"(rotation {action.rotation})")
        progress(usa, _stock(rnd))

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        usa = _usa(game)
        ipo = _ipo(rnd)
        moves: list[Move] = []
        if not ipo.contributions_done:
            choices = [{"target": company.id, "target_type": "company"}
                       for company in ipos.contributable(usa, ipo)]
            moves.append({"type": "assign", "entity": ipo.leader.id, "choices": choices})
            # The winner's bid counted their privates: while it is more than their cash, they give them.
            if ipo.leader.cash >= 0:
                moves.append({"type": "pass", "entity": ipo.leader.id})
        if denver_home_open(usa, ipo):
            lays = [choice for choice in legal_lays(usa.umap, _start_turn(usa, ipo)) if choice["hex"] == ipo.home]
            moves.append({"type": "lay_tile", "entity": ipo.corporation.id, "entity_type": "corporation",
                          "choices": lays})
        return moves

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, LayTile):
            return choice["hex"] == action.hex and any(
                tile["tile"].rsplit("-", 1)[0] == action.tile.rsplit("-", 1)[0] and action.rotation in tile["rotations"]
                for tile in choice["tiles"])
        return super().matches(game, choice, action)


def denver_home_open(game: G18USA, ipo: ipos.Ipo) -> bool:
    """The company starts in Denver while its metropolis tile's orientation is still open."""
    return ipo.home is not None and game.board.hexes[ipo.home].tile.name == DENVER_UNSET


def _start_turn(game: G18USA, ipo: ipos.Ipo) -> TrackTurn:
    return TrackTurn(ipo.corporation.id, game.phase.name, home=ipo.home, first_turn=True)


def stock_round_spec() -> RoundSpec:
    from engine.titles.g18usa.stock_turn import UsaStockStep

    return RoundSpec(UsaStockRound, (HomeTokenStep(), IpoBidStep(), IpoSizeStep(), ContributeStep(),
                                     UsaStockStep()))
