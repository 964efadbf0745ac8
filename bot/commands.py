"""From a command word and its options to one 18xx.games action, using the legal moves.

The engine's legal-moves query says who may do what now; this module only finds the move
the caller means (for their seat or a company they preside), fills in the action's fields
from the chosen option, and says clearly what is allowed when nothing matches. Whether the
move is legal in the end is the engine's call: it checks every action again.
"""

from __future__ import annotations

from typing import Any

from bot.errors import CommandError, NotPossibleNow, NotYourTurn
from bot.model import Command
from bot.routes_text import parse_routes
from bot.vocabulary import COMMANDS, DIVIDEND_WORDS, SOURCE_WORDS
from engine.core.actions import parse_action
from engine.core.commands import ENTITY_FIELD, CommandSpec, words_for_move
from engine.core.game import BaseGame
from engine.core.step import INFORMATIONAL
from engine.describe import city_holders, rotation_words
from engine.errors import GameError, NotNow
from engine.legal import legal_moves, move_decider, why_not_now

Move = dict[str, Any]
BID_TARGETS = ("company", "corporation", "minor")  # what an auction's choices may offer

# Which action type a command word makes, and for whom (the engine's command table).
TYPES: dict[str, CommandSpec] = COMMANDS
PROPOSAL_WORDS = ("proposal", "best", "proposed")  # routes: that mean the proposed runs


def controls(state: BaseGame, player_id: Any, move: Move) -> bool:
    """True when the player may act for the move's entity: the engine says who decides it
    (their seat, a company they preside or are starting, a private they or their company own)."""
    player = move_decider(state, move)
    return player is not None and str(player.id) == str(player_id)


def title_spec(state: BaseGame, word: str) -> CommandSpec:
    """The game's own entry for a word (its title's phrases and choice filters); a word of
    another title is refused with the words this game has."""
    spec = next((c for c in type(state).COMMANDS if c.word == word), None)
    if spec is None:
        words = ", ".join(f"/{c.word}" for c in type(state).COMMANDS)
        raise CommandError(f"/{word} is not a move in {state.TITLE}; its moves are {words}")
    return spec


def candidate_moves(state: BaseGame, moves: list[Move], player_id: Any, word: str) -> list[Move]:
    """The legal moves this command word could mean for this player (raises when none); a
    word that takes only some of a move's choices (`selects`) sees only those."""
    spec = title_spec(state, word)
    matching = [m if not spec.selects else {**m, "choices": [c for c in m["choices"] if spec.takes(c)]}
                for m in moves if spec.covers(m)]
    mine = [m for m in matching if controls(state, player_id, m)]
    if mine:
        return mine
    if matching:
        raise NotYourTurn(f"/{word} is not yours to make now")
    raise NotPossibleNow(f"/{word} is not possible now")


def engine_reason(state: BaseGame, player_id: Any, command: Command) -> str:
    """Why the engine refuses what this command asks, where no legal move is made by its word:
    the action the word makes, for the player or a company they preside (the one the command
    names, else the one acting now first), tried on a copy; where the command does not give
    the action's fields, the engine says what the round waits for and what the entity may do.
    A player who presides no company the word is for hears what they may do themselves; where
    the step in play takes the action type but offers nothing the word makes, that."""
    spec = title_spec(state, command.name)
    fields: dict[str, Any] = {}
    named = None
    whole = True  # the action's fields can be read from the command alone
    for option in spec.options:
        value = command.get(option.name)
        if isinstance(value, str) and not value.strip():
            value = None  # `corporation:` with nothing after it names nothing: not a company ''
        if option.choice_field == ENTITY_FIELD:
            named = value
        elif value is not None and option.choice_field in (None, option.name):
            fields[option.name] = value  # a choice's own field, or a free amount (a train's price)
        elif option.required or option.choice_field is None:
            whole = False  # a free amount left out: the bot would fill it in from a legal move
    entities: list[tuple[Any, str]] = []
    if "player" in spec.entities and named is None:
        entities.append((player_id, "player"))
    if "corporation" in spec.entities:
        acting = state.round.acting_entity(state)
        presided = [corp for corp in state.corporations.values()
                    if (president := corp.president()) is not None and str(president.id) == str(player_id)]
        current = state.round.current_entity(state)  # the operating company, while its president acts
        presided.sort(key=lambda corp: (corp is not acting, corp is not current))
        entities += [(corp.id, "corporation") for corp in presided
                     if named is None or _upper(corp.id) == _upper(named)]
    for entity, kind in entities:
        action = {"type": spec.action, "entity": entity, "entity_type": kind, **fields}
        if not (whole and _readable(action)):
            why = why_not_now(state, kind, entity, spec.action)
            if why is None:  # the step takes the type from this entity, but offers no move of the word
                break
            return why
        trial = state.snapshot()
        try:
            trial.process(action)
        except NotNow as error:  # the caller's reply already says the word is not possible now
            return error.why
        except GameError as error:
            return str(error)
    if not entities and (why := why_not_now(state, "player", player_id, spec.action)) is not None:
        return why
    return nothing_to(state, player_id, spec)


