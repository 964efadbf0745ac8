"""Plain facts about a choice, for front ends that explain it to players.

Read-only queries on a position: nothing here changes the state or decides legality (that
is ``engine.legal``'s job); they say what a legal choice would do, in the map's own words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from engine.core.board import split_tile_id
from engine.core.entities import Corporation
from engine.core.game import BaseGame
from engine.core.track import find_city
from engine.errors import GameError
from engine.log import effective_actions

OFF_MAP = "the map edge"


def track_ends(state: BaseGame, coord: str, tile: str, rotation: int) -> list[str]:
    """The hexes a tile's track would lead to if laid on ``coord`` at ``rotation``: one
    neighbouring coordinate per track exit, in edge order ("J5", "K8")."""
    hexdef = state.board.hexes[coord].hexdef
    tiledef = state.board.tiles[tile]
    return [hexdef.neighbors.get(edge, OFF_MAP) for edge in sorted(tiledef.exits(rotation))]


def rotation_words(state: BaseGame, coord: str, tile: str, rotation: int) -> str:
    """"rotation 5: track to J5 and K8"."""
    ends = list(dict.fromkeys(track_ends(state, coord, tile, rotation)))
    if not ends:
        return f"rotation {rotation}: no track"
    joined = ends[0] if len(ends) == 1 else ", ".join(ends[:-1]) + " and " + ends[-1]
    return f"rotation {rotation}: track to {joined}"


_PAYS = re.compile(r"^(?P<corp>\S+) pays \$(?P<paid>\d+) and keeps \$(?P<kept>\d+)$")


def dividend_account(before: BaseGame, after: BaseGame, corporation: str) -> str | None:
    """What a dividend just did, from the positions before and after it: the amount per
    share, what each holder and the company's treasury received, and the share price move.
    None if the last log line of ``after`` is not ``corporation``'s dividend."""
    line = next((entry for entry in reversed(after.log) if entry.startswith(f"{corporation} pays $")), None)
    match = _PAYS.match(line or "")
    if match is None:
        return None
    paid, kept = int(match["paid"]), int(match["kept"])
    corp_before, corp_after = before.corporations[corporation], after.corporations[corporation]
    price_before, price_after = before.share_price(corp_before), after.share_price(corp_after)
    move = (f"share price ${price_before} → ${price_after}" if price_after != price_before
            else f"share price stays ${price_after}")
    if not paid:
        return f"{corporation} keeps ${kept} in its treasury; {move}."
    per_share = paid / after.total_shares(corp_after)
    cash_before = {player.key: player.cash for player in before.players}
    received = [f"{player.name} ${player.cash - cash_before[player.key]}" for player in after.players
                if player.cash != cash_before.get(player.key, player.cash)]
    treasury = corp_after.cash - corp_before.cash - kept
    if treasury:
        received.append(f"the {corporation} treasury ${treasury}")
    shown = f"{per_share:.0f}" if per_share == int(per_share) else f"{per_share:.2f}"
    return (f"{corporation} pays ${shown} a share: {', '.join(received) or 'nobody holds a share'}; "
            f"{move}.")


def share_prices(state: BaseGame) -> dict[str, int]:
    """Each company on the stock market and its share price now."""
    return {corporation: state.market.cell_of(corporation).price for corporation in state.market.position}


def price_move_words(before: Mapping[str, int], after: Mapping[str, int], skip: tuple[str, ...] = ()) -> list[str]:
    """"SP share price $80 → $70" for each company on the market before and after whose price
    moved, except those in ``skip`` (whose move was already told); a company that came onto or
    left the market did not move. The words of a move's reply, /game log and the digest alike."""
    return [f"{corporation} share price ${before[corporation]} → ${price}" for corporation, price in after.items()
            if corporation in before and before[corporation] != price and corporation not in skip]


