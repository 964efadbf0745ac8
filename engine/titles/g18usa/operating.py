"""18USA operating rounds (rule 12): the round and its track and station steps.

A company's turn: loans at any time (9), private and subsidy powers beside the track step, track
(12.2, 13), stations (12.3), a Pullman before running (12.7), runs (12.4), earnings (12.5),
trains (12.6), interest (12.8), then repaying loans (12.9). Runs and trains are in
`operating_trains.py`; loans, interest, earnings and the round itself are the 1817 family's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.actions import Action, LayTile, Pass, PlaceToken
from engine.core.entities import Company, Corporation, Holder
from engine.core.family1817.loans import loan_refusal
from engine.core.family1817.operating import FamilyOperatingRound
from engine.core.graph import reach_of
from engine.core.lay_account import LayAccount
from engine.core.round import Round, RoundSpec
from engine.core.step import Handler, Move
from engine.core.steps.discard import crowded
from engine.core.steps.operating import OperatingStep, operating
from engine.errors import GameError
from engine.titles.g18usa import powers
from engine.titles.g18usa.resources import RESOURCE_PRIVATES, token_effect
from engine.titles.g18usa.stations import check_station, city_of, legal_stations, place_station
from engine.titles.g18usa.track import (
    CITY_YELLOW,
    DENVER_UNSET,
    LayRecord,
    TrackTurn,
    UsaLay,
    apply_lay,
    check_lay,
    legal_lays,
)
from engine.titles.g18usa.usa_game import usa_game as _usa

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.titles.g18usa.game import G18USA

TRACK_ENGINEERS = "P7"
BOOMTOWN = "S8"
GREAT_NORTHERN = "P17"
RESOURCE_SUBSIDY = "S16"
FREE_STATION = "S9"
IMPORT_EXPORT_HUB = "P6"
BOOMTOWN_PRIVATE = "P9"
LAW_FIRM = "P20"


@dataclass
class UsaOperatingRound(FamilyOperatingRound):
    """18USA's operating round: the tile lays and the attachments of the company operating."""

    name: ClassVar[str] = "Operating Round"
    lays: list[LayRecord] = field(default_factory=list)
    attachments: dict[str, str] = field(default_factory=dict)  # attachment -> train id, this run

    # The round's end (exports, 12.10) has run; the round may still wait for P13's choice.
    closing: bool = False
    # A train bought in this turn pushed companies over the limit; with the site's reading they
    # discard when the buying company's turn is over (`SITE_DISCARD_AFTER_BUYING`).
    discards_held: bool = False

    def turn_over(self, game: BaseGame) -> None:
        if self.discards_held:
            self.discards_held = False
            if crowded(game):
                return  # the discards first (the interrupting step); then the turn ends
        super().turn_over(game)

    def _next_corporation(self, game: BaseGame) -> None:
        self.lays = []
        self.attachments = {}
        self.discards_held = False
        super()._next_corporation(game)
        if self.finished and not self.closing:
            # An export may rust trains P13's company could save: the site holds the operating
            # round until it has chosen, so the round's end runs here, before it is finished.
            self.closing = True
            game.end_of_operating_round()
            self.finished = not _usa(game).boneyard_rusts

    def advance(self, game: BaseGame) -> bool:
        if self.closing and not self.finished and not _usa(game).boneyard_rusts:
            self.finished = True
            return True
        return super().advance(game)

    def finish(self, game: BaseGame) -> None:
        if not self.closing:
            super().finish(game)


def _round(rnd: Round) -> UsaOperatingRound:
    assert isinstance(rnd, UsaOperatingRound)
    return rnd


def budget(game: G18USA, corporation: Corporation) -> int:
    """Cash plus what the company could still borrow: the site's buying power."""
    if loan_refusal(game, corporation) is not None:
        return corporation.cash
    room = game.max_loans(corporation) - game.loans.count(corporation.id)
    left = game.loans.available()
    if left is not None:
        room = min(room, left)
    return corporation.cash + game.loans.value * max(room, 0)


