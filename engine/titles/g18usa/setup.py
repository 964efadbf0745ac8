"""18USA's random setup (rule 2), drawn from the game's seed as the reference site draws it.

`setup_from_seed` is pure: the same seed, players and options always give the same `UsaSetup`.
The draws follow the site's order: red-area value tokens, private companies by value group,
metropolis cities, subsidies, each a `SetupRandom` shuffle. With the site options (on for
imported and replayed logs) a seed gives the site's setup exactly. Without them the red-area
tokens come from the rulebook's 10, one draw fewer, so every later draw differs too: a seed
then deals another, equally random table.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.rng import SetupRandom
from engine.errors import GameError
from engine.titles.g18usa.data import load_data

# Where the printed rulebook and the site differ, the rulebook is the default and these options
# give the site's reading (they are on for imported and replayed site logs).
SITE_RED_AREA_TOKENS = "site_red_area_tokens"
SITE_TWO_TRAIN_COUNT = "site_two_train_count"
SETUP_OPTIONS = {
    SITE_RED_AREA_TOKENS: "Red-area values are drawn from the site's 11 tokens, 20/30/50/60 twice "
                          "(rule 2.6 and the manifest: 10 tokens, 20/30/50/60 once, plus P6's).",
    SITE_TWO_TRAIN_COUNT: "There are 40 2-trains, as on the site (rule 12.6: unlimited).",
}
# Rule 17's variants. 1817's train roster and exports, named as on the site (its only one);
# the other two are ours.
SEVENTEEN_TRAINS = "seventeen_trains"
PRESIDENT_ABOVE_60 = "president_above_60"
MAX_START_300 = "max_start_300"


@dataclass(frozen=True)
class Seat:
    """A player in seating order; seat 0 holds the priority deal."""

    id: int | str
    name: str


@dataclass(frozen=True)
class RedArea:
    """One of the seven red areas and the value token dealt to it."""

    name: str
    hexes: tuple[str, ...]
    values: tuple[int, int, int, int]  # yellow, green, brown and gray phases


@dataclass(frozen=True)
class MetropolisTile:
    """A metropolis candidate and the tile it gets, laid with this rotation."""

    hex: str
    tile: str
    rotation: int


@dataclass(frozen=True)
class SubsidyDeal:
    """The subsidy tile dealt to one subsidy city."""

    hex: str
    subsidy: str
    name: str


@dataclass(frozen=True)
class InterestTier:
    """A step of 18USA's interest track: the rate, for as many loans as the tier holds."""

    rate: int
    loans: int


@dataclass(frozen=True)
class BankOfNewYork:
    """The loan mat for the player count: its tiers, the loans on it and the interest marker."""

    players: tuple[int, ...]
    tiers: tuple[InterestTier, ...]
    loans_left: int
    interest_rate: int

    def rate_for(self, loans_taken: int) -> int:
        """The interest rate with this many loans out: the row the last loan came from (rule 9)."""
        if loans_taken < 0 or loans_taken > sum(tier.loans for tier in self.tiers):
            raise ValueError(f"{loans_taken} loans cannot be out: the bank holds "
                             f"{sum(tier.loans for tier in self.tiers)}")
        taken_so_far = 0
        for tier in self.tiers:
            taken_so_far += tier.loans
            if loans_taken <= taken_so_far:
                return tier.rate
        return self.tiers[-1].rate


@dataclass(frozen=True)
class TrainCard:
    """A kind of train in the roster; `count` None means unlimited."""

    name: str
    distance: int
    price: int
    count: int | None
    rusts_on: str | None = None
    obsolete_on: str | None = None
    available_on: str | None = None
    events: tuple[str, ...] = ()
    pullman: bool = False