def nothing_to(state: BaseGame, player_id: Any, spec: CommandSpec) -> str:
    """The step in play takes the word's action type, but no legal move is made by the word (no
    share for sale to buy, no private to contribute): say so, with the words the player's
    legal moves take now."""
    words = sorted({word for move in legal_moves(state) if controls(state, player_id, move)
                    for word in words_for_move(type(state).COMMANDS, move)})
    can = f"what you can do now: {', '.join(words)}" if words else "you have nothing to do now"
    return f"there is nothing you can /{spec.word} now; {can}"


def _readable(action: dict[str, Any]) -> bool:
    """Whether the engine can read the action (its fields of the right kinds)."""
    try:
        parse_action(action)
    except GameError:
        return False
    return True


def clicked(verb: str) -> Command | None:
    """The move command a button's verb stands for (None for a verb this version does not know).

    A run button names the total it was offered for (``run:990``): once a longer search has
    found better runs, pressing an older button is refused instead of running runs it did not
    show (the Moderator compares it with the position's proposal)."""
    if verb in ("pass", "run"):  # "run" alone: buttons offered before they named their total
        return Command(verb)
    word, _, value = verb.partition(":")
    if word == "dividend" and value:
        return Command("dividend", {"kind": value})
    if word == "run" and value.isdigit():
        return Command("run", {"offered_total": int(value)})
    return None


def wants_proposal(command: Command) -> bool:
    """A /run that confirms the optimizer's proposal (no routes:, or autocomplete's choice)."""
    return str(command.get("routes") or "").strip().casefold() in ("", *PROPOSAL_WORDS)


def base(move: Move) -> dict[str, Any]:
    action: dict[str, Any] = {"type": move["type"], "entity": move["entity"],
                              "entity_type": move.get("entity_type", "player")}
    return action


def _upper(value: Any) -> str:
    return str(value).strip().upper() if value is not None else ""


def _listing(items: list[str], limit: int = 20) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _needs(command: Command, what: str, option: str) -> str:
    """An option left out (the terminal may leave out what Discord requires): "/buy needs a
    company (corporation:)", said before what it can be."""
    return f"/{command.name} needs {what} ({option}:)"


def build_action(state: BaseGame, moves: list[Move], player_id: Any, command: Command,
                 proposal: dict[str, Any] | None = None) -> dict[str, Any]:
    """The action the caller means; ``proposal`` is the optimizer's run_routes action."""
    word = command.name
    if word not in TYPES:
        raise CommandError(f"unknown command /{word}")
    mine = candidate_moves(state, moves, player_id, word)
    spec = title_spec(state, word)
    mine = _by_entity(spec, mine, command)
    if word == "run":
        return _run(state, mine, command, proposal)
    builder = _BUILDERS.get(word)
    return _by_choice_fields(spec, mine, command) if builder is None else builder(state, mine, command)


def _by_entity(spec: CommandSpec, mine: list[Move], command: Command) -> list[Move]:
    """An option that picks the acting entity (`entity` field) keeps that entity's moves."""
    for option in spec.options:
        value = command.get(option.name)
        if option.choice_field != ENTITY_FIELD or value is None:
            continue
        kept = [m for m in mine if _upper(m["entity"]) == _upper(value)]
        if not kept:
            allowed = sorted({str(m["entity"]) for m in mine})
            raise CommandError(f"{option.name}:{value} cannot /{spec.word} now; "
                               f"{option.name} can be {_listing(allowed)}")
        mine = kept
    return mine


def _one_left(spec: CommandSpec, options: list[tuple[Move, dict[str, Any] | None]], command: Command) -> None:
    """Refuse to guess: an option left out that would still pick between several choices
    (an /attach with two attachments offered) is asked for, with what it can be."""
    for option in spec.options:
        field = option.choice_field
        if field in (None, ENTITY_FIELD) or command.get(option.name) is not None:
            continue
        values: dict[str, str] = {}
        for _, choice in options:
            if choice is not None and field in choice:
                label = choice.get("label")
                values.setdefault(str(choice[field]), f"{choice[field]} ({label})" if label else str(choice[field]))
        if len(values) > 1:
            raise CommandError(f"/{spec.word} needs {option.name}:, one of {_listing(list(values.values()))}")


