"""Company sizes, conversions and mergers (rules 7.2, 14.1, 14.3).

A company has 2, 5 or 10 shares; the president's certificate is always two shares. Resizing
rewrites every certificate's percent (shorts too) and adds ordinary shares to the treasury.
A merger moves the disappearing company's trains, treasury, loans, private companies and
stations to the survivor and exchanges its certificates for the survivor's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.entities import Corporation, Holder, Player, Share
from engine.core.family1817.market import price_at_most
from engine.core.family1817.shorts import close_matching_pairs
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.family1817.game import Family1817Game


def share_index(share: Share) -> int:
    return int(share.id.rsplit("_", 1)[1])


def base_shares(game: Family1817Game, corporation: Corporation) -> list[Share]:
    """The company's own certificates, not those short sales made."""
    return [s for s in corporation.shares if share_index(s) < game.FIRST_SHORT_INDEX]


def resize(game: Family1817Game, corporation: Corporation, size: int) -> list[Share]:
    """Make the company one of `size` shares; the new ordinary shares are created in its
    treasury and returned."""
    unit = 100 // size
    corporation.share_percent = unit
    # New certificates: nothing of a sold president's certificate counts as its seller's any more.
    corporation.president_certificate_kept = 0
    corporation.market_percent_offset = corporation.players_percent_offset = 0
    for share in corporation.shares:
        sign = -1 if share.percent < 0 else 1
        share.percent = sign * unit * (2 if share.president else 1)
    # Ordinary shares now: each short certificate is balanced by one more ordinary share, and
    # once shorts are closed a share numbered as a short's may be an ordinary one.
    have = sum(1 for s in corporation.shares if not s.president and s.percent > 0) - \
        sum(1 for s in corporation.shares if s.percent < 0)
    taken = {share_index(s) for s in corporation.shares}
    free = (index for index in range(1 + max((share_index(s) for s in base_shares(game, corporation)), default=0),
                                     10_000) if index not in taken)
    added = [Share(f"{corporation.id}_{next(free)}", corporation, unit, False, corporation)
             for _ in range(size - 2 - have)]
    for share in added:
        corporation.shares.append(share)
        game.ledger.move(share, corporation)
    return added


def token_shortfall(game: Family1817Game, corporation: Corporation, wanted: int) -> int:
    """Stations a conversion adds, as many of `wanted` as keep the company within the most."""
    return max(0, min(wanted, game.MAX_TOKENS - game.tokens_off_the_map(corporation) - corporation.token_count))


def convert(game: Family1817Game, corporation: Corporation) -> int:
    """Rule 14.1.1: the next size; returns how many stations the company must now buy."""
    size = game.company_size(corporation)
    new_size = game.NEXT_SIZE.get(size)
    if new_size is None:
        raise GameError(f"{corporation.id} has {size} shares and cannot convert")
    resize(game, corporation, new_size)
    game.log.append(f"{corporation.id} converts to a {new_size}-share company")
    return token_shortfall(game, corporation, game.conversion_tokens(new_size))


def merger_refusal(game: Family1817Game, survivor: Corporation, other: Corporation) -> str | None:
    if survivor is other:
        return "a company cannot merge with itself"
    size = game.company_size(survivor)
    if size != game.company_size(other) or size not in game.NEXT_SIZE:
        return f"{survivor.id} and {other.id} are not two companies of 2 or of 5 shares (14.1.2)"
    if size == 2:
        first, second = survivor.president(), other.president()
        if first is not None and second is not None and first is not second:
            price = merged_price(game, survivor, other)
            if first.cash < price:
                return (f"{first.name} must buy a share of the merged company for ${price} "
                        f"and has ${first.cash} (14.1.2)")
        return None
    president = _president_left_short(game, survivor, other)
    if president is not None:
        return (f"{president.name} would preside the merged {survivor.id} holding short shares of it "
                f"(6.2): the merger is not allowed")
    return None


