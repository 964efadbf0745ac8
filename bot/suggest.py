"""Autocomplete: the choices for one option of a command, from the caller's legal moves.

Only what is legal is offered (only legal hexes, then the tiles that fit the chosen hex,
then their rotations). The engine still checks whatever is finally sent, since a user may
type anything.
"""

from __future__ import annotations

from typing import Any

from bot.commands import TYPES, candidate_moves, tile_name, title_spec
from bot.errors import CommandError
from bot.routes_text import format_routes
from engine.core.commands import ENTITY_FIELD, CommandSpec
from engine.core.game import BaseGame
from engine.describe import city_holders, rotation_words

Choice = tuple[str, Any]  # (label shown, value sent)
LIMIT = 25
LABEL = 100  # characters Discord shows of a choice (it refuses longer ones)
USE_PROPOSAL = "proposal"  # the routes: value that means "the proposed runs"


def _label(text: str) -> str:
    return text if len(text) <= LABEL else text[:LABEL - 1] + "…"


def _keep(choices: list[Choice], typed: str) -> list[Choice]:
    """Choices whose label or value starts with (or contains) what was typed, at most 25."""
    text = typed.strip().casefold()
    if text:
        starts = [c for c in choices if str(c[1]).casefold().startswith(text) or c[0].casefold().startswith(text)]
        inside = [c for c in choices if c not in starts and text in c[0].casefold()]
        choices = starts + inside
    unique: dict[str, Choice] = {}
    for label, value in choices:
        unique.setdefault(str(value), (_label(label), value))
    return list(unique.values())[:LIMIT]


def suggest(state: BaseGame, moves: list[dict[str, Any]], player_id: Any, word: str, option: str,
            typed: str, filled: dict[str, Any], proposal: dict[str, Any] | None = None,
            total: int | None = None) -> list[Choice]:
    """Choices for ``option`` of ``/word`` given the options already ``filled``."""
    if word not in TYPES:
        return []
    try:
        mine = candidate_moves(state, moves, player_id, word)
    except CommandError:
        return []
    if option == "private":
        return _keep([(f"{m['entity']} — {state.companies[m['entity']].name}", m["entity"])
                      for m in mine if m.get("entity_type") == "company"], typed)
    spec = title_spec(state, word)
    wanted = spec.option(option)
    if wanted is not None and wanted.choice_field == ENTITY_FIELD:
        return _keep([(_entity_label(state, m), m["entity"]) for m in mine], typed)
    for other in spec.options:  # an entity already named narrows the rest
        if other.choice_field == ENTITY_FIELD and filled.get(other.name) not in (None, ""):
            mine = [m for m in mine if _same(filled[other.name], m["entity"])]
    choices = [c for m in mine for c in m.get("choices") or []]
    picker = _PICKERS.get((word, option))
    if picker is None:
        if word == "run" and option == "routes" and proposal is not None:
            return [(_label(f"The proposed runs (${total}): {format_routes(proposal['routes'])}"), USE_PROPOSAL)]
        return _keep(_by_choice_field(spec, option, choices, filled), typed)
    return _keep(picker(state, choices, filled), typed)


def _by_choice_field(spec: CommandSpec, option: str, choices: list[dict[str, Any]],
                     filled: dict[str, Any]) -> list[Choice]:
    """Any option the title's table ties to a choice field: the values that field takes among
    the choices that fit the options already filled."""
    wanted = spec.option(option)
    if wanted is None or wanted.choice_field is None:
        return []
    for other in spec.options:
        value = filled.get(other.name)
        if other is wanted or other.choice_field is None or value in (None, ""):
            continue
        choices = [c for c in choices if _same(value, c.get(other.choice_field))]
    # A choice the engine words itself (`label`, e.g. an attachment and its train) shows those words.
    values: dict[Any, str] = {}
    for c in choices:
        if wanted.choice_field in c:
            values.setdefault(c[wanted.choice_field], str(c.get("label") or c[wanted.choice_field]))
    return [(label, value) for value, label in values.items() if isinstance(value, str | int)]


def _entity_label(state: BaseGame, move: dict[str, Any]) -> str:
    entity = str(move["entity"])
    named = state.corporations.get(entity) or state.companies.get(entity)
    return f"{entity} — {named.name}" if named is not None else entity


def _same(value: Any, other: Any) -> bool:
    return str(value or "").strip().casefold() == str(other).casefold()


def _bid_target(choice: dict[str, Any]) -> str:
    """What a bid is on: a private company, or a corporation where the title auctions them."""
    return str(choice.get("company") or choice.get("corporation") or choice.get("minor"))


def _bid_limits(choice: dict[str, Any]) -> tuple[int, int, int]:
    return (int(choice.get("min", choice.get("min_price", 0))), int(choice.get("max", choice.get("max_price", 0))),
            max(5, int(choice.get("step", 5))))


