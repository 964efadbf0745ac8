"""The 18USA map view from the title's board alone (`UsaMap`), without a game around it.

The 18USA game class holds a `UsaMap`; until it hands the map's marks to `map_view` through
`TitleRules.map_marks`, this adapter draws a board from the map rules' own queries
(`engine/titles/g18usa/map_facts.py`) plus what only the game knows, passed in: the phase, the
last tiles laid, the last runs and who holds which private.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING

from engine.titles.g18usa.data import load_data
from engine.titles.g18usa.map_facts import map_marks, terrain_to_pay
from render.from_board import BoardFacts, hex_views, route_views
from render.view import MapView, TokenView

if TYPE_CHECKING:
    from engine.core.routes import Run
    from engine.titles.g18usa.usa_map import UsaMap

TITLE = "18USA"


@cache
def company_tokens() -> dict[str, TokenView]:
    """How each 18USA company's stations look, from the title's data."""
    return {raw["id"]: TokenView(raw["id"], raw["color"], str(raw.get("text_color") or "white").lower())
            for raw in load_data()["entities"]["corporations"]}


def usa_board_facts(umap: UsaMap, phase: str,
                    private_owners: Mapping[str, str] | None = None) -> BoardFacts:
    return BoardFacts(
        colors=umap.phase(phase).colors,
        phases=tuple((name, umap.phase_colors[name]) for name in umap.phase_order),
        tokens=company_tokens(),
        terrain_cost=terrain_to_pay,
        marks=map_marks(umap, phase, private_owners),
        tile_number=umap.base_tile,
    )


def usa_map_view(umap: UsaMap, phase: str, *, last_hexes: Iterable[str] = (),
                 runs: Sequence[tuple[str, Run]] = (), private_owners: Mapping[str, str] | None = None,
                 caption: str = "") -> MapView:
    """The board in `phase`; `runs` are (company id, run) pairs drawn as the last runs."""
    owners = {id(run): corporation for corporation, run in runs}

    def owner_of(run: Run) -> tuple[str, str]:
        return run.train.rpartition("-")[0] or run.train, owners.get(id(run), "")

    return MapView(
        title=TITLE,
        hexes=hex_views(umap.board, usa_board_facts(umap, phase, private_owners)),
        highlight_hexes=frozenset(last_hexes),
        routes=route_views(umap.board, [run for _, run in runs], owner_of),
        caption=caption or f"Phase {phase}",
    )