def track_turn(game: G18USA, rnd: UsaOperatingRound) -> TrackTurn:
    corporation = rnd.corporation
    companies = game.companies_of(corporation)
    owned = frozenset(company.id for company in companies)
    # The resource tokens its privates still have (P21's one token is coal or ore).
    tokens = {resource: sum(powers.uses_left(company, powers.RESOURCE) for company in companies
                            if company.id in owners and company.id != "S16")
              for resource, owners in RESOURCE_PRIVATES.items()}
    return TrackTurn(corporation.id, game.phase.name, owned, game.home_hexes.get(corporation.id),
                     not corporation.has_paid, tuple(rnd.lays), tokens)


def denver_lay_open(game: G18USA, corporation: Corporation) -> bool:
    """Denver's orientation is still to be chosen and the company reaches it: the lay is outside
    the tile actions (12.2.3), so it stays open after them."""
    hexes = [coord for coord, state in game.board.hexes.items() if state.tile.name == DENVER_UNSET]
    if not hexes:
        return False
    reach = reach_of(game.board, corporation.id)
    return any(reach.hexes.get(coord) for coord in hexes)


def special_lay_open(game: G18USA, rnd: UsaOperatingRound) -> bool:
    """Whether something outside the company's tile actions is still open in its track step: the
    Boomtown subsidy (S8) on its yellow home city, the resource subsidy's lay (S16), P17's extra
    yellow tile not yet laid this round (even with every Great Northern hex laid: s8504 at 673), P9 while held (even with no yellow city
    in reach: s8602 at 316), P20 while the company has a station to place and a full city it
    could go in (s8401 at 561; not without such a city), P6's
    red area. As on the site, the track step waits."""
    corporation = rnd.corporation
    if game.owns(corporation, RESOURCE_SUBSIDY):
        return True
    home = game.home_hexes.get(corporation.id)
    if game.owns(corporation, BOOMTOWN) and not corporation.has_paid and home is not None:
        if game.board.hexes[home].tile.name in CITY_YELLOW and not game.umap.is_metropolis(home):
            return True
    if game.owns(corporation, GREAT_NORTHERN) and not any(r.entity == GREAT_NORTHERN for r in rnd.lays):
        return True
    if game.owns(corporation, BOOMTOWN_PRIVATE):
        return True
    if game.owns(corporation, LAW_FIRM) and game.tokens_left(corporation) > 0 \
            and any(None not in game.board.hexes[coord].tokens[city]
                    for coord, city in legal_stations(game.umap, corporation.id, LAW_FIRM)):
        return True  # a full city it could go in (the site's open ones do not hold the step)
    return red_area_power_open(game, corporation)


def red_area_power_open(game: G18USA, corporation: Corporation) -> bool:
    """P6 not yet used while the company reaches a red area: it is used in the track step, and
    the site keeps the step open for it (not for P8, whose marker goes in the same step: the
    logs show the site going straight on to the run)."""
    if not game.owns(corporation, IMPORT_EXPORT_HUB):
        return False
    return any(game.umap.red_area_hexes(node[0]) for node in reach_of(game.board, corporation.id).nodes)


def tile_actions_used(rnd: UsaOperatingRound) -> int:
    return sum(1 for record in rnd.lays if record.action)


def tile_action_limit(game: G18USA, corporation: Corporation) -> int:
    return 3 if game.owns(corporation, TRACK_ENGINEERS) else 2


