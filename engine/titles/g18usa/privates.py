"""18USA private companies and subsidies used up by their lays (appendix): which close after
a tile, which count their resource tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.entities import Corporation
from engine.titles.g18usa import powers

if TYPE_CHECKING:
    from engine.titles.g18usa.game import G18USA

MAX_TOKENS = 8
CLOSE_AFTER_LAY = ("P9", "P16", "P27", "S8", "S16")


def after_lay(game: G18USA, corporation: Corporation, entity: str, lay: Any) -> dict[str, str]:
    """Use up what the lay used; returns whose token each resource on the tile was (the
    private's or the resource subsidy's id, by resource)."""
    # The company's own lay may be a subsidy's too (S16's resource tile): that uses it up as well.
    for source in dict.fromkeys((entity, lay.nature)):
        company = game.companies.get(source)
        if company is not None and source in CLOSE_AFTER_LAY and company.owner is corporation:
            company.closed = True
    if entity == "P26":
        powers.use(game.companies["P26"], powers.JUNCTION)
    # P27's bonus station only while the company holds under 8 tokens, P8's marker among them.
    if lay.tile.kind == "company_town" and \
            corporation.token_count + game.tokens_off_the_map(corporation) < MAX_TOKENS:
        from engine.titles.g18usa.stations import company_town_token

        if company_town_token(game.umap, corporation.id, lay.coord):
            corporation.token_count += 1
    resources = game.umap.tile_resources(lay.tile)
    # P17's extra yellow lay may carry a resource token too (s8504: it uses DRG's P1 coal).
    if lay.nature in ("resource", "P17") and resources and not lay.turns_ore:
        return use_resource(game, corporation, resources)
    return {resource: lay.nature for resource in resources} if lay.nature == "S16" else {}


def token_order(owners: tuple[str, ...]) -> list[str]:
    """Which private gives up a token first when the company holds several of one resource: as on
    the site, the resource privates in the order of their ids read as text (P12 before P3, P24
    before P4, P1 before P18 before P28), then P21, whose token is coal or ore, then the resource
    subsidy."""
    plain = sorted(owner for owner in owners if owner not in ("P21", "S16"))
    return plain + [owner for owner in ("P21", "S16") if owner in owners]


def use_resource(game: G18USA, corporation: Corporation, resources: tuple[str, ...]) -> dict[str, str]:
    """The company's resource privates give up a token each: P21's serves as coal or ore.
    Returns which private gave each resource's token."""
    from engine.titles.g18usa.resources import RESOURCE_PRIVATES

    used = {}
    for resource in resources:
        for owner in token_order(RESOURCE_PRIVATES[resource]):
            company = game.companies.get(owner)
            if company is None or company.owner is not corporation or not powers.uses_left(company, powers.RESOURCE):
                continue
            powers.use(company, powers.RESOURCE)
            used[resource] = owner
            break
    return used