@dataclass(frozen=True)
class UsaSetup:
    """Everything rule 2 puts on the table for one game."""

    seed: int
    players: tuple[Seat, ...]
    options: frozenset[str]
    starting_cash: int
    certificate_limit: int
    rand_state_after_setup: int
    privates_in_game: tuple[str, ...]
    privates_removed: tuple[str, ...]
    metropolis_hexes: tuple[str, ...]  # New York first, then the three drawn in draw order
    metropolis_tiles: tuple[MetropolisTile, ...]  # the three drawn, laid at setup
    undrawn_metropolises: tuple[MetropolisTile, ...]  # the other three, in draw order
    subsidies: tuple[SubsidyDeal, ...]  # in the order the hexes are dealt
    subsidies_excluded: tuple[str, ...]
    resource_subsidy_resources: tuple[str, ...]
    red_areas: tuple[RedArea, ...]  # by value-token slot
    bank_of_new_york: BankOfNewYork
    trains: tuple[TrainCard, ...]

    def __deepcopy__(self, memo: dict[int, Any]) -> UsaSetup:
        # Made of tuples and never changed: copies of a game share it (as its map does), so a
        # game and its map keep reading one setup after a refused move restored a copy.
        return self

    @property
    def p10_metropolises(self) -> tuple[MetropolisTile, ...]:
        """The candidates left on P10 Carnegie Steel; none when P10 is not in play (rule 2.4)."""
        return self.undrawn_metropolises if "P10" in self.privates_in_game else ()

    def subsidy_on(self, hex_id: str) -> SubsidyDeal | None:
        return next((deal for deal in self.subsidies if deal.hex == hex_id), None)

    def red_area_of(self, hex_id: str) -> RedArea | None:
        return next((area for area in self.red_areas if hex_id in area.hexes), None)


def setup_from_seed(seed: int, players: Sequence[Mapping[str, Any]],
                    options: Collection[str] = ()) -> UsaSetup:
    """Deal the 18USA setup for these players (in seating order) from the game's seed.

    Each player is a mapping with an `id` and/or a `name`. Options other than this module's
    are ignored, so a game may pass all of its rule options.
    """
    data = load_data()
    entities = data["entities"]
    seats = _seats(players, tuple(entities["player_range"]))
    chosen = frozenset(options)
    rng = SetupRandom(seed)
    red_areas = _deal_red_areas(rng, data["map"], chosen)
    in_game, removed = _draw_privates(rng, entities["privates"], len(seats))
    metropolis = data["map"]["randomized_setup"]["metropolis"]
    drawn, undrawn = _draw_metropolises(rng, metropolis)
    subsidies, excluded = _deal_subsidies(rng, entities["subsidies"])
    constants = entities["constants"]
    return UsaSetup(
        seed=seed,
        players=seats,
        options=chosen,
        starting_cash=int(constants["starting_cash"][str(len(seats))]),
        certificate_limit=int(constants["certificate_limit"][str(len(seats))]),
        rand_state_after_setup=rng.state,
        privates_in_game=in_game,
        privates_removed=removed,
        metropolis_hexes=(*metropolis["always"], *(tile.hex for tile in drawn)),
        metropolis_tiles=drawn,
        undrawn_metropolises=undrawn,
        subsidies=subsidies,
        subsidies_excluded=excluded,
        resource_subsidy_resources=_resource_offers(entities["subsidies"], in_game),
        red_areas=red_areas,
        bank_of_new_york=_bank_of_new_york(entities["bank_of_new_york"], len(seats)),
        trains=_train_roster(entities, len(seats), chosen),
    )


def _seats(players: Sequence[Mapping[str, Any]], player_range: tuple[int, ...]) -> tuple[Seat, ...]:
    low, high = player_range
    if not low <= len(players) <= high:
        raise GameError(f"18USA is for {low} to {high} players, not {len(players)}")
    seats = []
    for raw in players:
        player_id = raw.get("id", raw.get("name"))
        if player_id is None:
            raise GameError("every player needs an id or a name")
        seats.append(Seat(id=player_id, name=str(raw.get("name", player_id))))
    if len({seat.id for seat in seats}) != len(seats):
        raise GameError("player ids must be different")
    return tuple(seats)


def _deal_red_areas(rng: SetupRandom, map_data: dict[str, Any],
                    options: frozenset[str]) -> tuple[RedArea, ...]:
    """Rule 2.6: shuffle the value tokens; the token in position k goes to slot k's hexes."""
    tokens_data = map_data["randomized_setup"]["red_area_value_tokens"]
    pool = tokens_data["tokens"] if SITE_RED_AREA_TOKENS in options else tokens_data["rulebook_tokens"]
    shuffled = rng.shuffle([tuple(token) for token in pool])
    slots: dict[int, list[dict[str, Any]]] = {}
    for raw in map_data["hexes"]:
        if "value_token_slot" in raw:
            slots.setdefault(int(raw["value_token_slot"]), []).append(raw)
    areas = []
    for slot in sorted(slots):
        hexes = slots[slot]
        yellow, green, brown, gray = shuffled[slot]
        areas.append(RedArea(name=hexes[0]["red_area"], hexes=tuple(h["coord"] for h in hexes),
                             values=(yellow, green, brown, gray)))
    return tuple(areas)


