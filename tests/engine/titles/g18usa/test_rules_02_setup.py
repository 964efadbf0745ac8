"""18USA rulebook section 2: the setup dealt from the game's seed.

Against the reference: the setup line of every 18USA trace and the reference engine's setup for
200 seeds (2-7 players). Those are the site's readings, so they are dealt with the site options;
the printed readings (the default) are tested on their own.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from usa_logs import LOGS, read_log, seeded_setups, trace_head

from engine import GameError
from engine.core.rng import SetupRandom
from engine.titles.g18usa.data import load_data
from engine.titles.g18usa.setup import (
    SETUP_OPTIONS,
    SEVENTEEN_TRAINS,
    SITE_RED_AREA_TOKENS,
    SITE_TWO_TRAIN_COUNT,
    UsaSetup,
    setup_from_seed,
)

SITE = frozenset(SETUP_OPTIONS)
SEEDED = seeded_setups("18USA")
METROPOLIS_CANDIDATES = {"G3", "E11", "H14", "H22", "I19", "D20"}
SUBSIDY_CITIES = ["B8", "B14", "C3", "D6", "D14", "E3", "E7", "E23", "G7", "G11", "G27", "H8", "I13",
                  "I25"]
ALL_PRIVATES = [f"P{number}" for number in range(1, 31)]
ALL_SUBSIDIES = [f"S{number}" for number in range(1, 17)]


def players(count: int) -> list[dict[str, Any]]:
    return [{"id": f"p{seat}", "name": f"Player {seat}"} for seat in range(1, count + 1)]


def as_trace_setup(setup: UsaSetup) -> dict[str, Any]:
    """Our setup in the vocabulary of a trace's setup line."""
    return {
        "title": "18USA",
        "seed": setup.seed,
        "rand_state_after_setup": setup.rand_state_after_setup,
        "players": [{"id": seat.id, "name": seat.name} for seat in setup.players],
        "privates_in_game": list(setup.privates_in_game),
        "privates_removed": list(setup.privates_removed),
        "metropolis_hexes": list(setup.metropolis_hexes),
        "subsidies_by_hex": {deal.hex: {"id": deal.subsidy, "name": deal.name} for deal in setup.subsidies},
        "subsidies_excluded": list(setup.subsidies_excluded),
        "resource_subsidy_resources": ", ".join(setup.resource_subsidy_resources) or "NO RESOURCES",
        "red_area_values": {area.hexes[0] if len(area.hexes) == 1 else area.name: list(area.values)
                            for area in setup.red_areas},
    }


# --- against the reference -------------------------------------------------------------------
@pytest.mark.parametrize(("log_path", "trace_path"), LOGS, ids=[log.stem for log, _ in LOGS])
def test_2_setup_equals_the_trace_setup_line_of_every_log(log_path: Path, trace_path: Path) -> None:
    log = read_log(log_path)
    reference, _ = trace_head(trace_path)
    setup = setup_from_seed(log["settings"]["seed"], log["players"], SITE)
    assert as_trace_setup(setup) == reference


@pytest.mark.parametrize("row", SEEDED, ids=[f"seed{row['seed']}-{row['players']}p" for row in SEEDED])
def test_2_setup_equals_the_reference_engine_for_200_seeds(row: dict[str, Any]) -> None:
    reference = row["setup"]
    assert len(reference["players"]) == row["players"]
    setup = setup_from_seed(row["seed"], reference["players"], SITE)
    assert as_trace_setup(setup) == reference


@pytest.mark.parametrize(("log_path", "trace_path"), LOGS, ids=[log.stem for log, _ in LOGS])
def test_2_1_and_2_2_trains_loans_and_interest_as_the_reference_starts_them(
        log_path: Path, trace_path: Path) -> None:
    log = read_log(log_path)
    _, first_state = trace_head(trace_path)
    setup = setup_from_seed(log["settings"]["seed"], log["players"], SITE)
    # The site keeps one card on the stack for an unlimited kind.
    assert [[card.name, card.count or 1] for card in setup.trains] == first_state["depot"]
    assert setup.bank_of_new_york.loans_left == first_state["loans_left"] == 70
    assert setup.bank_of_new_york.interest_rate == first_state["interest_rate"] == 5


def test_2_the_seed_range_covers_every_player_count_and_large_seeds() -> None:
    # What the 200 reference seeds exercise, so the test above is not a narrow sample.
    assert Counter(row["players"] for row in SEEDED) == {2: 34, 3: 34, 4: 33, 5: 33, 6: 33, 7: 33}
    assert max(row["seed"] for row in SEEDED) > 2**40
    assert {2**31 - 1, 2**31} <= {row["seed"] for row in SEEDED}


