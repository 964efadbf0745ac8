"""Rulebook section 12.2 (with 3, 5 and 9): laying and upgrading track."""

from __future__ import annotations

import pytest
from engine_helpers import Setup, choices_of, corp, operating, or_game, play, refuse, step_label

from engine.log import Game


def lays(game: Game) -> dict[str, dict[str, list[int]]]:
    """Offered lays as {hex: {tile name: rotations}}."""
    return {c["hex"]: {t["tile"].rsplit("-", 1)[0]: t["rotations"] for t in c["tiles"]}
            for c in choices_of(game, "lay_tile")}


def saa_game(phase: str = "2", built: bool = False, count: int = 3, options: list[str] | None = None,
             extra=None) -> Game:  # type: ignore[no-untyped-def]
    """SAA (home San Antonio, J5) operating with $300.  With `built`, San Antonio already has a
    202 (exits to K4 and I4) and I4 a tile 8 from San Antonio to I2 (direct setup)."""
    def prepare(setup: Setup) -> None:
        setup.company("SAA", "100,0,2", {"B": 20}, operated=False)
        setup.cash("SAA", 300)
        if built:
            setup.lay("J5", "202-0", 0)
            setup.lay("I4", "8-0", 5)
        if phase != "2":
            setup.phase(phase)
        if extra:
            extra(setup)
    game = or_game(count, options=options, company="SAA", prepare=prepare)
    assert operating(game) == "SAA" and step_label(game) == "track"
    return game


# --- the home hex, cities and Y cities ------------------------------------------------------------
def test_12_2_while_the_home_hex_has_no_track_the_first_tile_goes_there() -> None:
    game = saa_game()
    assert set(lays(game)) == {"J5"}
    refuse(game, "lay_tile", "SAA", r"SAA has no track in its home hex yet, so its tile goes in J5 \(12.2\)",
           hex="I4", tile="7-0", rotation=4)


@pytest.mark.parametrize("options", [[], ["site_home_track"]])
def test_12_2_home_hex_first_even_with_a_station_elsewhere(options: list[str]) -> None:
    """SAA has no track in San Antonio but a second station in Palestine (F13), on a tile 5 with
    track (direct setup, as a G&RRRC or NOPR station would be). 12.2 looks at the home hex; the
    site at any of the company's track."""
    def extra(setup: Setup) -> None:
        setup.lay("F13", "5-0", 0)
        setup.token("SAA", "F13")
    game = saa_game(options=options, extra=extra)
    elsewhere = {coord for coord in lays(game) if coord != "J5"}
    if options:
        assert elsewhere
        choice = next(c for c in choices_of(game, "lay_tile") if c["hex"] in elsewhere)
        tile = choice["tiles"][0]
        play(game, "lay_tile", "SAA", hex=choice["hex"], tile=tile["tile"], rotation=tile["rotations"][0])
    else:
        assert set(lays(game)) == {"J5"}
        refuse(game, "lay_tile", "SAA", r"SAA has no track in its home hex yet, so its tile goes in J5 \(12.2\)",
               hex="F11", tile="7-0", rotation=0)


def test_12_2_y_cities_take_y_tiles_only() -> None:
    game = saa_game()
    refuse(game, "lay_tile", "SAA", r"tile 5 cannot be laid in J5; tiles that can: 202", hex="J5", tile="5-0",
           rotation=0)
    assert lays(game) == {"J5": {"202": [0, 1, 2, 3, 4, 5]}}


def test_12_2_ordinary_cities_take_ordinary_city_tiles_not_y_tiles() -> None:
    game = or_game(company="MKT", prepare=lambda s: s.company("MKT", "100,0,2", {"C": 20}, operated=False))
    refuse(game, "lay_tile", "MKT", r"tile 202 cannot be laid in B11; tiles that can: 5, 6, 57", hex="B11",
           tile="202-0", rotation=0)
    assert set(lays(game)["B11"]) == {"5", "6", "57"}


def test_12_2_plain_hexes_take_plain_track() -> None:
    game = saa_game(built=True)
    refuse(game, "lay_tile", "SAA", r"tile 5 cannot be laid in K4; tiles that can: 7, 8, 9", hex="K4",
           tile="5-0", rotation=3)


# --- how many lays ----------------------------------------------------------------------------------
def test_12_2_phase_2_lay_one_or_two_yellow_tiles() -> None:
    game = saa_game()
    play(game, "lay_tile", "SAA", hex="J5", tile="202-0", rotation=0)
    assert step_label(game) == "track"
    play(game, "lay_tile", "SAA", hex="K4", tile="9-0", rotation=0)
    # Two yellow tiles laid: the track step is over.
    assert step_label(game) != "track"
    refuse(game, "lay_tile", "SAA", r"/lay is not possible now: SAA is to \w[\w ]*; what you can do now:", hex="I4", tile="9-1", rotation=2)


