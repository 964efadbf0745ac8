"""18USA resource tokens (rule 13.1-13.3): who may place which, where, and what they earn.

A resource token goes on the map as a tile variant (`7coal`, `9ore10`, ...), laid with a yellow
lay on an empty hex showing that resource. One end of its track must point into a city hex
(a city, small city or red area; with the site's reading a rural junction as well) whose tile
has, or could later get, track on the facing side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.board import HexState, opposite
from engine.core.tiles import TileDef
from engine.errors import GameError
from engine.titles.g18usa.usa_map import SITE_RESOURCE_NEIGHBOURS, UsaMap

if TYPE_CHECKING:
    from engine.titles.g18usa.track import TrackTurn

# Which privates (and the resource subsidy) carry tokens of each resource.
RESOURCE_PRIVATES = {
    "coal": ("P1", "P18", "P21", "P28", "S16"),
    "oil": ("P3", "P12", "S16"),
    "ore": ("P4", "P21", "P24", "S16"),
}
TERRAIN_WAIVING = ("coal", "ore")
COAL_BONUS = 10
OIL_BONUS = (10, 20)  # before phase 5, from phase 5
OIL_RISES = "5"


def resource_sources(umap: UsaMap, turn: TrackTurn) -> set[str]:
    """The resources the company has a token of, through its privates or the resource subsidy."""
    found = private_resources(turn)
    if turn.resource_tokens:
        # Privates whose tokens are all used (P21 keeps its bridge) carry none any more.
        found = {resource for resource in found if turn.resource_tokens.get(resource, 0) > 0}
    if turn.owns("S16"):
        found |= set(umap.setup.resource_subsidy_resources)
    return found


def private_resources(turn: TrackTurn) -> set[str]:
    """The resources the company's privates (not the resource subsidy) carry."""
    return {resource for resource, owners in RESOURCE_PRIVATES.items()
            if any(turn.owns(owner) for owner in owners if owner != "S16")}


def check_resource_lay(umap: UsaMap, turn: TrackTurn, state: HexState, tile: TileDef,
                       rotation: int, entity: str) -> None:
    """Rules 13.1-13.3 for a yellow tile carrying resource tokens."""
    resources = umap.tile_resources(tile)
    printed = set(umap.resources_printed(state.coord))
    missing = [r for r in resources if r not in printed]
    if missing:
        raise GameError(f"{state.coord} shows no {', '.join(missing)}; resource tokens go only on "
                        f"hexes with their resource (13)")
    if state.tile_laid:
        raise GameError("a resource token is placed with a yellow tile on an empty hex (13)")
    if entity == "S16":
        have = set(umap.setup.resource_subsidy_resources)
    else:
        have = resource_sources(umap, turn)
    lacking = [r for r in resources if r not in have]
    if lacking:
        raise GameError(f"{turn.corporation} has no {', '.join(lacking)} token to place")
    if not _points_into_a_city(umap, state, tile, rotation):
        raise GameError(f"one end of the track in {state.coord} must point into a city hex whose tile "
                        f"can connect to it (13.1-13.3)")


def _points_into_a_city(umap: UsaMap, state: HexState, tile: TileDef, rotation: int) -> bool:
    site = umap.option(SITE_RESOURCE_NEIGHBOURS)
    for edge in tile.exits(rotation):
        neighbour = state.hexdef.neighbors.get(edge)
        other = umap.board.hexes.get(neighbour) if neighbour else None
        if other is None:
            continue
        facing = opposite(edge)
        is_junction = other.tile.kind == "rural_junction"
        if is_junction and not site:
            continue
        if not (umap.is_city_hex(other.coord) or other.tile.stops):
            continue
        if facing in other.exits():
            return True
        # No track on that side yet: a later tile there must be able to add it.
        if other.hexdef.accepts_tiles and not is_junction and _can_gain_edge(umap, other, facing):
            return True
    return False


def _can_gain_edge(umap: UsaMap, state: HexState, edge: int) -> bool:
    if edge not in state.hexdef.connectable:
        return False
    if not state.tile_laid and state.hexdef.color == "white":
        return True
    return bool(state.tile.upgrades_to or state.tile.upgrades_special)


def track_bonus(umap: UsaMap, state: HexState, phase_5: bool) -> int:
    """What a run earns, once, for passing through this hex's resource tokens."""
    return sum(resource_bonus(umap, state.tile, resource, phase_5)
               for resource in umap.tile_resources(state.tile))


def resource_bonus(umap: UsaMap, tile: TileDef, resource: str, phase_5: bool) -> int:
    """What one resource token on `tile` adds to a run passing through it."""
    if resource == "coal":
        return COAL_BONUS
    if resource == "oil":
        return OIL_BONUS[1] if phase_5 else OIL_BONUS[0]
    if resource == "ore":
        return umap.ore_value(tile)
    return 0


def resource_sides(umap: UsaMap, tile: TileDef, resource: str) -> tuple[tuple[str, int], ...]:
    """The values a resource token takes over the game, with the phase each starts in; empty
    for a token whose value never changes (oil rises from phase 5, 13.2)."""
    if resource != "oil":
        return ()
    return ((umap.phase_order[0], OIL_BONUS[0]), (OIL_RISES, OIL_BONUS[1]))


def token_effect(umap: UsaMap, tile: TileDef, resource: str, phase: str) -> str:
    """"+$10 to each train running through it, +$20 from phase 5": what a resource token on
    `tile` adds to runs now, and later where its value changes."""
    phase_5 = umap.phase(phase).at_least(OIL_RISES, umap.phase_order)
    words = f"+${resource_bonus(umap, tile, resource, phase_5)} to each train running through it"
    later = [(start, value) for start, value in resource_sides(umap, tile, resource)
             if not umap.phase(phase).at_least(start, umap.phase_order)]
    return words + "".join(f", +${value} from phase {start}" for start, value in later)
