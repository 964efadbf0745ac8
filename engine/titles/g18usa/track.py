"""18USA track: which tile lays are legal (rules 12.2, 13) and what they cost.

The future game class describes the laying company's turn in a `TrackTurn` and calls
`check_lay` (raises GameError with the reason), `apply_lay`, and `legal_lays` for the
legal-moves query. Lays by a private or subsidy (P9, P16, P17, P26, P27, S8, S16) name that
company as `entity`; a resource tile laid by the company itself uses its resource private.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.board import HexState, split_tile_id
from engine.core.graph import Reach, reach_of, reaches
from engine.core.lay_account import terrain_words
from engine.core.position_cache import cached
from engine.core.tiles import TileDef
from engine.errors import GameError
from engine.titles.g18usa.resources import (
    TERRAIN_WAIVING,
    check_resource_lay,
    private_resources,
    resource_sources,
)
from engine.titles.g18usa.usa_map import (
    PRIVATE_TILES,
    SITE_HOME_BROWN,
    SITE_MAX_EXITS,
    PhaseInfo,
    UsaMap,
)

WATER_PRIVATES = ("P2", "P21", "P22")
MOUNTAIN_PRIVATE = "P5"
MOUNTAIN_DISCOUNT = 15
SECOND_ACTION_FEE = 20
SKIP_LEVEL_FEE = 10
CITY_GREEN = ("14", "15", "619")
CITY_BROWN = ("63", "448", "611")
CITY_YELLOW = ("5", "6", "57")
CLEVELAND = ("D24", "X13")
DENVER_UNSET = "X04s"  # Denver before its orientation is chosen (12.2.3)
GREAT_NORTHERN = "P17"
TRACK_ENGINEERS = "P7"
PETTIBONE = "P11"


@dataclass(frozen=True)
class LayRecord:
    """A lay already made in this track step."""

    coord: str
    upgrade: bool
    action: bool  # it used one of the company's tile actions
    city: bool
    entity: str


@dataclass(frozen=True)
class TrackTurn:
    """What the track rules need to know about the laying company and its turn so far."""

    corporation: str
    phase: str
    companies: frozenset[str] = frozenset()  # privates and subsidies the company owns
    home: str | None = None
    first_turn: bool = False  # it has not run trains yet (12.2.4 "first operating round")
    lays: tuple[LayRecord, ...] = ()
    resource_tokens: dict[str, int] = field(default_factory=dict)  # unused tokens by resource

    def owns(self, company: str) -> bool:
        return company in self.companies

    def key(self) -> tuple[object, ...]:
        """Everything the track rules read of the turn, as a hashable key."""
        return (self.corporation, self.phase, self.companies, self.home, self.first_turn, self.lays,
                tuple(sorted(self.resource_tokens.items())))


@dataclass(frozen=True)
class UsaLay:
    """A checked lay, ready to apply."""

    coord: str
    tile: TileDef
    tile_id: str
    rotation: int
    cost: int
    upgrade: bool
    action: bool
    nature: str  # normal, denver, resource, ore, home_brown, or the private/subsidy id
    # What the cost is made of, (what for, dollars), and what spared part of the printed
    # terrain cost, (a company id or a token, dollars): the log tells players both.
    charges: tuple[tuple[str, int], ...] = ()
    spared: tuple[tuple[str, int], ...] = ()
    turns_ore: bool = False  # the lay turns an ore token over (its tokens are the old tile's)

    def record(self, umap: UsaMap, entity: str) -> LayRecord:
        return LayRecord(self.coord, self.upgrade, self.action, umap.is_city_hex(self.coord), entity)


def check_lay(umap: UsaMap, turn: TrackTurn, entity: str, coord: str, tile_id: str, rotation: int,
              reach: Reach | None = None) -> UsaLay:
    """Check a lay_tile action; without `reach` (the company's network on the board), only as
    much of the network is walked as shows that it reaches the new track."""
    board = umap.board
    if coord not in board.hexes:
        raise GameError(f"{coord!r} is not a hex on the map")
    state = board.hexes[coord]
    if not state.hexdef.accepts_tiles:
        raise GameError(f"no tile can be laid in {coord}")
    name, _ = split_tile_id(str(tile_id))
    tile = board.tiles.get(name)
    if tile is None:
        raise GameError(f"there is no tile {name!r}")
    if not board.copy_available(tile_id):
        free = board.free_copy(name)
        hint = f"; the next free copy is {name}-{free}" if free is not None else "; all copies are in use"
        raise GameError(f"tile {tile_id} is not in the supply{hint}")
    if not isinstance(rotation, int) or not 0 <= rotation <= 5:
        raise GameError("rotation is a number from 0 to 5")
    phase = umap.phase(turn.phase)
    nature, candidates, skip_levels = _candidates(umap, turn, entity, state, tile, phase)
    if name not in candidates:
        listed = ", ".join(candidates) or "none"
        raise GameError(f"tile {name} cannot be laid in {coord} now; tiles that can: {listed}")
    rotations = _rotations(umap, state, tile, nature)
    if rotation not in rotations:
        raise GameError(f"tile {name} in {coord} must keep the old track, use the printed stubs and "
                        f"point only at usable neighbours; legal rotations: {rotations or 'none'}")
    _check_max_exits(umap, turn, state, tile, candidates, nature, phase)
    _check_turned(umap, turn, entity, state, tile, rotation, nature, reach)
    charges, spared, upgrade, action = _charges(umap, turn, state, tile, nature, skip_levels)
    cost = sum(amount for _, amount in charges)
    turns_ore = state.tile_laid and bool(umap.ore_value(state.tile))
    return UsaLay(coord, tile, str(tile_id), rotation, cost, upgrade, action, nature, charges, spared,
                  turns_ore)


def _check_turned(umap: UsaMap, turn: TrackTurn, entity: str, state: HexState, tile: TileDef,
                  rotation: int, nature: str, reach: Reach | None) -> None:
    """The checks that depend on the rotation: the network reaches the new track, and a
    resource tile points into a city."""
    _check_reach(umap, turn, state, tile, rotation, nature, reach)
    flip = nature == GREAT_NORTHERN and state.tile_laid  # P17 turning an ore token over
    if nature == "resource" or (nature in (GREAT_NORTHERN, "S16") and umap.tile_resources(tile) and not flip):
        check_resource_lay(umap, turn, state, tile, rotation, entity)


def _price(umap: UsaMap, turn: TrackTurn, state: HexState, tile: TileDef, nature: str,
           skip_levels: int) -> tuple[int, bool, bool]:
    """(cost, upgrade, tile action) of the lay, the same in every rotation; refuses a tile
    action the turn has no room for."""
    charges, _, upgrade, action = _charges(umap, turn, state, tile, nature, skip_levels)
    return sum(amount for _, amount in charges), upgrade, action


Amounts = tuple[tuple[str, int], ...]


def _charges(umap: UsaMap, turn: TrackTurn, state: HexState, tile: TileDef, nature: str,
             skip_levels: int) -> tuple[Amounts, Amounts, bool, bool]:
    """(what the lay costs and for what, what spared part of the terrain cost, upgrade, tile
    action)."""
    upgrade = _is_upgrade(state, nature, skip_levels)
    action = nature in ("normal", "resource", "ore", "P16", "P26", "P27")
    fee = _action_fee(turn, state, upgrade, action, umap) if action else 0
    terrain, spared = _terrain(umap, turn, state, tile, nature)
    colours = "colour" if skip_levels == 1 else "colours"
    charges = (("a second tile action", fee), (f"skipping {skip_levels} {colours}", SKIP_LEVEL_FEE * skip_levels),
               (terrain_words(state.hexdef.terrain_types), terrain))
    return tuple(charge for charge in charges if charge[1]), spared, upgrade, action


def apply_lay(umap: UsaMap, lay: UsaLay) -> None:
    umap.board.place_tile(lay.coord, lay.tile, lay.tile_id, lay.rotation)


# --- which tiles ---------------------------------------------------------------------------
Candidates = tuple[str, list[str], int]


def _candidates(umap: UsaMap, turn: TrackTurn, entity: str, state: HexState, tile: TileDef,
                phase: PhaseInfo, normal: dict[tuple[str, str], Candidates] | None = None) -> Candidates:
    """(nature of the lay, tile names it may use, colour levels skipped). `normal` keeps the
    answers of the normal lays on this hex, which read only the tile's colour and whether it
    is a brown city (a legal-moves query asks for many tiles on one hex)."""
    if entity != turn.corporation:
        if not turn.owns(entity):
            raise GameError(f"{turn.corporation} does not own {entity}")
        return entity, _company_candidates(umap, turn, entity, state, tile, phase), 0
    if tile.name in PRIVATE_TILES:
        raise GameError(f"tile {tile.name} is laid only through {PRIVATE_TILES[tile.name]}")
    if state.tile.name == DENVER_UNSET:
        return "denver", ["X04"], 0
    if umap.tile_resources(tile) and not state.tile_laid:
        names = _resource_candidates(umap, state, phase, p11=turn.owns(PETTIBONE))
        resources = set(umap.tile_resources(tile))
        if turn.owns("S16") and resources <= set(umap.setup.resource_subsidy_resources) \
                and not resources <= private_resources(turn):
            # The resource subsidy's lay: free and outside the tile actions (11.6.1). A private's
            # token of that resource is used first (s8504 at 653: MILW's P3, S16 kept).
            return "S16", names, 0
        return "resource", names, 0
    if umap.ore_value(state.tile):
        if not phase.at_least("3", umap.phase_order):
            raise GameError("an ore token is upgraded to $20 only from phase 3 (13.3)")
        return "ore", list(state.tile.upgrades_special), 0
    if normal is None:
        return _normal_candidates(umap, turn, state, tile, phase)
    # Which brown city it is matters (a home's brown city, 12.2.4); other colours read alike.
    key = (tile.name if tile.color == "brown" else "", tile.color)
    if key not in normal:
        normal[key] = _normal_candidates(umap, turn, state, tile, phase)
    return normal[key]


def _colors(umap: UsaMap, turn: TrackTurn, state: HexState, phase: PhaseInfo) -> tuple[str, ...]:
    colors = phase.colors
    # P11: plain track may go one colour beyond the phase.
    if turn.owns(PETTIBONE) and umap.is_plain_track_hex(state.coord):
        order = ("yellow", "green", "brown", "gray")
        colors = order[:min(len(order), len(colors) + 1)]
    return colors


def _normal_candidates(umap: UsaMap, turn: TrackTurn, state: HexState, tile: TileDef,
                       phase: PhaseInfo) -> tuple[str, list[str], int]:
    board = umap.board
    colors = _colors(umap, turn, state, phase)
    phase_5 = phase.at_least("5", umap.phase_order)
    coord = state.coord
    browns = _home_browns(umap, state)
    # Asked with a tile class's sample (legal_lays), any brown tile stands for the home's browns.
    home_brown = (phase_5 and turn.first_turn and coord == turn.home and tile.color == "brown" and bool(browns)
                  and (not state.tile_laid or state.tile.color == "green" or not umap.option(SITE_HOME_BROWN)))
    if home_brown and not any(record.coord == coord for record in turn.lays):
        return "home_brown", list(browns), 0
    if umap.is_city_hex(coord) and not umap.is_plain_track_hex(coord):
        if not state.tile_laid and state.hexdef.color == "white":
            # 12.2.4: from phase 5 an empty city hex takes a green city, as a yellow lay.
            names = list(CITY_GREEN) if phase_5 else list(board.first_tiles.get(coord, ()))
            return "normal", [n for n in names if board.tiles[n].color in colors], 0
        targets = list(board.upgrade_targets(state)) + [
            n for n in state.tile.upgrades_special if n != "X04"]
        if coord == CLEVELAND[0]:
            targets = [CLEVELAND[1] if board.tiles[n].color == "brown" else n for n in targets]
            targets = list(dict.fromkeys(targets))
        return "normal", [n for n in targets if board.tiles[n].color in colors], 0
    # Plain track: from phase 5 colour levels may be skipped for $10 each (12.2.4).
    current = state.tile.color_rank() if state.tile_laid else 0
    if phase_5 and tile.color in colors and tile.color_rank() > current + 1:
        skipped = tile.color_rank() - current - 1
        return "normal", umap.plain_tiles(tile.color, umap.tile_resources(state.tile)), skipped
    targets = list(board.upgrade_targets(state))
    if not state.tile_laid and state.hexdef.color == "white":
        targets = [n for n in targets if not umap.tile_resources(board.tiles[n])]
    return "normal", [n for n in targets if board.tiles[n].color in colors], 0


def _home_browns(umap: UsaMap, state: HexState) -> tuple[str, ...]:
    """The brown cities a home may take as 12.2.4's free action: Cleveland's own tile, a
    metropolis's brown upgrade, the plain brown cities elsewhere."""
    if state.coord == CLEVELAND[0]:
        return (CLEVELAND[1],)
    if state.tile_laid and umap.is_metropolis(state.coord):
        board = umap.board
        return tuple(n for n in board.upgrade_targets(state) if board.tiles[n].color == "brown")
    return CITY_BROWN


def _resource_candidates(umap: UsaMap, state: HexState, phase: PhaseInfo, p11: bool) -> list[str]:
    printed = set(umap.resources_printed(state.coord))
    if not printed:
        raise GameError(f"{state.coord} shows no resource; resource tokens go only on their own "
                        f"resource's hexes (13)")
    return list(umap.resource_tiles(frozenset(printed)))


def _company_candidates(umap: UsaMap, turn: TrackTurn, entity: str, state: HexState,
                        tile: TileDef, phase: PhaseInfo) -> list[str]:
    coord = state.coord
    board = umap.board
    metropolis = umap.is_metropolis(coord)
    if entity in ("P9", "S8"):
        if entity == "S8" and (coord != turn.home or not turn.first_turn):
            raise GameError("the Boomtown subsidy upgrades the home city in the company's first "
                            "operating turn")
        if metropolis or state.tile.name not in CITY_YELLOW:
            raise GameError(f"{entity} upgrades a yellow plain city (5, 6, 57) that is not a "
                            f"metropolis; {coord} has {state.tile.name}")
        return [n for n in state.tile.upgrades_to if n in CITY_GREEN]
    if entity == "P16":
        if not phase.at_least("5", umap.phase_order):
            raise GameError("P16's Regional HQ tile may be laid from phase 5")
        if metropolis or not state.tile.cities or state.tile.color not in ("green", "brown"):
            raise GameError("the Regional HQ tile replaces a green or brown city that is not a metropolis")
        return ["X23"]
    if entity == "P26":
        if state.tile_laid or not umap.is_city_hex(coord) or metropolis:
            raise GameError("a rural junction goes on an empty city hex")
        if state.corporations_here():
            # A junction holds no stations, so one already placed on the printed city would be lost.
            raise GameError(f"a rural junction goes on an empty city hex; {coord} has a station "
                            f"({', '.join(sorted(state.corporations_here()))})")
        if coord == turn.home:
            raise GameError("a rural junction may not go on the company's home")
        for neighbour in state.hexdef.neighbors.values():
            other = board.hexes.get(neighbour)
            if other is not None and other.tile.kind == "rural_junction":
                raise GameError(f"a rural junction may not be next to another ({neighbour})")
        return ["X07", "X08", "X09"]
    if entity == "P27":
        if state.tile_laid or state.hexdef.color != "white" or state.corporations_here():
            raise GameError("a Company Town goes on an empty hex with no tile and no station")
        for neighbour in state.hexdef.neighbors.values():
            if umap.is_metropolis(neighbour):
                raise GameError(f"a Company Town may not be next to the metropolis {neighbour}")
        return ["X20", "X21", "X22"]
    if entity == GREAT_NORTHERN:
        if coord not in umap.map_data["great_northern"]["hexes"]:
            raise GameError(f"P17 lays only in the Great Northern hexes, not {coord}")
        if any(record.entity == GREAT_NORTHERN for record in turn.lays):
            raise GameError("P17 lays one extra tile per operating round")
        if state.tile_laid and umap.ore_value(state.tile) and phase.at_least("3", umap.phase_order):
            # Its extra yellow tile may be the ore token turned to $20 (13.3), as on the site.
            return list(state.tile.upgrades_special)
        if state.tile_laid or state.hexdef.color != "white":
            raise GameError("P17 lays a yellow tile on an empty hex")
        if umap.is_city_hex(coord):
            return list(CITY_YELLOW)
        names = list(board.first_tiles.get(coord, ()))
        if resource_sources(umap, turn) and umap.resources_printed(coord):
            names += _resource_candidates(umap, state, phase, False)
        return names
    if entity == "S16":
        if state.tile_laid:
            raise GameError("the resource subsidy's tile goes on an empty resource hex")
        return _resource_candidates(umap, state, phase, False)
    raise GameError(f"{entity} cannot lay tiles")


# --- geometry ------------------------------------------------------------------------------
def _rotations(umap: UsaMap, state: HexState, tile: TileDef, nature: str) -> list[int]:
    if nature == "denver":
        # The orientation is free; only the exits must point at usable neighbours.
        return [r for r in range(6) if tile.exits(r) <= set(state.hexdef.connectable)]
    if nature == "P16":
        # The Regional HQ has track on every side, so it keeps any old track in any orientation.
        return list(range(6))
    return umap.legal_rotations(state, tile)


def _check_max_exits(umap: UsaMap, turn: TrackTurn, state: HexState, tile: TileDef,
                     candidates: list[str], nature: str, phase: PhaseInfo) -> None:
    """Rule 12.2.2: a normal city upgraded to brown takes the most exits that fit
    (the site's reading: every city and plain-track upgrade)."""
    if nature not in ("normal", "home_brown") or not (state.tile_laid or state.hexdef.color != "white"):
        return
    site = umap.option(SITE_MAX_EXITS)
    normal_city = tile.kind == "plain" and bool(tile.cities)
    if not site and not (normal_city and tile.color == "brown"):
        return
    best = umap.most_exits(state, candidates, tile.color, bool(tile.cities))
    if len(tile.exits(0)) < best:
        raise GameError(f"tile {tile.name} has {len(tile.exits(0))} exits; an upgrade here must use a "
                        f"tile with as many exits as fit ({best}) (12.2.2)")


def _check_reach(umap: UsaMap, turn: TrackTurn, state: HexState, tile: TileDef, rotation: int,
                 nature: str, reach: Reach | None) -> None:
    coord = state.coord
    if nature in ("S8", "home_brown") and coord == turn.home:
        return
    wanted = range(6) if nature == "denver" else tile.exits(rotation)  # Denver: reached at all
    if reach is None:
        connected = reaches(umap.board, turn.corporation, coord, wanted)
    else:
        connected = not reach.hexes.get(coord, set()).isdisjoint(wanted)
    if connected:
        return
    if nature == "denver":
        raise GameError(f"{turn.corporation} must reach Denver ({coord}) to choose its orientation")
    raise GameError(f"{coord} is not connected to {turn.corporation}'s track")


# --- costs ---------------------------------------------------------------------------------
def _is_upgrade(state: HexState, nature: str, skip_levels: int) -> bool:
    if nature in ("resource", "denver"):
        return False
    if skip_levels:
        return True
    if nature == "normal" and not state.tile_laid and state.hexdef.color == "white":
        return False
    return nature in ("normal", "ore", "home_brown", "P16", "P9", "S8")


def _action_fee(turn: TrackTurn, state: HexState, upgrade: bool, action: bool, umap: UsaMap) -> int:
    """Rule 12.2: one tile action free, a second for $20, at most one of them an upgrade
    (P7: three for $20; P11: two upgrades, one of them on a city)."""
    earlier = [record for record in turn.lays if record.action]
    limit = 3 if turn.owns(TRACK_ENGINEERS) else 2
    if len(earlier) >= limit:
        raise GameError(f"{turn.corporation} has used its {limit} tile actions this turn (12.2)")
    if earlier and any(record.coord == state.coord for record in turn.lays):
        raise GameError(f"{state.coord} already had a tile this turn; a second action goes in another "
                        f"hex (12.2)")
    if upgrade:
        upgrades = [record for record in earlier if record.upgrade]
        if upgrades and not turn.owns(PETTIBONE):
            raise GameError("at most one of the tile actions may be an upgrade (12.2)")
        if len(upgrades) >= 2:
            raise GameError("at most two upgrades per turn with P11")
        city = umap.is_city_hex(state.coord)
        if city and any(record.city for record in upgrades):
            raise GameError("with P11 only one of the two upgrades may be on a city")
    return SECOND_ACTION_FEE if len(earlier) == 1 else 0


def _terrain(umap: UsaMap, turn: TrackTurn, state: HexState, tile: TileDef,
             nature: str) -> tuple[int, Amounts]:
    """The printed terrain cost, paid for the first tile on a hex, less the waivers; and the
    waivers, by what gave them (a company id, or the resource token)."""
    if state.tile_laid or state.hexdef.color != "white":
        return 0, ()
    cost = state.hexdef.terrain_cost
    if nature in (GREAT_NORTHERN, "denver"):
        return 0, ((nature, cost),) if nature == GREAT_NORTHERN and cost else ()
    types = state.hexdef.terrain_types
    bridge = next((p for p in WATER_PRIVATES if turn.owns(p)), None) if "water" in types else None
    if bridge is not None:
        return 0, ((bridge, cost),)
    if "mountain" in types:
        # P5 gives nothing more when a coal or ore token already waives the $15 (P5's text).
        resource = next((r for r in umap.tile_resources(tile) if r in TERRAIN_WAIVING), None)
        waiver = f"the {resource} token" if resource else MOUNTAIN_PRIVATE if turn.owns(MOUNTAIN_PRIVATE) else None
        if waiver is not None:
            spared = min(MOUNTAIN_DISCOUNT, cost)
            return cost - spared, ((waiver, spared),)
    return cost, ()


# --- legal moves ---------------------------------------------------------------------------
def tile_class(umap: UsaMap, tile: TileDef) -> tuple[bool, tuple[str, ...], bool, str]:
    """What `_candidates` reads of the tile being laid: tiles of one class get the same answer
    on a hex, so a legal-moves query asks once per class instead of once per tile."""
    return (tile.name in PRIVATE_TILES, umap.tile_resources(tile), tile.name in CITY_BROWN, tile.color)


def _tile_classes(umap: UsaMap) -> list[tuple[TileDef, list[str]]]:
    """One tile of each class with every tile name of that class."""
    classes: dict[tuple[bool, tuple[str, ...], bool, str], list[str]] = {}
    for name, tile in umap.board.tiles.items():
        classes.setdefault(tile_class(umap, tile), []).append(name)
    return [(umap.board.tiles[names[0]], names) for names in classes.values()]


def legal_lays(umap: UsaMap, turn: TrackTurn, entity: str | None = None) -> list[dict[str, object]]:
    """Every legal (hex, tile, rotations, cost) for the laying entity, by hex then tile.

    The same answer as trying every tile of the supply in every rotation through `check_lay`,
    with each check made once where it can be: the candidate tiles once per tile class and hex,
    the checks and the price that do not depend on the rotation once per tile and hex. Kept
    while the board stays as it is (the bot asks again for autocomplete and the offered-move
    check); the caller gets its own copy."""
    entity = entity or turn.corporation
    key = ("usa lays", turn.key(), entity, frozenset(umap.metropolises))
    choices = cached(umap.board, key, lambda: _legal_lays(umap, turn, entity))
    return [{"hex": choice["hex"], "tiles": [{**tile, "rotations": list(tile["rotations"])}
                                             for tile in choice["tiles"]]} for choice in choices]


def _legal_lays(umap: UsaMap, turn: TrackTurn, entity: str) -> list[dict[str, Any]]:
    own = entity == turn.corporation
    reach = reach_of(umap.board, turn.corporation)
    phase = umap.phase(turn.phase)
    classes = _tile_classes(umap)
    choices: list[dict[str, Any]] = []
    for coord in sorted(reach.hexes):
        state = umap.board.hexes.get(coord)
        if state is None or not state.hexdef.accepts_tiles:
            continue
        colors = set(_colors(umap, turn, state, phase))
        found: dict[str, Candidates] = {}
        normal: dict[tuple[str, str], Candidates] = {}
        for sample, names in classes:
            # The company's own lays use only the phase's colours (the Denver tile aside).
            if own and sample.color not in colors and "X04" not in names:
                continue
            try:
                nature, candidates, skip_levels = _candidates(umap, turn, entity, state, sample, phase, normal)
            except GameError:
                continue
            allowed = set(candidates)
            found.update((name, (nature, candidates, skip_levels)) for name in names if name in allowed)
        by_tile = []
        for name in sorted(found):
            tile = umap.board.tiles[name]
            copy = umap.board.free_copy(name)
            if copy is None or (own and tile.color not in colors and name != "X04"):
                continue
            nature, candidates, skip_levels = found[name]
            try:
                _check_max_exits(umap, turn, state, tile, candidates, nature, phase)
                cost = _price(umap, turn, state, tile, nature, skip_levels)[0]
            except GameError:
                continue
            rotations = []
            for rotation in _rotations(umap, state, tile, nature):
                try:
                    _check_turned(umap, turn, entity, state, tile, rotation, nature, reach)
                except GameError:
                    continue
                rotations.append(rotation)
            if rotations:
                by_tile.append({"tile": f"{name}-{copy}", "rotations": rotations, "cost": cost})
        if by_tile:
            choices.append({"hex": coord, "tiles": by_tile})
    return choices