class UsaTrackStep(OperatingStep):
    """Rule 12.2: the company's tile actions (the first free, a second for $20)."""

    key = "track"
    label = "lay track"

    def handlers(self) -> Mapping[str, Handler]:
        return {"lay_tile": self.process_lay, "pass": self.process_pass}

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        usa = _usa(game)
        orr = _round(rnd)
        used = tile_actions_used(orr)
        # Only the second tile action costs $20 (P7's third is free again).
        if used >= tile_action_limit(usa, orr.corporation) or used == 1 and budget(usa, orr.corporation) < 20:
            if denver_lay_open(usa, orr.corporation):
                return ["lay_tile", "pass"]
            return ["pass"] if special_lay_open(usa, orr) else []
        return ["lay_tile", "pass"]

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        corporation = self.operator(rnd, entity)
        boomtown = game.companies.get(BOOMTOWN)
        if boomtown is not None and boomtown.owner is corporation:
            boomtown.closed = True  # the subsidy is for the first track step only
        self.done(rnd)

    def process_lay(self, game: BaseGame, rnd: Round, entity: Holder, action: LayTile) -> None:
        usa = _usa(game)
        orr = _round(rnd)
        corporation = self.operator(rnd, entity)
        lay_tile(usa, orr, corporation, corporation.id, action)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        kinds = self.own_actions(game, rnd)
        if "lay_tile" not in kinds:
            return [{"type": "pass", "entity": _round(rnd).corporation.id}] if kinds else []
        usa = _usa(game)
        orr = _round(rnd)
        corp = orr.corporation
        lays = affordable(legal_lays(usa.umap, track_turn(usa, orr)), corp.cash)
        moves: list[Move] = []
        if lays:
            moves.append({"type": "lay_tile", "entity": corp.id, "choices": lays})
        return moves + [{"type": "pass", "entity": corp.id}]

    def offers(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> bool:
        # The pass is offered whenever the step is (see legal_moves): no need to list the lays.
        return isinstance(action, Pass) or super().offers(game, rnd, entity, action)

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        return lay_matches(choice, action) if isinstance(action, LayTile) else super().matches(game, choice, action)


def lay_matches(choice: Mapping[str, Any], action: LayTile) -> bool:
    """Whether the lay is one of the hex's offered tiles and rotations (any free copy of the tile)."""
    return choice["hex"] == action.hex and any(
        tile["tile"].rsplit("-", 1)[0] == action.tile.rsplit("-", 1)[0] and action.rotation in tile["rotations"]
        for tile in choice["tiles"])


def affordable(lays: list[dict[str, Any]], cash: int) -> list[dict[str, Any]]:
    """The lays the company can pay for: a hex stays offered with the tiles it can afford."""
    kept = []
    for choice in lays:
        tiles = [tile for tile in choice["tiles"] if tile["cost"] <= cash]
        if tiles:
            kept.append({**choice, "tiles": tiles})
    return kept


def lay_tile(game: G18USA, rnd: UsaOperatingRound, corporation: Corporation, entity: str, action: LayTile) -> None:
    """Check and apply a lay by the company or one of its privates/subsidies."""
    turn = track_turn(game, rnd)
    lay = check_lay(game.umap, turn, entity, action.hex, action.tile, action.rotation)
    if lay.cost > corporation.cash:
        raise GameError(f"the lay costs ${lay.cost}; {corporation.id} has ${corporation.cash}")
    if lay.cost:
        game.transfer(corporation, game.bank, lay.cost)
    apply_lay(game.umap, lay)
    rnd.lays.append(lay.record(game.umap, entity))
    game.last_tile_hexes = [action.hex]
    sources = game.after_lay(corporation, entity, lay)
    game.log.append(lay_account(game, corporation, entity, lay, sources).line())


def lay_account(game: G18USA, corporation: Corporation, entity: str, lay: UsaLay,
                sources: Mapping[str, str]) -> LayAccount:
    """What the lay did, for the log: the printed tile, the power that laid it, the resource
    tokens it carries (whose, and what they add to runs), what was paid and what was spared."""
    umap = game.umap

    def named(company_id: str) -> str:
        company = game.companies.get(company_id)
        return f"{company_id} {company.name}" if company is not None else company_id

    power = entity if entity != corporation.id else lay.nature if lay.nature in game.companies else ""
    also = []
    for resource in umap.tile_resources(lay.tile):
        # An upgrade keeps the tokens of the tile it replaces: only new ones are news.
        effect = token_effect(umap, lay.tile, resource, game.phase.name)
        source = sources.get(resource)
        if lay.turns_ore and resource == "ore":
            also.append(f"turns the {resource} token over ({effect})")
        elif source is not None:
            whose = "its" if source == power else f"{source}'s"
            also.append(f"places {whose} {resource} token ({effect})")
    spared = tuple((named(what), amount) for what, amount in lay.spared)
    return LayAccount(corporation.id, umap.base_tile(lay.tile), lay.coord, lay.rotation,
                      named(power) if power else "", tuple(also), lay.charges, spared)


class SpecialTrackStep(OperatingStep):
    """Lays by the company's privates and subsidies (P9, P16, P17, P26, P27, S8, S16), beside
    its own track step."""

    key = "special_track"
    label = "lay track with a private company"
    blocking = False

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return getattr(rnd, "turn", None) is not None

    def handlers(self) -> Mapping[str, Handler]:
        return {"lay_tile": self.process_lay}

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        turn = getattr(rnd, "turn", None)
        if turn is None or not isinstance(entity, Company) or entity.owner is not turn.corporation:
            return []
        if "track" in turn.done_steps and entity.id not in ("P17",):
            return []
        return ["lay_tile"] if _lays_tiles(entity) else []

    def process_lay(self, game: BaseGame, rnd: Round, entity: Holder, action: LayTile) -> None:
        usa = _usa(game)
        orr = _round(rnd)
        assert isinstance(entity, Company)
        lay_tile(usa, orr, orr.corporation, entity.id, action)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        """For each of the operating company's privates and subsidies that lays track now, the
        lays its own rules allow (paid by the company)."""
        usa = _usa(game)
        orr = _round(rnd)
        corp = orr.corporation
        moves: list[Move] = []
        turn = None
        for company in usa.companies_of(corp):
            if not self.actions(game, rnd, company):
                continue
            turn = turn or track_turn(usa, orr)
            lays = affordable(legal_lays(usa.umap, turn, company.id), corp.cash)
            if lays:
                moves.append({"type": "lay_tile", "entity": company.id, "entity_type": "company",
                              "choices": lays})
        return moves

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        return lay_matches(choice, action) if isinstance(action, LayTile) else super().matches(game, choice, action)


def _lays_tiles(company: Company) -> bool:
    kind = company.ability.get("type") or company.ability.get("kind")
    return kind in ("free_city_upgrade", "special_tile", "extra_yellow_lay_and_bonus", "boomtown", "resource")


class UsaTokenStep(OperatingStep):
    """Rule 12.3: one station from the charter in a reachable open slot (free to place)."""

    key = "token"
    label = "place a station"

    def handlers(self) -> Mapping[str, Handler]:
        return {"place_token": self.process_place, "pass": self.process_pass}

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        usa = _usa(game)
        corp = operating(rnd).corporation
        if usa.tokens_left(corp) <= 0:
            return []
        # Asked before every move of the turn: the first city that takes a station answers.
        if next(self._cities(usa, corp), None) is None:
            return []
        return ["place_token", "pass"]

    def cities(self, game: G18USA, corp: Corporation) -> list[tuple[str, int]]:
        """(hex, city) of every city where the company may place a station now, in map order."""
        return list(self._cities(game, corp))

    @staticmethod
    def _cities(game: G18USA, corp: Corporation) -> Iterator[tuple[str, int]]:
        reach = reach_of(game.board, corp.id)
        for coord, kind, index in sorted(reach.nodes):
            if kind != "city":
                continue
            try:
                check_station(game.umap, corp.id, coord, index, reach)
            except GameError:
                continue
            yield coord, index

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        self.operator(rnd, entity)
        self.done(rnd)

    def process_place(self, game: BaseGame, rnd: Round, entity: Holder, action: PlaceToken) -> None:
        usa = _usa(game)
        corp = self.operator(rnd, entity)
        coord, city = city_of(usa.umap, action.city)
        place = check_station(usa.umap, corp.id, coord, city, reach_of(usa.board, corp.id))
        place_station(usa.umap, corp.id, place)
        game.log.append(f"{corp.id} places a station in {coord}")
        self.done(rnd)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        usa = _usa(game)
        corp = operating(rnd).corporation
        if not self.own_actions(game, rnd):
            return []
        choices = [{"city": city_id(usa, coord, index), "hex": coord} for coord, index in self.cities(usa, corp)]
        return [{"type": "place_token", "entity": corp.id, "choices": choices},
                {"type": "pass", "entity": corp.id}]

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, PlaceToken):
            return bool(choice["city"] == action.city)
        return super().matches(game, choice, action)