# --- rule 2: capital, certificate limit, seating ----------------------------------------------
@pytest.mark.parametrize(("count", "cash", "limit"),
                         [(2, 630, 32), (3, 420, 21), (4, 315, 16), (5, 300, 16), (6, 250, 13), (7, 225, 11)])
def test_2_starting_capital_and_certificate_limit_by_player_count(count: int, cash: int, limit: int) -> None:
    setup = setup_from_seed(12345, players(count))
    assert (setup.starting_cash, setup.certificate_limit) == (cash, limit)


def test_2_seating_order_is_the_order_the_players_are_given_in() -> None:
    given = [{"id": 605, "name": "Ann"}, {"id": 17, "name": "Bob"}, {"name": "Cid"}]
    setup = setup_from_seed(7, given)
    assert [(seat.id, seat.name) for seat in setup.players] == [(605, "Ann"), (17, "Bob"), ("Cid", "Cid")]


@pytest.mark.parametrize("count", [0, 1, 8])
def test_2_two_to_seven_players(count: int) -> None:
    with pytest.raises(GameError, match=f"18USA is for 2 to 7 players, not {count}"):
        setup_from_seed(1, players(count))


def test_2_players_need_distinct_ids() -> None:
    with pytest.raises(GameError, match="player ids must be different"):
        setup_from_seed(1, [{"id": 1, "name": "A"}, {"id": 1, "name": "B"}])
    with pytest.raises(GameError, match="every player needs an id or a name"):
        setup_from_seed(1, [{"id": 1}, {"seat": 2}])


def test_2_setup_is_a_pure_frozen_value() -> None:
    first = setup_from_seed(109372, players(4), SITE)
    again = setup_from_seed(109372, players(4), SITE)
    assert first == again
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.seed = 1  # type: ignore[misc]
    # Options the setup does not know (other rules of the game) change nothing.
    assert setup_from_seed(109372, players(4), SITE | {"some_other_rule"}) == dataclasses.replace(
        first, options=SITE | {"some_other_rule"})
    # Every draw comes from the seed's generator: the state left is as many draws on as the
    # setup made (7 + privates + 6 + 16 with the site's 11 red tokens).
    generator = SetupRandom(109372)
    private_draws = 30 - 4  # every private outside P1-P4 is shuffled once in its group (4 players)
    for _ in range(11 + private_draws + 6 + 16):
        generator.draw()
    assert first.rand_state_after_setup == generator.state


# --- 2.1 trains ------------------------------------------------------------------------------
def roster(setup: UsaSetup) -> dict[str, int | None]:
    return {card.name: card.count for card in setup.trains}


def test_2_1_train_stack_for_two_to_four_and_five_to_seven_players() -> None:
    small = roster(setup_from_seed(3, players(4)))
    large = roster(setup_from_seed(3, players(5)))
    assert small == {"2": None, "2+": 4, "3": 12, "3+": 2, "4": 7, "4+": 1, "5": 5, "6": 4, "7": 3,
                     "8": None, "P": None}
    assert large == {"2": None, "2+": 5, "3": 12, "3+": 2, "4": 8, "4+": 1, "5": 6, "6": 5, "7": 3,
                     "8": None, "P": None}
    assert roster(setup_from_seed(3, players(2))) == small
    assert roster(setup_from_seed(3, players(7))) == large


def test_2_1_two_trains_unlimited_by_the_rulebook_forty_on_the_site() -> None:
    assert roster(setup_from_seed(3, players(3)))["2"] is None
    assert roster(setup_from_seed(3, players(3), {SITE_TWO_TRAIN_COUNT}))["2"] == 40


def test_2_1_stack_order_prices_rusting_and_obsolescence() -> None:
    cards = {card.name: card for card in setup_from_seed(3, players(4)).trains}
    assert list(cards) == ["2", "2+", "3", "3+", "4", "4+", "5", "6", "7", "8", "P"]
    assert {name: card.price for name, card in cards.items()} == {
        "2": 100, "2+": 100, "3": 250, "3+": 250, "4": 400, "4+": 400, "5": 600, "6": 750, "7": 900,
        "8": 1100, "P": 200}
    assert {name: card.rusts_on for name, card in cards.items() if card.rusts_on} == {
        "2": "4", "3": "6", "4": "8"}
    assert {name: card.obsolete_on for name, card in cards.items() if card.obsolete_on} == {
        "2+": "4", "3+": "6", "4+": "8"}
    # Rule 12.7: the Pullman is no train, from phase 5 on.
    assert (cards["P"].pullman, cards["P"].available_on) == (True, "5")
    assert not any(card.pullman for name, card in cards.items() if name != "P")
    assert "signal_end_game" in cards["8"].events