def _by_choice_fields(spec: CommandSpec, mine: list[Move], command: Command) -> dict[str, Any]:
    """Any command whose options pick a legal choice by its fields (the table's choice_field):
    the chosen choice's own fields make the action, and free options are passed as given."""
    options = [(move, choice) for move in mine for choice in (move.get("choices") or [None])]
    picked: list[str] = []
    for option in spec.options:
        value = command.get(option.name)
        if option.choice_field in (None, ENTITY_FIELD) or value is None:
            continue
        field = option.choice_field
        picked.append(field)
        kept = [(m, c) for m, c in options if c is not None and _upper(c.get(field)) == _upper(value)]
        if not kept:
            allowed = sorted({str(c.get(field)) for _, c in options if c is not None})
            raise CommandError(f"/{spec.word} {option.name}:{value} is not possible now; "
                               f"{option.name} can be {_listing(allowed) or 'nothing'}")
        options = kept
    _one_left(spec, options, command)
    move, choice = options[0]
    action = base(move)
    if choice is not None:
        # The choice's action fields, and any field the caller picked by name (a company to
        # sell short is an action's field even where it only describes other moves).
        action.update({key: value for key, value in choice.items() if key not in INFORMATIONAL or key in picked})
    for option in spec.options:
        if option.choice_field is None and command.get(option.name) is not None:
            action[option.name] = command.get(option.name)
    return action