def _president_left_short(game: Family1817Game, survivor: Corporation, other: Corporation) -> Player | None:
    """Who would preside a 5+5 merger still holding short shares no ordinary share of theirs
    closes (6.2), or None. Each player's shares of both count one each (a president's two), shorts
    against them; the most presides (a tie: the initiating company's president), handing the
    former president two ordinary shares for the certificate."""
    ordinary: dict[Player, int] = {}
    shorts: dict[Player, int] = {}
    for corporation in (survivor, other):
        for share in corporation.shares:
            owner = share.owner
            if not isinstance(owner, Player):
                continue
            if share.percent < 0:
                shorts[owner] = shorts.get(owner, 0) + 1
            elif not (share.president and corporation is survivor):
                ordinary[owner] = ordinary.get(owner, 0) + corporation.units(share.percent)
    if not shorts:
        return None
    current = survivor.president()
    net = {player: ordinary.get(player, 0) - shorts.get(player, 0) + (2 if player is current else 0)
           for player in set(ordinary) | set(shorts) | ({current} if current else set())}
    best = current
    for player, units in net.items():
        if best is None or units > net[best]:
            best = player
    if best is None:
        return None
    kept = ordinary.get(best, 0) - (2 if best is not current else 0)
    return best if shorts.get(best, 0) > kept else None


def merged_price(game: Family1817Game, survivor: Corporation, other: Corporation) -> int:
    """2+2: the sum of the two prices; 5+5: their average; rounded down to a market value."""
    first, second = game.share_price(survivor), game.share_price(other)
    value = first + second if game.company_size(survivor) == 2 else (first + second) // 2
    return price_at_most(game, value).price


def merge(game: Family1817Game, survivor: Corporation, other: Corporation) -> None:
    """Rule 14.1.2: `other` disappears into `survivor`, which becomes the next size."""
    reason = merger_refusal(game, survivor, other)
    if reason:
        raise GameError(reason)
    size = game.company_size(survivor)
    new_size = game.NEXT_SIZE[size]
    price_cell = price_at_most(game, merged_price(game, survivor, other))
    old_presidents = (survivor.president(), other.president())
    take_over_assets(game, survivor, other, with_treasury=True)
    join_stations(game, survivor, other, merger=True)
    game.market.remove(survivor.id)
    game.market.place(survivor.id, price_cell)
    if size == 2:
        _merge_two_share(game, survivor, other, new_size, old_presidents)
    else:
        _merge_five_share(game, survivor, other, new_size, old_presidents[0])
    game.log.append(f"{survivor.id} merges with {other.id} into a {new_size}-share company at ${price_cell.price}")
    game.retire(other)


def _merge_two_share(game: Family1817Game, survivor: Corporation, other: Corporation, new_size: int,
                     presidents: tuple[Player | None, Player | None]) -> None:
    first, second = presidents
    resize(game, survivor, new_size)
    president_cert = survivor.president_share()
    treasury = [s for s in game.ledger.holding_order(survivor, survivor) if not s.president]
    if first is None or second is None or first is second:
        if first is not None:
            game.ledger.move(president_cert, first)
        return
    # Different presidents: the initiating one buys a share and takes the president's
    # certificate; the other receives one share.
    price = game.share_price(survivor)
    game.transfer(first, survivor, price)
    game.ledger.move(president_cert, first)
    game.ledger.move(treasury[0], second)
    game.log.append(f"{first.name} buys a share of {survivor.id} for ${price}")