def price_moves(before: Mapping[str, int], after: BaseGame, skip: tuple[str, ...] = ()) -> list[str]:
    """The share prices a move moved: ``before`` is what ``share_prices`` gave before it."""
    return price_move_words(before, share_prices(after), skip)


def idle_step(state: BaseGame, moves: list[dict[str, Any]]) -> tuple[str, str] | None:
    """(company, step label) when the operating company's only legal move in its current step
    is to pass, e.g. ("T&P", "lay track"); a private company's power may still offer a move
    of its own. None otherwise."""
    step = state.round.blocking_step(state)
    corporation = state.round.acting_entity(state)
    if step is None or not isinstance(corporation, Corporation):
        return None
    own = [m for m in moves if str(m.get("entity")) == corporation.id]
    if not own or any(m["type"] != "pass" for m in own):
        return None
    return corporation.id, step.label


def log_by_action(title: str, players: list[dict[str, Any]], seed: int, options: list[str],
                  actions: list[dict[str, Any]], causes: dict[int, str] | None = None
                  ) -> tuple[list[str], list[tuple[dict[str, Any], list[str]]]]:
    """Replay a stored game as ``load_game`` does and return the log lines written at setup,
    then each effective action with the lines it added and the share prices it moved (a pass
    adds none: the engine does not log passes, so a front end can name them in its own words),
    its auto_actions each on its own after it. `causes`, if given, receives why the game made
    each of those (by the id of the auto action: engine.automatic's causes). CPU work: run it in
    a thread."""
    from engine.automatic import automatic_moves, cause_of
    from engine.log import new_game

    game = new_game(title, players, seed, options)
    state = game.state
    state.importing = True
    setup = list(state.log)
    out = []
    for action in effective_actions(actions):
        for part in (action, *(action.get("auto_actions") or ())):
            if causes is not None and part is not action:
                causes[id(part)] = cause_of(automatic_moves(state), part)
            before, prices = len(state.log), share_prices(state)
            state.apply({key: value for key, value in part.items() if key != "auto_actions"})
            out.append((part, state.log[before:] + price_moves(prices, state)))
    return setup, out


def unattended_words(move: dict[str, Any]) -> str:
    """How a move made for a company nobody presides (`engine.legal.unattended_move`) is told."""
    return f"Nobody presides {move['entity']} (15): it passes."


def printed_tile(tile_id: str, state: BaseGame | None = None) -> str:
    """The number printed on a tile, for the site's id of one copy of it: "57" for "57-1", and
    for a tile variant the title's data names a base for ("7coal-0", "9ore20-0") its base."""
    name, _ = split_tile_id(str(tile_id))
    return printed_numbers(state).get(name, name) if state is not None else name


def printed_numbers(state: BaseGame) -> dict[str, str]:
    """Tile name -> the number printed on it, for the engine's variants of one printed tile
    (18USA's resource tiles "9ore20" name it in the title's tile data as their `base_tile`)."""
    return {raw["name"]: str(raw["base_tile"]) for raw in state.data["tiles"].get("tiles", ())
            if raw.get("base_tile")}


def train_name(action: dict[str, Any]) -> str:
    """"4" for an action on the site's train "4-6" (the variant bought, where it names one)."""
    return str(action.get("variant") or str(action.get("train")).rpartition("-")[0] or action.get("train"))


def _city(city_id: str, state: BaseGame | None) -> str:
    """The hex of a logged city id while its tile is on the map, else "a city"."""
    if state is not None:
        try:
            return find_city(state, city_id)[0]
        except GameError:
            pass
    return "a city"


def city_holders(state: BaseGame, city_id: str) -> str:
    """Which city of a hex a logged city id is, by what is in it: "stations of N&W, PRR" or
    "no station", and its free slots ("1 slot free"), for hexes with more than one city."""
    try:
        coord, index = find_city(state, city_id)
    except GameError:
        return "not on the map"
    slots = state.board.hexes[coord].tokens[index]
    held = [str(token) for token in slots if token is not None]
    free = len(slots) - len(held)
    return "; ".join(part for part in (f"stations of {', '.join(held)}" if held else "no station",
                                       f"{free} slot{'s' if free != 1 else ''} free" if free else "") if part)