def test_12_2_phase_2_has_no_upgrades() -> None:
    game = saa_game(built=True)
    refuse(game, "lay_tile", "SAA", r"green tiles are not available in phase 2", hex="J5", tile="511-0",
           rotation=0)
    refuse(game, "lay_tile", "SAA", r"green tiles are not available in phase 2", hex="I4", tile="23-0",
           rotation=1)


def test_12_2_phase_3_upgrade_only_as_the_only_lay() -> None:
    game = saa_game("3", built=True)
    play(game, "lay_tile", "SAA", hex="K4", tile="9-0", rotation=0)
    refuse(game, "lay_tile", "SAA", r"only a yellow tile may be laid now, not an upgrade", hex="J5",
           tile="511-0", rotation=0)
    assert "J5" not in lays(game)


def test_12_2_after_an_upgrade_no_other_tile() -> None:
    game = saa_game("3", built=True)
    play(game, "lay_tile", "SAA", hex="J5", tile="511-0", rotation=0)
    assert step_label(game) != "track"


def test_12_2_two_yellow_lays_in_every_phase() -> None:
    for phase in ("3", "4", "5", "6", "8"):
        game = saa_game(phase, built=True)
        game.state.close_all_companies()  # as at the start of phase 5 (direct setup)
        play(game, "lay_tile", "SAA", hex="K4", tile="9-0", rotation=0)
        play(game, "lay_tile", "SAA", hex="I2", tile="8-1", rotation=4)
        assert step_label(game) != "track", phase


def test_12_2_tile_colours_by_phase() -> None:
    game = saa_game("3", built=True)
    # The 511 is three-fold symmetric: its three rotations that keep the track lay the same tile.
    assert lays(game)["J5"] == {"511": [0, 2, 4]}
    game = saa_game("5", built=True)
    game.state.close_all_companies()
    # Brown from phase 5: the 511 laid earlier upgrades to 216, but not yet to gray 512.
    Setup(game).lay("J5", "511-0", 0)
    assert lays(game)["J5"] == {"216": [0, 1, 2, 3, 4, 5]} or set(lays(game)["J5"]) == {"216"}
    refuse(game, "lay_tile", "SAA", r"gray tiles are not available in phase 5", hex="J5", tile="512-0",
           rotation=0)


# --- terrain -------------------------------------------------------------------------------------
def test_12_2_difficult_terrain_is_paid_to_the_bank_by_the_first_tile() -> None:
    game = saa_game(built=True)
    bank = game.state.bank.cash
    play(game, "lay_tile", "SAA", hex="I2", tile="8-1", rotation=4)
    assert corp(game, "SAA").cash == 240 and game.state.bank.cash == bank + 60


def test_12_2_terrain_that_the_company_cannot_pay_is_refused() -> None:
    game = saa_game(built=True)
    Setup(game).cash("SAA", 59)
    refuse(game, "lay_tile", "SAA", r"the terrain in I2 costs \$60; SAA has \$59", hex="I2", tile="8-1", rotation=4)
    assert "I2" not in lays(game)


def test_12_2_upgrades_on_terrain_are_free() -> None:
    game = saa_game("3", built=True)
    # Direct setup: SAA has a station in Cisco (E4, desert $40) on a yellow 57.
    setup = Setup(game)
    setup.lay("E4", "57-0", 0)
    setup.token("SAA", "E4")
    play(game, "lay_tile", "SAA", hex="E4", tile="14-0", rotation=0)
    assert corp(game, "SAA").cash == 300


# --- the board's edges ---------------------------------------------------------------------------
def test_12_2_track_may_not_run_off_the_hex_grid() -> None:
    game = saa_game(built=True)
    # I2 lies on the map's edge: its sides 1 and 2 face no hex.
    refuse(game, "lay_tile", "SAA", r"tile 8 in I2 must keep the old track and point only at usable neighbours",
           hex="I2", tile="8-1", rotation=2)
    assert lays(game)["I2"]["8"] == [4]


def test_12_2_track_may_not_run_into_the_blank_side_of_a_red_hex() -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MKT", "100,0,2", {"C": 20}, operated=False)
        setup.lay("B11", "57-0", 1)  # Denison: track to B9 and B13
    game = or_game(company="MKT", prepare=prepare)
    # B13's side 2 faces Oklahoma City (A12), whose track only leaves towards Denison.
    refuse(game, "lay_tile", "MKT", r"tile 7 in B13 must keep the old track and point only at usable "
           r"neighbours; legal rotations: \[0, 4, 5\]", hex="B13", tile="7-0", rotation=1)
    play(game, "lay_tile", "MKT", hex="B13", tile="7-0", rotation=0)


# --- upgrades ------------------------------------------------------------------------------------
def test_12_2_upgrades_keep_the_old_track() -> None:
    game = saa_game("3", built=True)
    refuse(game, "lay_tile", "SAA", r"tile 511 in J5 must keep the old track", hex="J5", tile="511-0", rotation=1)