def _bid_company(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    out = []
    for c in choices:
        target = _bid_target(c)
        named = state.companies.get(target) or state.corporations.get(target)
        name = f" — {named.name}" if named is not None else ""
        out.append((f"{target}{name}, from ${_bid_limits(c)[0]}", target))
    return out


def _bid_price(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    picked = [c for c in choices if _same(filled.get("company"), _bid_target(c))] or choices[:1]
    if not picked:
        return []
    low, high, step = _bid_limits(picked[0])
    # The lowest bid, then round steps (a bid may be any multiple of the step above it).
    rounded = range(low + (-low) % step, high + 1, step)
    return [(f"${price}", price) for price in dict.fromkeys([low, *rounded]) if price <= high]


def _corporations(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    out = []
    for c in choices:
        corp = c["corporation"]
        extra = f", ${c['price']} from the {c['from']}" if "from" in c else ""
        out.append((f"{corp} — {state.corporations[corp].name}{extra}", corp))
    return out


def _par_price(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    picked = [c for c in choices if _same(filled.get("corporation"), c["corporation"])] or choices
    return [(f"${c['price']}{_par_cost(c)}", c["price"]) for c in sorted(picked, key=lambda c: c["price"])]


def _par_cost(choice: dict[str, Any]) -> str:
    """What starting the company costs the player, as the engine says."""
    cost = choice.get("cost")
    if cost is None:
        return ""
    return " (free president's certificate)" if cost == 0 else f" (costs ${cost})"


def _buy_from(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    return [(f"{c['from']} — ${c['price']}", c["from"]) for c in choices
            if _same(filled.get("corporation"), c["corporation"])]


def _sell_percent(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    return [(f"{c['percent']}% for ${c['price']}", c["percent"]) for c in choices
            if _same(filled.get("corporation"), c["corporation"])]


def _hexes(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    out = []
    for c in choices:
        name = state.board.hexes[c["hex"]].hexdef.name
        tiles = ", ".join(dict.fromkeys(tile_name(t["tile"]) for t in c["tiles"]))
        out.append((f"{c['hex']}{' ' + name if name else ''} — tiles {tiles}", c["hex"]))
    return out


def _tiles(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    out = []
    for c in choices:
        if not _same(filled.get("hex"), c["hex"]):
            continue
        for tile in c["tiles"]:
            name = tile_name(tile["tile"])
            color = state.board.tiles[name].color
            rotations = ", ".join(map(str, tile["rotations"]))
            cost = f" — ${tile['cost']}" if tile.get("cost") else ""  # the engine's price of the lay
            out.append((f"{name} ({color}) — rotations {rotations}{cost}", name))
    return out


def _rotations(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    for c in choices:
        if _same(filled.get("hex"), c["hex"]):
            for tile in c["tiles"]:
                if _same(filled.get("tile"), tile_name(tile["tile"])) or _same(filled.get("tile"), tile["tile"]):
                    name = tile_name(tile["tile"])
                    return [(rotation_words(state, c["hex"], name, r), r) for r in tile["rotations"]]
    return []


def _cities(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    by_hex: dict[str, list[str]] = {}
    for c in choices:
        cities = by_hex.setdefault(str(c.get("hex") or c["city"].split("-")[0]), [])
        if c["city"] not in cities:  # a city may hold two stations that may be removed
            cities.append(c["city"])
    marks = state.map_marks()
    out = []
    for coord, cities in by_hex.items():
        # What the map shows there besides track (a subsidy waiting for a home station, ...).
        noted = [mark.label for mark in marks.get(coord, ()) if mark.label]
        name = " — ".join(part for part in [state.board.hexes[coord].hexdef.name or "", *noted] if part)
        if len(cities) == 1:
            owners = [str(c["owner"]).strip("()") for c in choices if c["city"] == cities[0] and "owner" in c]
            whose = f" — owner: {' or '.join(owners)}" if len(owners) > 1 else ""
            out.append((f"{coord} {name}{whose}".strip(), coord))
        else:
            out += [(f"{coord} {name} — city {city} ({city_holders(state, city)})".strip(), city) for city in cities]
    return out


def _owners(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    """Whose station to remove, among those in the city (or hex) already named."""
    named = str(filled.get("city") or "").strip().casefold()
    out = []
    for c in choices:
        if not named or named in (c["city"].casefold(), str(c.get("hex", "")).casefold()):
            owner = str(c["owner"]).strip("()")
            out.append((f"{owner} — {c['label']}" if c.get("label") else owner, owner))
    return out


def _kinds(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    return [(c["kind"], c["kind"]) for c in choices]


def _trains(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    out = []
    for c in choices:
        if "price" in c:
            out.append((f"{c.get('variant', c['train'])}-train from the {c.get('from', 'bank')} for ${c['price']}",
                        c["train"]))
        else:
            out.append((f"{c['train']} from {c.get('from', 'another company')} (${c['min_price']}–${c['max_price']}, "
                        "give price:)", c["train"]))
    return out


def _counts(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    return [(f"{len(c['shares'])} share(s) for ${c['price']}", len(c["shares"])) for c in choices]


def _discards(state: BaseGame, choices: list[dict[str, Any]], filled: dict[str, Any]) -> list[Choice]:
    return [(c["train"], c["train"]) for c in choices]


_PICKERS: dict[tuple[str, str], Any] = {
    ("bid", "company"): _bid_company, ("bid", "price"): _bid_price,
    ("par", "corporation"): _corporations, ("par", "price"): _par_price,
    ("buy", "corporation"): _corporations, ("buy", "from"): _buy_from,
    ("sell", "corporation"): _corporations, ("sell", "percent"): _sell_percent,
    ("lay", "hex"): _hexes, ("lay", "tile"): _tiles, ("lay", "rotation"): _rotations,
    ("token", "city"): _cities, ("dividend", "kind"): _kinds, ("train", "train"): _trains,
    ("short", "corporation"): _corporations, ("merge", "corporation"): _corporations, ("remove", "city"): _cities,
    ("remove", "owner"): _owners,
    ("issue", "count"): _counts, ("redeem", "count"): _counts, ("discard", "train"): _discards,
}
