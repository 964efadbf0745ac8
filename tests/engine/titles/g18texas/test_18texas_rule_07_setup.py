"""Rulebook sections 1, 5, 6 and 7: what is on the table when the game starts."""

from __future__ import annotations

import pytest
from engine_helpers import CORPORATIONS, make_game, players, seed_for_jay_gould

from engine import GameError, new_game
from engine.core.rng import SetupRandom


@pytest.mark.parametrize(("count", "cash", "limit"), [(3, 500, 15), (4, 430, 12), (5, 400, 10)])
def test_7_starting_capital_and_11_1_certificate_limit_by_player_count(count: int, cash: int, limit: int) -> None:
    game = make_game(count)
    state = game.state
    assert [p.cash for p in state.players] == [cash] * count
    assert state.cert_limit == limit
    # Section 1: an $8,000 bank, out of which the players' capital is paid.
    assert state.bank.cash == 8000 - count * cash


@pytest.mark.parametrize(("count", "privates"), [
    (3, ["BBBCRC", "GRRRC", "JG"]),
    (4, ["BBBCRC", "GRRRC", "JG", "IGN"]),
    (5, ["BBBCRC", "GRRRC", "JG", "IGN", "NOPR"]),
])
def test_7_one_private_company_per_player(count: int, privates: list[str]) -> None:
    state = make_game(count).state
    assert list(state.companies) == privates
    values = {c.id: (c.value, c.revenue) for c in state.companies.values()}
    expected = {"BBBCRC": (50, 10), "GRRRC": (80, 20), "JG": (200, 5), "IGN": (210, 30), "NOPR": (240, 40)}
    assert values == {key: expected[key] for key in privates}


@pytest.mark.parametrize("count", [1, 2, 6])
def test_2_three_to_five_players(count: int) -> None:
    with pytest.raises(GameError, match=f"18Texas is for 3 to 5 players, not {count}"):
        new_game("18Texas", players(count), 1)


def test_6_six_companies_nine_certificates_president_twenty_percent() -> None:
    state = make_game(3).state
    assert list(state.corporations) == list(CORPORATIONS)
    stations = {c.id: (c.token_count, c.token_fee, c.home_hex) for c in state.corporations.values()}
    assert stations == {
        "T&P": (5, 140, "D9"), "SP": (5, 140, "I14"), "MKT": (4, 100, "B11"),
        "MP": (4, 100, "G10"), "SSW": (3, 60, "D15"), "SAA": (3, 60, "J5"),
    }
    for corporation in state.corporations.values():
        assert len(corporation.shares) == 9
        assert sorted(s.percent for s in corporation.shares) == [10] * 8 + [20]
        assert corporation.president_share().id == f"{corporation.id}_0"


def test_7_jay_gould_company_is_drawn_from_the_seed_like_the_reference_site() -> None:
    for seed in (1, 2, 3, 65394, 123456789):
        expected = CORPORATIONS[SetupRandom(seed).draw() % 6]
        assert new_game("18Texas", players(4), seed).state.jay_gould_corporation == expected
    # Every company can be the Jay Gould company.
    for corporation in CORPORATIONS:
        assert make_game(3, corporation).state.jay_gould_corporation == corporation
        assert seed_for_jay_gould(corporation) > 0


def test_7_trains_start_with_the_two_trains_available() -> None:
    state = make_game(3).state
    assert state.depot.run_length() == [["2", 5], ["3", 4], ["4", 3], ["5", 2], ["6", 2], ["8", 4]]
    assert state.depot.next_train().name == "2"
    assert state.phase.name == "2"


def test_unknown_rule_options_are_refused() -> None:
    with pytest.raises(GameError, match=r"unknown rule option\(s\) \['site_nonsense'\]"):
        new_game("18Texas", players(3), 1, ["site_nonsense"])