def test_17_the_1817_train_roster_variant() -> None:
    setup = setup_from_seed(3, players(6), {SEVENTEEN_TRAINS})
    assert roster(setup) == {"2": 40, "2+": 4, "3": 12, "4": 8, "5": 5, "6": 4, "7": 3, "8": None, "P": 20}


# --- 2.2 Bank of New York ---------------------------------------------------------------------
def test_2_2_bank_of_new_york_side_for_two_to_four_players() -> None:
    bank = setup_from_seed(1, players(3)).bank_of_new_york
    assert [(tier.rate, tier.loans) for tier in bank.tiers] == [(rate, 5) for rate in range(5, 75, 5)]
    assert (bank.loans_left, bank.interest_rate) == (70, 5)


def test_2_2_five_or_more_players_four_loans_at_five_dollars_six_on_the_others() -> None:
    bank = setup_from_seed(1, players(6)).bank_of_new_york
    assert [(tier.rate, tier.loans) for tier in bank.tiers] == [(5, 4)] + [(rate, 6) for rate in range(10, 65, 5)]
    assert (bank.loans_left, bank.interest_rate) == (70, 5)


def test_9_interest_rate_is_the_row_of_the_last_loan_taken() -> None:
    small = setup_from_seed(1, players(4)).bank_of_new_york
    large = setup_from_seed(1, players(5)).bank_of_new_york
    assert [small.rate_for(n) for n in (0, 1, 5, 6, 10, 11, 69, 70)] == [5, 5, 5, 10, 10, 15, 70, 70]
    assert [large.rate_for(n) for n in (0, 4, 5, 10, 11, 70)] == [5, 5, 10, 10, 15, 60]
    with pytest.raises(ValueError, match="71 loans cannot be out: the bank holds 70"):
        small.rate_for(71)


# --- 2.3 private companies --------------------------------------------------------------------
def face_values() -> dict[str, int]:
    return {raw["id"]: raw["value"] for raw in load_data()["entities"]["privates"]["companies"]}


@pytest.mark.parametrize("row", SEEDED[:60], ids=[f"seed{row['seed']}" for row in SEEDED[:60]])
def test_2_3_fixed_privates_and_the_number_drawn_from_each_value_group(row: dict[str, Any]) -> None:
    count = row["players"]
    setup = setup_from_seed(row["seed"], players(count))
    in_game = set(setup.privates_in_game)
    assert sorted(in_game | set(setup.privates_removed), key=ALL_PRIVATES.index) == ALL_PRIVATES
    assert not in_game & set(setup.privates_removed)
    fixed = {"P1", "P2", "P3", "P4"} | ({"P10"} if count >= 5 else set())
    assert fixed <= in_game
    drawn = Counter(face_values()[private] for private in in_game - fixed)
    assert drawn == {30: 1, 40: 2, 60: 3, 80: 2, 90: 2, 120: 1}
    assert len(in_game) == 15 + (count >= 5)


def test_2_3_p10_is_drawn_with_the_forty_dollar_privates_below_five_players() -> None:
    seen = {"P10" in setup_from_seed(seed, players(4)).privates_in_game for seed in range(40)}
    assert seen == {True, False}


# --- 2.4 metropolises -------------------------------------------------------------------------
def test_2_4_new_york_and_three_of_the_six_candidates_with_their_tiles() -> None:
    tiles = load_data()["map"]["randomized_setup"]["metropolis"]["tiles"]
    for seed in range(30):
        setup = setup_from_seed(seed, players(4))
        assert setup.metropolis_hexes[0] == "D28"
        drawn = setup.metropolis_hexes[1:]
        assert len(set(drawn)) == 3 and set(drawn) <= METROPOLIS_CANDIDATES
        assert [tile.hex for tile in setup.metropolis_tiles] == list(drawn)
        for tile in setup.metropolis_tiles + setup.undrawn_metropolises:
            assert (tile.tile, tile.rotation) == (tiles[tile.hex]["tile"], tiles[tile.hex]["rotation"])
        assert {tile.hex for tile in setup.undrawn_metropolises} == METROPOLIS_CANDIDATES - set(drawn)