def _merge_five_share(game: Family1817Game, survivor: Corporation, other: Corporation, new_size: int,
                      initiator: Player | None) -> None:
    added = resize(game, survivor, new_size)
    unit = survivor.share_percent
    # The other company's short pairs (each short and an ordinary share balancing it) become the
    # survivor's as they are; its other shares (the president's counts two) become one of the
    # survivor's each. Once shorts were closed, an ordinary share numbered as a short's may be
    # one of those others: the balancing ones are counted from the highest number down.
    ordered = sorted(other.shares, key=share_index)
    shorts = [s for s in ordered if s.percent < 0]
    positive = [s for s in ordered if s.percent > 0]
    balancing = positive[len(positive) - len(shorts):] if shorts else []
    receivers: list[Holder] = []
    for share in positive:
        if share not in balancing:
            receivers += [share.owner] * other.units(share.percent)
    for share, owner in zip(added, receivers, strict=False):
        game.ledger.move(share, survivor if owner is other else owner)
    # The survivor sells each of the other's short positions anew, the short certificate numbered
    # before its balancing share (as on the site), after the survivor's certificates.
    next_index = game.ledger.pair_index(survivor)
    for share in [certificate for pair in zip(shorts, balancing, strict=True) for certificate in pair]:
        copy = Share(f"{survivor.id}_{next_index}", survivor, -unit if share.percent < 0 else unit, False,
                     survivor)
        next_index += 1
        survivor.shares.append(copy)
        game.ledger.move(copy, survivor if share.owner is other else share.owner)
    # The player with the most shares (shorts counted against them) presides, a tie going to the
    # initiating company's president; then shorts close against the shares of the same holder
    # (6.2), after the president's certificate has changed hands for ordinary shares.
    president_cert = survivor.president_share()
    holders = {id(s.owner): s.owner for s in survivor.shares if isinstance(s.owner, Player)}
    best = initiator
    best_percent = survivor.percent_owned_by(initiator) if initiator is not None else -1
    for holder in holders.values():
        percent = survivor.percent_owned_by(holder)
        if percent > best_percent:
            best, best_percent = holder, percent
    current = president_cert.owner
    if isinstance(best, Player) and best is not current:
        if isinstance(current, Player):
            game.swap_presidency(survivor, current, best)
        elif survivor.president_without_certificate is not None:
            # The certificate lies in the market (the site's dealing dumps): it stays there.
            game.check_presidency_after_buy(survivor, best)
        else:
            _give_president_certificate(game, survivor, best)
    close_matching_pairs(game, survivor)


def _give_president_certificate(game: Family1817Game, corporation: Corporation, player: Player) -> None:
    """The new president hands two ordinary shares for the certificate where it lies."""
    certificate = corporation.president_share()
    where = certificate.owner
    assert where is not None
    hand_shares_for_certificate(game, corporation, player, where)
    game.ledger.move(certificate, player)


def hand_shares_for_certificate(game: Family1817Game, corporation: Corporation, player: Player,
                                where: Holder) -> int:
    """`player` hands ordinary shares worth the president's certificate (as far as they hold them)
    to `where`, the certificate's last holder; the percent handed."""
    certificate = corporation.president_share()
    handed = 0
    for share in game.ledger.holding_order(corporation, player):
        if handed >= certificate.percent:
            break
        if not share.president and share.percent > 0:
            game.ledger.move(share, where)
            handed += share.percent
    return handed


def take_over_assets(game: Family1817Game, buyer: Corporation, target: Corporation, with_treasury: bool) -> None:
    """The buyer gets the target's trains and private companies and, in a merger, acquisition or
    friendly sale, its treasury and loans (14.1.2, 14.2); its stations join by `join_stations`."""
    for train in list(target.trains):
        target.trains.remove(train)
        buyer.trains.append(train)
        train.owner = buyer
    for private in game.companies.values():
        if private.owner is target:
            private.owner = buyer
    if with_treasury:
        if target.cash:
            game.transfer(target, buyer, target.cash)
        game.loans.move(target.id, buyer.id)