def _price(share_price: str, state: BaseGame | None) -> str:
    """"$75" for the site's market cell "75,4,3"."""
    cell = state.market.by_id.get(share_price) if state is not None else None
    price = cell.price if cell is not None else share_price.partition(",")[0]
    return f"${price}"


def _corporation_of(action: dict[str, Any]) -> str:
    """"SP" for shares "SP_4", "SP_5" (18xx.games names a share by company and number)."""
    shares = action.get("shares") or []
    names = dict.fromkeys(str(share).rsplit("_", 1)[0] for share in shares)
    return ", ".join(names) or str(action.get("corporation") or "a company")


def action_words(action: dict[str, Any], names: dict[str, str] | None = None,
                 state: BaseGame | None = None) -> str:
    """A short account of one action as players name things ("Alice buys a share of MP",
    "NP lays tile 7 in E25 (rotation 2)"), for undo messages and passes, which the log does
    not record. `names` maps player ids to names; `state`, a position of the game, resolves
    tiles and cities to what the map shows."""
    names = names or {}
    kind = action.get("type", "?")
    who = names.get(str(action.get("entity")), str(action.get("entity")))
    details: dict[str, Callable[[], str]] = {
        "bid": lambda: f"bids ${action.get('price')} on {action.get('company') or action.get('corporation')}",
        "par": lambda: (f"starts {action.get('corporation')} at "
                        f"{_price(str(action.get('share_price') or ''), state)}"),
        "buy_shares": lambda: (f"redeems {len(action.get('shares') or [])} share(s)"
                               if action.get("entity_type") == "corporation"
                               else f"buys a share of {_corporation_of(action)}"),
        "sell_shares": lambda: (f"issues {len(action.get('shares') or [])} share(s)"
                                if action.get("entity_type") == "corporation"
                                else f"sells {action.get('percent')}% of {_corporation_of(action)}"),
        "lay_tile": lambda: (f"lays tile {printed_tile(str(action.get('tile')), state)} in {action.get('hex')} "
                             f"(rotation {action.get('rotation')})"),
        "place_token": lambda: f"places a station in {_city(str(action.get('city')), state)}",
        "run_routes": lambda: "runs trains",
        "dividend": lambda: f"chooses {action.get('kind')}",
        "buy_train": lambda: f"buys a {train_name(action)}-train for ${action.get('price')}",
        "discard_train": lambda: f"discards a {train_name(action)}-train",
        "scrap_train": lambda: f"scraps a {train_name(action)}-train",
        "pass": lambda: "passes",
        "take_loan": lambda: "takes a loan",
        "payoff_loan": lambda: "repays a loan",
        "short": lambda: f"sells a share of {action.get('corporation')} short",
        "convert": lambda: "converts to the next size",
        "merge": lambda: (f"merges with {action.get('corporation')}" if action.get("entity_type") == "corporation"
                          else f"names {action.get('corporation')} to buy"),
        "assign": lambda: {"company": f"contributes {action.get('target')}",
                           "corporation": f"offers {action.get('target')} for sale"}.get(
                               str(action.get("target_type")), f"is used on {action.get('target')}"),
        "remove_token": lambda: f"removes a station in {_city(str(action.get('city')), state)}",
        "choose": lambda: ("attaches an upgrade to a train for its run" if action.get("entity_type") == "corporation"
                           else f"chooses {action.get('choice')}"),
        "bankrupt": lambda: "declares bankruptcy",
        "end_game": lambda: "ends the game",
        "undo": lambda: "takes back a move",
        "redo": lambda: "makes a move again",
    }
    words = details.get(kind)
    text = words() if words is not None else str(kind).replace("_", " ")
    return f"{who} {text}"