def test_2_4_the_other_three_go_on_p10_only_when_it_is_in_play() -> None:
    with_p10 = setup_from_seed(5, players(5))
    assert "P10" in with_p10.privates_in_game
    assert with_p10.p10_metropolises == with_p10.undrawn_metropolises
    assert len(with_p10.p10_metropolises) == 3
    without = next(setup for seed in range(50)
                   if "P10" not in (setup := setup_from_seed(seed, players(3))).privates_in_game)
    assert without.p10_metropolises == ()
    assert len(without.undrawn_metropolises) == 3


# --- 2.5 subsidies ----------------------------------------------------------------------------
def test_2_5_one_subsidy_on_each_of_the_fourteen_subsidy_cities_two_left_out() -> None:
    names = {raw["id"]: raw["name"] for raw in load_data()["entities"]["subsidies"]["tiles"]}
    for seed in range(30):
        setup = setup_from_seed(seed, players(6))
        assert [deal.hex for deal in setup.subsidies] == SUBSIDY_CITIES
        dealt = [deal.subsidy for deal in setup.subsidies]
        assert sorted(dealt + list(setup.subsidies_excluded), key=ALL_SUBSIDIES.index) == ALL_SUBSIDIES
        assert len(setup.subsidies_excluded) == 2
        assert all(deal.name == names[deal.subsidy] for deal in setup.subsidies)
        assert setup.subsidy_on("B8") == setup.subsidies[0]
        assert setup.subsidy_on("D28") is None


def test_2_5_the_subsidy_tiles_are_those_of_the_appendix() -> None:
    counts = Counter(raw["name"] for raw in load_data()["entities"]["subsidies"]["tiles"])
    assert counts == {"No Subsidy": 7, "Boomtown Subsidy": 1, "Free Station": 1, "+10": 1, "+10 / +20": 1,
                      "Resource Subsidy": 1, "$30 Subsidy": 2, "$40 Subsidy": 1, "$50 Subsidy": 1}


@pytest.mark.parametrize("row", SEEDED[:80], ids=[f"seed{row['seed']}" for row in SEEDED[:80]])
def test_2_5_resource_subsidy_offers_what_the_privates_in_play_leave(row: dict[str, Any]) -> None:
    setup = setup_from_seed(row["seed"], players(row["players"]))
    out = set(setup.privates_removed)
    expected = [resource for resource, privates in
                (("ore", {"P24"}), ("oil", {"P12"}), ("coal", {"P18", "P28"})) if privates & out]
    assert list(setup.resource_subsidy_resources) == expected


# --- 2.6 red areas ----------------------------------------------------------------------------
RED_AREAS = {"Montreal": ("A27",), "Port of New Orleans": ("J20",),
             "Mexico": ("I5", "I7", "I9", "I11", "J12", "K13"), "Winnipeg": ("A15",), "Seattle": ("B2",),
             "Florida": ("J24",), "San Francisco": ("E1",)}
RULEBOOK_TOKENS = Counter([(20, 30, 40, 50), (20, 30, 40, 60), (20, 30, 50, 60), (20, 30, 60, 90),
                           (20, 40, 50, 80), (30, 40, 40, 50), (30, 40, 50, 60), (30, 50, 60, 80),
                           (30, 50, 60, 80), (40, 50, 40, 40)])
SITE_TOKENS = RULEBOOK_TOKENS + Counter([(20, 30, 50, 60)])


def test_2_6_seven_red_areas_each_with_one_token_mexico_shared() -> None:
    setup = setup_from_seed(109372, players(4))
    assert {area.name: area.hexes for area in setup.red_areas} == RED_AREAS
    mexico = setup.red_area_of("K13")
    assert mexico is not None and mexico.name == "Mexico" and setup.red_area_of("I5") == mexico
    assert setup.red_area_of("D28") is None


@pytest.mark.parametrize(("options", "pool"), [((), RULEBOOK_TOKENS), ({SITE_RED_AREA_TOKENS}, SITE_TOKENS)],
                         ids=["rulebook", "site"])
def test_2_6_red_area_tokens_come_from_the_rulebook_or_the_site_pool(options: set[str], pool: Counter) -> None:
    twice = 0
    for row in SEEDED:
        dealt = Counter(area.values for area in setup_from_seed(row["seed"], players(2), options).red_areas)
        assert not dealt - pool, f"seed {row['seed']} dealt {dealt - pool} beyond the pool"
        twice += dealt[(20, 30, 50, 60)] == 2
    # Only the site's pool has 20/30/50/60 twice; P6's 30/40/50/80 is never dealt.
    assert (twice > 0) == (SITE_RED_AREA_TOKENS in options)