class SpecialTokenStep(OperatingStep):
    """S9's free station (any reachable city, even a full one) and P20's extra one."""

    key = "special_token"
    label = "place a station with a private company"
    blocking = False

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return getattr(rnd, "turn", None) is not None

    def handlers(self) -> Mapping[str, Handler]:
        return {"place_token": self.process_place}

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        turn = getattr(rnd, "turn", None)
        if turn is None or not isinstance(entity, Company) or entity.owner is not turn.corporation:
            return []
        if entity.id == LAW_FIRM and _usa(game).tokens_left(operating(rnd).corporation) <= 0:
            return []  # P20 places one of the company's own unplaced stations
        return ["place_token"] if entity.id in (FREE_STATION, LAW_FIRM) and not entity.closed else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        """Why the company's S9 or P20 may not place a station now."""
        turn = getattr(rnd, "turn", None)
        if action.type != "place_token" or turn is None or not isinstance(entity, Company) \
                or entity.id not in (FREE_STATION, LAW_FIRM) or entity.owner is not turn.corporation:
            return None
        if entity.closed:
            return f"{entity.id} ({entity.name}) places one station; it has been used and has closed"
        return f"{LAW_FIRM} places one of {operating(rnd).corporation.id}'s unplaced stations; it has none left"

    def process_place(self, game: BaseGame, rnd: Round, entity: Holder, action: PlaceToken) -> None:
        usa = _usa(game)
        corp = operating(rnd).corporation
        assert isinstance(entity, Company)
        coord, city = city_of(usa.umap, action.city)
        place = check_station(usa.umap, corp.id, coord, city, reach_of(usa.board, corp.id), entity.id)
        place_station(usa.umap, corp.id, place)
        if entity.id == FREE_STATION:
            corp.token_count += 1
        entity.closed = True
        game.log.append(f"{corp.id} places a station in {coord} with {entity.id}")

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        """For S9 or P20 owned by the operating company, the cities it may put the station in."""
        usa = _usa(game)
        corp = operating(rnd).corporation
        moves: list[Move] = []
        for company in usa.companies_of(corp):
            if not self.actions(game, rnd, company):
                continue
            choices = [{"city": city_id(usa, coord, index), "hex": coord}
                       for coord, index in legal_stations(usa.umap, corp.id, company.id)]
            if choices:
                moves.append({"type": "place_token", "entity": company.id, "entity_type": "company",
                              "choices": choices})
        return moves

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, PlaceToken):
            return bool(choice["city"] == action.city)
        return super().matches(game, choice, action)


def city_id(game: G18USA, coord: str, index: int) -> str:
    """The id an action names a city by: the tile's id and the city's part index."""
    state = game.board.hexes[coord]
    return f"{state.tile_id}-{state.tile.stop('city', index).part_index}"


def operating_round_spec() -> RoundSpec:
    from engine.core.family1817.operating import (
        FamilyDividendStep,
        InterestStep,
        LoanStep,
        RepayStep,
    )
    from engine.titles.g18usa.operating_privates import AssignStep
    from engine.titles.g18usa.operating_trains import PullmanStep, UsaBuyTrainStep, UsaRouteStep

    return RoundSpec(UsaOperatingRound, (
        LoanStep(), AssignStep(), SpecialTrackStep(), SpecialTokenStep(), UsaTrackStep(), UsaTokenStep(),
        PullmanStep(), UsaRouteStep(), FamilyDividendStep(), UsaBuyTrainStep(), InterestStep(), RepayStep()))