def _bid(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    """A bid on whatever the auction offers: a private company, or a corporation where the
    title auctions them; the choice names it under its own field."""
    move = mine[0]
    wanted = _upper(command.get("company"))
    targets = {str(c.get(_bid_field(c))).upper(): c for c in move["choices"]}
    if wanted not in targets:
        offers = [f"{c.get(_bid_field(c))} (from ${_lowest(c)})" for c in move["choices"]]
        wrong = f"{wanted} is not up for auction" if wanted else _needs(command, "what to bid on", "company")
        raise CommandError(f"{wrong}; you can bid on {_listing(offers) or 'nothing (not enough cash)'}")
    price = command.get("price")
    choice = targets[wanted]
    if not isinstance(price, int):
        raise CommandError(f"give your bid for {wanted} as a whole number of dollars (price:){_range(choice)}")
    field = _bid_field(choice)
    return {**base(move), field: choice[field], "price": price}


def _range(choice: dict[str, Any]) -> str:
    """", from $80 to $500 in steps of $5": what a bid may be, as far as the choice says."""
    lowest, highest, step = _lowest(choice), choice.get("max", choice.get("max_price")), choice.get("step")
    words = f", from ${lowest}" if lowest is not None else ""
    words += f" to ${highest}" if highest is not None else ""
    return words + (f" in steps of ${step}" if step and step > 1 else "")


def _lowest(choice: dict[str, Any]) -> Any:
    return choice.get("min", choice.get("min_price"))


def _bid_field(choice: dict[str, Any]) -> str:
    return next((key for key in BID_TARGETS if key in choice), "company")


def _par(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    move = mine[0]
    wanted = _upper(command.get("corporation"))
    options = [c for c in move["choices"] if c["corporation"].upper() == wanted]
    if not options:
        names = sorted({c["corporation"] for c in move["choices"]})
        wrong = f"{wanted} cannot be started now" if wanted else _needs(command, "a company", "corporation")
        raise CommandError(f"{wrong}; you can start {_listing(names)}")
    price = command.get("price")
    chosen = next((c for c in options if price in (c["price"], c["share_price"])), None)
    if chosen is None:
        prices = ", ".join(f"${c['price']}" for c in sorted(options, key=lambda c: c["price"]))
        if price is None:
            raise CommandError(f"{_needs(command, 'a par price', 'price')}; {options[0]['corporation']} can "
                               f"start at {prices}")
        raise CommandError(f"{options[0]['corporation']} can start at {prices}, not {price}")
    return {**base(move), "corporation": chosen["corporation"], "share_price": chosen["share_price"]}


def _buy(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    move = mine[0]
    wanted = _upper(command.get("corporation"))
    options = [c for c in move["choices"] if c["corporation"].upper() == wanted]
    if not options:
        offers = sorted({f"{c['corporation']} (${c['price']})" for c in move["choices"]})
        wrong = f"you cannot buy a share of {wanted} now" if wanted else _needs(command, "a company", "corporation")
        raise CommandError(f"{wrong}; you can buy {_listing(offers)}")
    source = command.get("from")
    if source is not None:
        where = SOURCE_WORDS.get(str(source).strip().lower())
        if where is None:
            raise CommandError(f"from:{source} is neither treasury nor pool; from: can be treasury or pool")
        sold = options
        options = [c for c in options if c["from"] == where]
        if not options:
            offers = sorted({f"the {c['from']} (${c['price']})" for c in sold})
            raise CommandError(f"no share of {wanted} can be bought from the {where} now; "
                               f"a share of {wanted} can be bought from {' and '.join(offers)}")
    # As on 18xx.games, the company's own treasury comes first when both sell.
    chosen = sorted(options, key=lambda c: c["from"] != "treasury")[0]
    return {**base(move), "shares": [chosen["share"]], "percent": chosen["percent"]}


def _sell(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    move = mine[0]
    wanted = _upper(command.get("corporation"))
    options = [c for c in move["choices"] if c["corporation"].upper() == wanted]
    if not options:
        names = sorted({c["corporation"] for c in move["choices"]})
        wrong = f"you cannot sell {wanted} now" if wanted else _needs(command, "a company", "corporation")
        raise CommandError(f"{wrong}; you can sell {_listing(names)}")
    percent = command.get("percent")
    if percent is None:  # no amount given: the smallest the engine offers (one share)
        percent = min(c["percent"] for c in options)
    chosen = next((c for c in options if c["percent"] == percent), None)
    if chosen is None:
        amounts = ", ".join(f"{c['percent']}% (${c['price']})" for c in options)
        raise CommandError(f"you can sell {amounts} of {options[0]['corporation']}, not {percent}%")
    return {**base(move), "shares": list(chosen["shares"]), "percent": chosen["percent"]}


def _count(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    companies = sorted({str(m["entity"]) for m in mine})
    if len(companies) > 1:  # never guess whose shares: the president of several names one
        raise CommandError(f"/{command.name} for which company? You can for {_listing(companies)}: "
                           "give corporation:")
    move = mine[0]
    count = command.get("count")
    chosen = next((c for c in move["choices"] if len(c["shares"]) == count), None)
    if chosen is None:
        counts = ", ".join(f"{len(c['shares'])} (${c['price']})" for c in move["choices"])
        if count is None:
            raise CommandError(f"{_needs(command, 'how many shares', 'count')}; {move['entity']} can "
                               f"{command.name} {counts} share(s)")
        raise CommandError(f"{move['entity']} can {command.name} {counts} share(s), not {count}")
    return {**base(move), "shares": list(chosen["shares"]), "percent": chosen["percent"]}


def _by_private(mine: list[Move], command: Command) -> list[Move]:
    """The company's own move first, then private companies'; `private:` picks one."""
    wanted = command.get("private")
    if wanted:
        picked = [m for m in mine if m.get("entity_type") == "company" and str(m["entity"]).upper() == _upper(wanted)]
        if not picked:
            names = sorted({str(m["entity"]) for m in mine if m.get("entity_type") == "company"})
            raise CommandError(f"{wanted} has no power to use now" +
                               (f"; privates you can use: {', '.join(names)}" if names else ""))
        return picked
    return sorted(mine, key=lambda m: m.get("entity_type") == "company")


def tile_name(tile_id: str) -> str:
    return tile_id.rsplit("-", 1)[0] if "-" in tile_id else tile_id


def _lay(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    moves = _by_private(mine, command)
    coord = _upper(command.get("hex"))
    wanted_tile = str(command.get("tile") or "").strip()
    rotation = command.get("rotation")
    hexes = [c for m in moves for c in m["choices"]]
    at_hex = [(m, c) for m in moves for c in m["choices"] if c["hex"] == coord]
    if not at_hex:
        wrong = f"no tile can be laid on {coord}" if coord else _needs(command, "a hex", "hex")
        raise CommandError(f"{wrong}; hexes you can build on: {_listing(sorted({c['hex'] for c in hexes}))}")
    fitting: dict[str, list[int]] = {}  # printed tile -> the rotations it fits in
    for move, choice in at_hex:
        for tile in choice["tiles"]:
            name = tile_name(tile["tile"])
            fitting.setdefault(name, [])
            fitting[name] += [r for r in tile["rotations"] if r not in fitting[name]]
            if wanted_tile not in (tile["tile"], name):
                continue
            if rotation not in tile["rotations"]:
                fits = "; ".join(rotation_words(state, coord, name, r) for r in tile["rotations"])
                wrong = f"does not fit {coord} in rotation {rotation}" if rotation is not None else "needs a rotation (rotation:)"
                raise CommandError(f"tile {name} {wrong}; it fits {coord} as {fits}")
            return {**base(move), "hex": coord, "tile": tile["tile"], "rotation": rotation}
    fitting_tiles = [f"{name} ({_rotations(sorted(rotations))})" for name, rotations in fitting.items()]
    wrong = f"tile {wanted_tile} does not fit {coord}" if wanted_tile else "/lay needs a tile (tile:)"
    raise CommandError(f"{wrong}; tiles that fit {coord}: {_listing(fitting_tiles)}")


def _rotations(rotations: list[int]) -> str:
    """"rotation 0", "rotations 1, 4"."""
    return ("rotation " if len(rotations) == 1 else "rotations ") + ", ".join(map(str, rotations))


def _token(state: BaseGame, mine: list[Move], command: Command, removing: bool = False) -> dict[str, Any]:
    moves = _by_private(mine, command)
    wanted = str(command.get("city") or "").strip()
    options = [(m, c) for m in moves for c in m["choices"]]

    def hex_of(choice: dict[str, Any]) -> str:
        return str(choice.get("hex") or choice["city"].split("-")[0])

    exact = [(m, c) for m, c in options if c["city"] == wanted]
    by_hex = [(m, c) for m, c in options if hex_of(c) == wanted.upper()]
    found = exact or by_hex
    if not found:
        places = sorted({hex_of(c) for _, c in options})
        if removing:
            wrong = f"{wanted} is not a station you can remove" if wanted else _needs(command, "a station", "city")
            raise CommandError(f"{wrong}; you can remove one in {_listing(places)}")
        wrong = f"no station can go in {wanted}" if wanted else _needs(command, "a city", "city")
        raise CommandError(f"{wrong}; cities you can reach: {_listing(places)}")
    if len({c["city"] for _, c in found}) > 1:
        which = " or ".join(f"city:{c['city']} ({city_holders(state, c['city'])})"
                            for c in dict((c["city"], c) for _, c in found).values())
        raise CommandError(f"{wanted.upper()} has more than one city; say which: {which}")
    move, choice = found[0]
    action = {**base(move), "city": choice["city"]}
    if "tokener" in move:
        action["tokener"] = move["tokener"]
    return action


def _run(state: BaseGame, mine: list[Move], command: Command,
         proposal: dict[str, Any] | None) -> dict[str, Any]:
    move = mine[0]
    text = "" if wants_proposal(command) else str(command.get("routes") or "").strip()
    if text.casefold() == "none":  # the trains have no legal run: run for nothing
        return {**base(move), "routes": []}
    if not text:
        if proposal is None:
            raise CommandError("there is no proposed run to confirm; give your runs as "
                               "routes:<train>: <hex>-<hex>-...; <train>: ..., or routes:none")
        return {**base(move), "routes": [dict(r) for r in proposal["routes"]]}
    corporation = state.corporations[str(move["entity"])]
    return {**base(move), "routes": parse_routes(state, corporation, text)}


def _dividend(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    move = mine[0]
    kind = DIVIDEND_WORDS.get(str(command.get("kind") or "").strip().lower())
    kinds = [c["kind"] for c in move["choices"]]
    if kind not in kinds:
        given = str(command.get("kind") or "").strip()
        wrong = (f"kind:{given} is not a dividend {move['entity']} may pay now" if given
                 else _needs(command, "the kind of dividend", "kind"))
        raise CommandError(f"{wrong}; kind can be {', '.join(kinds)}")
    return {**base(move), "kind": kind}


def _train(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    move = mine[0]
    wanted = str(command.get("train") or "").strip()
    price = command.get("price")
    choices = move["choices"]
    chosen = next((c for c in choices if _upper(c["train"]) == wanted.upper()), None)
    if chosen is None and wanted:  # a name: the depot's next train of that name first, then others'
        named = [c for c in choices
                 if _upper(c.get("variant") or "") == wanted.upper() or _upper(tile_name(c["train"])) == wanted.upper()]
        # The bank's at its price first (the depot's, then the open market's); other companies'
        # trains are bought at a price agreed with their president.
        named.sort(key=lambda c: (c.get("from") != "depot", "price" not in c))
        sellers = list(dict.fromkeys(str(c.get("from")) for c in named))
        if named and "price" not in named[0] and len(sellers) > 1:
            # only companies sell one: whose it is matters (a price, a consent), so it is asked
            which = [f"{seller} ({', '.join(c['train'] for c in named if str(c.get('from')) == seller)})"
                     for seller in sellers]
            first = named[0]
            price_words = (f" and the price (price:, ${first['min_price']} to ${first['max_price']})"
                           if "min_price" in first and price is None else "")
            raise CommandError(f"a {wanted}-train is for sale from {' and '.join(which)}; say which by its "
                               f"id (train:{first['train']}){price_words}")
        chosen = named[0] if named else None
    if chosen is None:  # never a guess: a /train without a train names none of them
        offers = [f"{c['train']}" + (f" from {c['from']}" if "from" in c else "") +
                  (f" (${c['price']})" if "price" in c else "") for c in choices]
        wrong = f"train {wanted} cannot be bought now" if wanted else _needs(command, "a train", "train")
        raise CommandError(f"{wrong}; trains for sale: {_listing(offers)}")
    if "price" in chosen:
        price = chosen["price"] if price is None else price
    elif price is None:
        raise CommandError(f"say the price for {chosen['train']} from {chosen['from']}: "
                           f"${chosen['min_price']} to ${chosen['max_price']}")
    action = {**base(move), "train": chosen["train"], "price": price}
    action["variant"] = chosen.get("variant") or tile_name(chosen["train"])
    return action


def _discard(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    move = mine[0]
    wanted = str(command.get("train") or "").strip()
    trains = [c["train"] for c in move["choices"]]
    chosen = next((t for t in trains if t == wanted), None) or next(
        (t for t in trains if tile_name(t) == wanted), None)
    if chosen is None:
        wrong = (f"{move['entity']} has no train {wanted} to discard; it" if wanted
                 else f"{_needs(command, 'a train', 'train')}; {move['entity']}")
        raise CommandError(f"{wrong} can discard {', '.join(trains)}")
    return {**base(move), "train": chosen}


def _use(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    """A private's marker on a hex: the hex is free (the engine checks where it may go)."""
    coord = _upper(command.get("hex"))
    if coord not in state.board.hexes:
        raise CommandError(f"{coord or 'that'} is not a hex of the map; give one such as E11")
    return {**base(mine[0]), "target": coord, "target_type": "hex"}


def _remove(state: BaseGame, mine: list[Move], command: Command) -> dict[str, Any]:
    """A station to take off, named by hex or city id like a station to place. A city may hold
    two that may go (in an 18USA company sale as the site plays it, the company's own and
    another's that counts for nothing): `owner:` says whose, and is asked for rather than guessed."""
    action = _token(state, mine, command, removing=True)
    here = [c for m in mine for c in m["choices"] if c["city"] == action["city"]]
    by_owner: dict[str, dict[str, Any]] = {}
    for choice in here:
        by_owner.setdefault(str(choice.get("owner", "")), choice)
    whose = " or ".join(f"owner:{owner.strip('()')}" + (f" ({c['label']})" if c.get("label") else "")
                        for owner, c in by_owner.items())
    place = f"{here[0].get('hex') or action['city']} (city {action['city']})"
    wanted = _owner_word(command.get("owner"))
    if wanted:
        chosen = next((c for owner, c in by_owner.items() if _owner_word(owner) == wanted), None)
        if chosen is None:
            raise CommandError(f"{place} has no station of {command.get('owner')} that {action['entity']} "
                               f"may remove; say {whose}")
    elif len(by_owner) > 1:
        raise CommandError(f"{place} holds more than one station {action['entity']} may remove; "
                           f"say whose: {whose}")
    else:
        chosen = here[0]
    return {**action, "slot": chosen["slot"]} if "slot" in chosen else action


def _owner_word(owner: Any) -> str:
    """A station's owner, to compare as typed: a company id, or neutral (the board's "(neutral)")."""
    return str(owner or "").strip().strip("()").upper()


# Commands whose options need more than matching choice fields (names, defaults, free amounts);
# any other command of a title's table is built by `_by_choice_fields`.
_BUILDERS: dict[str, Any] = {
    "bid": _bid, "par": _par, "buy": _buy, "sell": _sell, "lay": _lay, "token": _token,
    "dividend": _dividend, "train": _train, "issue": _count, "redeem": _count,
    "discard": _discard, "use": _use, "remove": _remove,
}