def test_12_2_plain_track_upgrade_must_add_track_on_the_companys_route() -> None:
    game = saa_game("3", built=True)
    # Tile 16 keeps I4's track (sides 5-1) but its new track (sides 0-2) touches nothing SAA reaches.
    refuse(game, "lay_tile", "SAA", r"the new track of tile 16 in I4 would not connect to SAA's route",
           hex="I4", tile="16-0", rotation=5)
    play(game, "lay_tile", "SAA", hex="I4", tile="23-0", rotation=1)


def test_12_2_stations_stay_on_the_upgraded_tile_and_the_old_tile_returns_to_the_supply() -> None:
    game = saa_game("3", built=True)
    board = game.state.board
    play(game, "lay_tile", "SAA", hex="J5", tile="511-0", rotation=0)
    assert board.hexes["J5"].tokens == [["SAA", None]]
    assert board.free_copy("202") == 0


def test_12_2_dallas_fort_worth_and_houston_count_as_yellow_y_cities() -> None:
    def prepare(setup: Setup) -> None:
        setup.company("T&P", "100,0,2", {"B": 20}, operated=False)
        setup.cash("T&P", 300)
    game = or_game(company="T&P", prepare=prepare)
    # Phase 2: D9 takes nothing (its first tile is a green 511); T&P lays elsewhere from its track.
    assert "D9" not in lays(game) and {"D7", "C10"} <= set(lays(game))
    game = or_game(company="T&P", prepare=lambda s: (prepare(s), s.phase("3")))
    assert lays(game)["D9"] == {"511": [1, 3, 5]}
    play(game, "lay_tile", "T&P", hex="D9", tile="511-0", rotation=1)
    # An upgrade: no second tile; T&P's station is now in the 511's single city.
    assert step_label(game) != "track"
    assert game.state.board.hexes["D9"].tokens == [[None, "T&P"]] or \
        game.state.board.hexes["D9"].tokens == [["T&P", None]]


def test_12_2_the_tile_manifest_limits_plain_yellow_track() -> None:
    game = saa_game(built=True)
    # Direct setup: all five copies of tile 7 are on the board far away.
    setup = Setup(game)
    for copy, coord in enumerate(("N3", "N5", "M4", "M6", "L1")):
        setup.lay(coord, f"7-{copy}", 0)
    assert "7" not in lays(game)["K4"]
    refuse(game, "lay_tile", "SAA", r"tile 7-0 is not in the supply; all copies are in use", hex="K4",
           tile="7-0", rotation=2)
    refuse(game, "lay_tile", "SAA", r"tile 7-5 is not in the supply; all copies are in use", hex="K4",
           tile="7-5", rotation=2)


# --- private companies that block hexes -------------------------------------------------------------
def sp_towards_j13(phase: str = "2") -> Game:
    """SP operating with track from Houston through I12 towards J13 (direct setup)."""
    def prepare(setup: Setup) -> None:
        setup.lay("I12", "7-0", 4)  # sides 4 (Houston) and 5 (J13)
        if phase != "2":
            setup.phase(phase)
    return or_game(prepare=prepare)


def test_12_2_bbbc_blocks_j13_while_open() -> None:
    game = sp_towards_j13()
    refuse(game, "lay_tile", "SP", r"J13 is blocked by the private company Buffalo Bayou, Brazos and Colorado "
           r"Railway Company while it is open", hex="J13", tile="8-0", rotation=0)
    assert "J13" not in lays(game)


def test_12_2_bbbc_block_ends_when_privates_close_in_phase_5() -> None:
    game = sp_towards_j13("5")
    game.state.close_all_companies()  # the first 5-train closes them (direct setup)
    play(game, "lay_tile", "SP", hex="J13", tile="8-0", rotation=0)


def ssw_towards_d13(count: int, options: list[str] | None = None) -> Game:
    def prepare(setup: Setup) -> None:
        setup.company("SSW", "100,0,2", {"C": 20}, operated=False)
        setup.lay("D15", "57-0", 1)  # Marshall: track to D13 and D17
    return or_game(count, options=options, company="SSW", prepare=prepare)


@pytest.mark.parametrize("options", [[], ["site_private_cards"]])
def test_5_ign_hexes_are_open_by_the_rulebook_and_blocked_by_the_site_s_card(options: list[str]) -> None:
    """P4 gives the I&GN no block; the site's card keeps D13 and E12 for it while it is open."""
    game = ssw_towards_d13(4, options=options)
    if options:
        refuse(game, "lay_tile", "SSW", r"D13 is blocked by the private company International–Great Northern "
               r"Railroad while it is open", hex="D13", tile="9-0", rotation=1)
    else:
        play(game, "lay_tile", "SSW", hex="D13", tile="9-0", rotation=1)


def test_5_ign_hexes_are_open_in_three_player_games() -> None:
    game = ssw_towards_d13(3)
    play(game, "lay_tile", "SSW", hex="D13", tile="9-0", rotation=1)