def join_stations(game: Family1817Game, buyer: Corporation, target: Corporation, merger: bool) -> None:
    """Rule 14.3: the target's stations join the buyer's. Where both have a station in one hex,
    one goes back to the charter unasked: the target's (the printed rule; the site in a merger),
    or, in a company sale as the site plays it, the buyer's own in a city they share, while in a
    hex where they hold different cities the buyer is asked which to remove. With no station left
    to remove the target's become the buyer's at once; otherwise they stay the target's while the
    buyer removes stations from the two companies' together, and become the buyer's after that."""
    if not game.site_sale_stations():
        own = {coord for coord, _, _ in placed_stations(game, buyer)}
        for coord, city_index, slot in reversed(placed_stations(game, target)):
            if coord in own:
                game.board.remove_token(coord, city_index, slot)
    else:
        shared = {(coord, city_index) for coord, city_index, _ in placed_stations(game, target)}
        for coord, city_index, slot in reversed(placed_stations(game, buyer)):
            if (coord, city_index) in shared:
                game.board.remove_token(coord, city_index, slot)
                game.log.append(f"{buyer.id}'s station at {coord} goes back to its charter")
    # The target's stations become the buyer's, those on its charter too (as on the site);
    # beyond the most, the charter's spares are discarded.
    buyer.token_count = min(game.MAX_TOKENS - game.tokens_off_the_map(buyer), buyer.token_count + target.token_count)
    target.token_count = 0
    game.joining_stations[buyer.id] = target.id
    if not stations_to_remove(game, buyer):
        finish_joining(game, buyer)


def finish_joining(game: Family1817Game, buyer: Corporation) -> None:
    """The target's stations left on the map become the buyer's."""
    target_id = game.joining_stations.pop(buyer.id, None)
    if target_id is None:
        return
    for coord, city_index, slot in placed_stations(game, game.corporations[target_id]):
        tokens = game.board.hexes[coord].tokens[city_index]
        if game.site_sale_stations() and None in tokens[:slot]:
            # The site places the buyer's station afresh: in the city's first open slot.
            free = tokens.index(None)
            game.board.remove_token(coord, city_index, slot)
            tokens[free] = buyer.id
        else:
            tokens[slot] = buyer.id


def joining_target(game: Family1817Game, corporation: Corporation) -> bool:
    """Whether the company's stations are joining a buyer's (and so stay on the map for now)."""
    return corporation.id in game.joining_stations.values()


def placed_stations(game: Family1817Game, corporation: Corporation) -> list[tuple[str, int, int]]:
    """(hex, city, slot) of each of the company's stations on the map."""
    return game.board.station_slots(corporation.id)


def joined_stations(game: Family1817Game, corporation: Corporation) -> list[tuple[str, int, int]]:
    """The company's stations and, while it takes over another company's, that company's too."""
    return list(_joined(game, corporation))


def _joined(game: Family1817Game, corporation: Corporation) -> tuple[tuple[str, int, int], ...]:
    # Read straight from the board's index: asked for every company after every action.
    stations = game.board.stations()
    placed = stations.get(corporation.id, ())
    joining = game.joining_stations.get(corporation.id)
    return placed + stations.get(joining, ()) if joining else placed


# The last answer of `crowded_candidates`: the board index it was read from (held, so that the
# identity test cannot meet a new index at an old one's address), the most, the companies.
_LAST_CROWDED: list[Any] = [None, 0, frozenset()]


def crowded_candidates(game: Family1817Game) -> frozenset[str]:
    """The companies that may have stations to remove: those with two stations in a hex or more
    than the most on the map, and those taking over another's stations. Asked after every
    action, and the map's stations change rarely: worked out once per board index."""
    stations = game.board.stations()
    most = game.MAX_TOKENS
    if _LAST_CROWDED[0] is not stations or _LAST_CROWDED[1] != most:
        found = frozenset(company for company, places in stations.items()
                          if len(places) > most or len(places) != len({coord for coord, _, _ in places}))
        _LAST_CROWDED[:] = [stations, most, found]
    crowded: frozenset[str] = _LAST_CROWDED[2]
    return crowded | set(game.joining_stations) if game.joining_stations else crowded


def stations_to_remove(game: Family1817Game, corporation: Corporation) -> int:
    """How many stations the company must take off the map: two in one hex, or more than the most."""
    placed = _joined(game, corporation)
    if not placed:
        return 0
    doubled = len(placed) - len({coord for coord, _, _ in placed})
    return max(doubled, len(placed) + game.tokens_off_the_map(corporation) - game.MAX_TOKENS)