def _draw_privates(rng: SetupRandom, privates: dict[str, Any],
                   player_count: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Rule 2.3: the fixed privates stay; each value group keeps a given number at random."""
    selection = privates["selection"]
    always = set(selection["always"])
    if player_count >= 5:
        always |= set(selection["always_with_5_or_more_players"])
    companies = privates["companies"]
    groups: dict[int, list[str]] = {}
    for raw in companies:
        if raw["id"] not in always:
            groups.setdefault(int(raw["value"]), []).append(raw["id"])
    removed: set[str] = set()
    for value, members in groups.items():
        keep = int(selection["kept_per_face_value"][str(value)])
        removed.update(rng.shuffle(members)[:len(members) - keep])
    in_game = tuple(raw["id"] for raw in companies if raw["id"] not in removed)
    out = tuple(raw["id"] for raw in companies if raw["id"] in removed)
    return in_game, out


def _draw_metropolises(rng: SetupRandom, metropolis: dict[str, Any]
                       ) -> tuple[tuple[MetropolisTile, ...], tuple[MetropolisTile, ...]]:
    """Rule 2.4: three of the six candidates become metropolises with their tiles."""
    order = rng.shuffle(list(metropolis["candidates"]))
    tiles = tuple(MetropolisTile(hex_id, metropolis["tiles"][hex_id]["tile"],
                                 int(metropolis["tiles"][hex_id]["rotation"])) for hex_id in order)
    selected = int(metropolis["selected"])
    return tiles[:selected], tiles[selected:]


def _deal_subsidies(rng: SetupRandom, subsidies: dict[str, Any]
                    ) -> tuple[tuple[SubsidyDeal, ...], tuple[str, ...]]:
    """Rule 2.5: one shuffled subsidy tile on each subsidy city in turn; the rest are left out."""
    names = {raw["id"]: raw["name"] for raw in subsidies["tiles"]}
    order = rng.shuffle(list(names))
    hexes = subsidies["hexes"]
    deals = tuple(SubsidyDeal(hex_id, subsidy, names[subsidy])
                  for hex_id, subsidy in zip(hexes, order, strict=False))
    left_out = set(order[len(hexes):])
    return deals, tuple(subsidy for subsidy in names if subsidy in left_out)


def _resource_offers(subsidies: dict[str, Any], in_game: tuple[str, ...]) -> tuple[str, ...]:
    """The resources the Resource Subsidy can give: those whose privates are not all in play."""
    return tuple(offer["resource"] for offer in subsidies["resource_offers"]
                 if any(private not in in_game for private in offer["when_any_out"]))


def _bank_of_new_york(bank: dict[str, Any], player_count: int) -> BankOfNewYork:
    """Rule 2.2: the side of the mat for the player count, full of loans, interest at the top."""
    side = next(side for side in bank["sides"] if player_count in side["players"])
    tiers = tuple(InterestTier(int(rate), int(loans)) for rate, loans in side["tiers"])
    return BankOfNewYork(players=tuple(side["players"]), tiers=tiers,
                         loans_left=int(bank["loans"]), interest_rate=int(bank["start_interest_rate"]))


def _train_roster(entities: dict[str, Any], player_count: int,
                  options: frozenset[str]) -> tuple[TrainCard, ...]:
    """Rule 2.1 with the counts of rule 12.6 for the player count (or rule 17's 1817 roster)."""
    variant = entities["variant_1817_trains"]
    if variant["option"] in options:
        return tuple(_train_card(raw, raw["count"]) for raw in variant["trains"])
    column = "2-4" if player_count <= 4 else "5-7"
    cards = []
    for raw in entities["trains"]:
        counts = raw["count"]
        if "rulebook_count" in raw and SITE_TWO_TRAIN_COUNT not in options:
            counts = raw["rulebook_count"]
        cards.append(_train_card(raw, counts[column]))
    return tuple(cards)


def _train_card(raw: dict[str, Any], count: int | str) -> TrainCard:
    return TrainCard(
        name=raw["name"], distance=int(raw["distance"]), price=int(raw["price"]),
        count=None if count == "unlimited" else int(count),
        rusts_on=raw.get("rusts_on"), obsolete_on=raw.get("obsolete_on"),
        available_on=raw.get("available_on"), events=tuple(raw.get("events") or ()),
        pullman=bool(raw.get("pullman")),
    )
