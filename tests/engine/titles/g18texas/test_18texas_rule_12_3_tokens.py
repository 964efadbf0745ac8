"""Rulebook section 12.3: placing station markers."""

from __future__ import annotations

from engine_helpers import (
    Setup,
    choices_of,
    corp,
    or_game,
    play,
    refuse,
    rotation_for,
    skip_to_step,
    ssw_network,
    step_label,
)


def tokenable(game) -> set[str]:  # type: ignore[no-untyped-def]
    return {c["hex"] for c in choices_of(game, "place_token")}


def test_12_3_a_station_goes_on_a_vacant_city_on_the_companys_route_without_charge() -> None:
    game = ssw_network(step="token")
    # Lufkin and Palestine are on SSW's route; Texarkana lies beyond Shreveport, an off-board.
    assert tokenable(game) == {"F15", "F13"}
    refuse(game, "place_token", "SSW", r"the city in C16 is not on a route of SSW", city="5-2-0", slot=0)
    play(game, "place_token", "SSW", city="5-1-0", slot=0)
    assert game.state.board.hexes["F13"].tokens == [["SSW"]]
    assert corp(game, "SSW").cash == 300


def test_12_3_one_station_per_operating_round() -> None:
    game = ssw_network(step="token")
    play(game, "place_token", "SSW", city="5-1-0", slot=0)
    assert step_label(game) == "route"
    refuse(game, "place_token", "SSW", r"/token is not possible now: SSW is to run trains; what you can do now: /run", city="6-0-0",
           slot=0)


def test_12_3_station_markers_run_out() -> None:
    # SSW has three markers: home, Lufkin, and Palestine (direct setup); the step is skipped.
    game = ssw_network(step="route", extra=lambda s: (s.token("SSW", "F15"), s.token("SSW", "F13")))
    assert game.state.tokens_left(corp(game, "SSW")) == 0
    assert step_label(game) == "route"


def test_12_3_no_more_than_one_station_of_a_company_in_a_hex() -> None:
    def extra(setup: Setup) -> None:
        # Direct setup: Lufkin is a green two-space city (tile 619) holding an SSW station.
        setup.lay("F15", "619-0", rotation_for(setup.game, "619", {0, 1, 3, 5}))
        setup.token("SSW", "F15")
    game = ssw_network(phase="3", step="token", extra=extra)
    assert game.state.board.hexes["F15"].tokens == [["SSW", None]]
    assert tokenable(game) == {"F13"}
    refuse(game, "place_token", "SSW", r"SSW already has a station in F15", city="619-0-0", slot=1)


def test_12_3_a_home_space_is_kept_free_until_its_company_floats() -> None:
    def extra(setup: Setup) -> None:
        game_ = setup.game
        # Direct setup: track from Palestine through G12 into College Station (G10), MP's home.
        setup.lay("F13", "6-1", rotation_for(game_, "6", {4, 0}))
        setup.lay("G12", "8-2", rotation_for(game_, "8", {3, 1}))
        setup.lay("G10", "57-0", rotation_for(game_, "57", {1, 4}))
    game = ssw_network(step="token", extra=extra)
    assert "G10" not in tokenable(game)
    refuse(game, "place_token", "SSW", r"the free space in G10 is kept for the home station of MP \(12.3\)",
           city="57-0-0", slot=0)


def test_12_3_dallas_space_is_kept_for_t_and_p_fort_worth_is_open() -> None:
    def extra(setup: Setup) -> None:
        # Direct setup: SSW also has a station in Texarkana, with track from there through C14,
        # C12 and C10 to Dallas' side of the D9 hex.
        game_ = setup.game
        setup.token("SSW", "C16")
        setup.lay("C16", "5-2", rotation_for(game_, "5", {1, 2}))  # Texarkana to C14 and B15
        setup.lay("C14", "9-1", rotation_for(game_, "9", {1, 4}))
        setup.lay("C12", "9-2", rotation_for(game_, "9", {1, 4}))
        setup.lay("C10", "8-3", rotation_for(game_, "8", {4, 0}))  # C12 to D9's side 3
    game = ssw_network(step="token", extra=extra)
    # Dallas (D9 city 1, $20) is the first city reached and is kept for T&P; Fort Worth beyond it
    # is reachable through Dallas.
    refuse(game, "place_token", "SSW", r"the free space in D9 is kept for the home station of T&P \(12.3\)",
           city="D9-0-1", slot=0)
    play(game, "place_token", "SSW", city="D9-0-0", slot=0)
    assert game.state.board.hexes["D9"].tokens == [["SSW"], [None]]


def test_12_3_no_stations_in_piedras_negras_galveston_or_corpus_christi() -> None:
    def prepare(setup: Setup) -> None:
        game_ = setup.game
        # Direct setup: track from Houston through I12, H11 and H9 to Austin (H7).
        for coord, tile, exits in (("I12", "8-0", {4, 2}), ("H11", "8-1", {5, 1}), ("H9", "9-0", {4, 1}),
                                   ("H7", "202-0", {4, 0})):
            setup.lay(coord, tile, rotation_for(game_, tile.rsplit("-", 1)[0], exits))
    game = or_game(prepare=prepare)
    skip_to_step(game, "token")
    # Galveston (J15) is on SP's route but takes no station; Austin does.
    assert tokenable(game) == {"H7"}
    for city in ("J15-0-0", "J1-0-0", "M8-0-0"):
        refuse(game, "place_token", "SP", r"no station may be placed in (J15|J1|M8)$", city=city, slot=0)
    play(game, "place_token", "SP", city="202-0-0", slot=0)
