"""Rulebook section 5: the private companies' special powers (G&RRRC, I&GN, NOPR)."""

from __future__ import annotations

import pytest
from engine_helpers import (
    Setup,
    choices_of,
    corp,
    moves_of,
    operating,
    or_game,
    play,
    refuse,
    rotation_for,
    ssw_network,
    step_label,
)

from engine.log import Game

GRRRC = "Galveston and Red River Railway Company"
IGN = "International–Great Northern Railroad"
NOPR = "New Orleans Pacific Railroad"


def mp_operating(phase: str = "3", count: int = 3, president: str = "B", extra=None) -> Game:  # type: ignore[no-untyped-def]
    """MP ($300, home College Station without track, so no route) operating first, presided by
    `president` (B owns the G&RRRC, D the I&GN, E the NOPR)."""
    def prepare(setup: Setup) -> None:
        setup.company("MP", "122,0,4", {president: 30}, operated=False)
        setup.cash("MP", 300)
        if phase != "2":
            setup.phase(phase)
        if extra:
            extra(setup)
    return or_game(count, company="MP", prepare=prepare)


def company_moves(game: Game, kind: str, company: str) -> list[dict]:
    return [m for m in moves_of(game, kind) if m["entity"] == company]


# --- G&RRRC ------------------------------------------------------------------------------------
def test_5_grrrc_lays_the_511_in_houston_free_and_places_a_station_without_a_route() -> None:
    game = mp_operating()
    assert company_moves(game, "lay_tile", "GRRRC")[0]["choices"] == [
        {"hex": "I14", "tiles": [{"tile": "511-0", "rotations": [1, 3, 5]}]}]
    play(game, "lay_tile", "GRRRC", hex="I14", tile="511-0", rotation=1)
    # The lay is MP's track step (an upgrade): no other tile; "at no cost" (rule 5).
    assert corp(game, "MP").cash == 300
    assert step_label(game) == "token"
    play(game, "place_token", "GRRRC", city="511-0-0", slot=1, tokener="MP")
    assert game.state.board.hexes["I14"].tokens == [["SP", "MP"]]
    # MP now has a route (Houston-Galveston) and must buy a train.
    assert step_label(game) == "buy_train" and not moves_of(game, "pass")


def test_5_grrrc_s_station_is_offered_by_its_hex_as_other_stations_are() -> None:
    """The bot finds a station by its hex ('/token city:I14 private:GRRRC'); G&RRRC's offer named
    only the tile's city id ('511-0-0'), so the bot read the hex as '511' and refused."""
    game = mp_operating()
    play(game, "lay_tile", "GRRRC", hex="I14", tile="511-0", rotation=1)
    assert company_moves(game, "place_token", "GRRRC")[0]["choices"] == [{"city": "511-0-0", "hex": "I14"}]


def test_5_grrrc_power_works_from_phase_3() -> None:
    game = mp_operating("2")
    assert company_moves(game, "lay_tile", "GRRRC") == []
    refuse(game, "lay_tile", "GRRRC", rf"{GRRRC}'s power works in phases 3, 4", hex="I14", tile="511-0",
           rotation=1)


def test_5_grrrc_only_for_a_company_its_owner_presides() -> None:
    game = mp_operating(president="C")
    assert company_moves(game, "lay_tile", "GRRRC") == []
    refuse(game, "lay_tile", "GRRRC", rf"{GRRRC} can act only for a company its owner presides; MP is operating",
           hex="I14", tile="511-0", rotation=1)


def test_5_grrrc_tile_is_the_track_step_and_its_station_the_station_step() -> None:
    game = mp_operating()
    play(game, "lay_tile", "MP", hex="G10", tile="57-0", rotation=0)
    refuse(game, "lay_tile", "GRRRC", rf"{GRRRC}'s tile replaces MP's track step; lay it before other tiles",
           hex="I14", tile="511-0", rotation=1)
    game = mp_operating()
    play(game, "lay_tile", "GRRRC", hex="I14", tile="511-0", rotation=1)
    play(game, "pass", "MP")  # MP passes its station step: the G&RRRC station is gone with it
    refuse(game, "place_token", "GRRRC", rf"{GRRRC} places a station only in MP's station step right after its "
           r"tile", city="511-0-0", slot=1, tokener="MP")


def test_5_grrrc_is_used_once_and_not_on_a_green_houston() -> None:
    game = mp_operating()
    play(game, "lay_tile", "GRRRC", hex="I14", tile="511-0", rotation=1)
    assert game.state.companies["GRRRC"].abilities_used == 1
    game = mp_operating(extra=lambda s: s.lay("I14", "511-0", 1))
    assert company_moves(game, "lay_tile", "GRRRC") == []
    refuse(game, "lay_tile", "GRRRC", rf"I14 already has a green tile; {GRRRC}'s #511 can no longer be laid",
           hex="I14", tile="511-1", rotation=1)


# --- I&GN --------------------------------------------------------------------------------------
def ign_game(phase: str = "3", options: list[str] | None = None) -> Game:
    """4 players; D (the I&GN's owner) presides MP, operating in `phase`."""
    def prepare(setup: Setup) -> None:
        setup.company("MP", "122,0,4", {"D": 30}, operated=False)
        setup.cash("MP", 300)
        if phase != "2":
            setup.phase(phase)
    return or_game(4, options=options, company="MP", prepare=prepare)


def test_5_ign_two_extra_tiles_in_d13_and_e12_that_connect() -> None:
    game = ign_game()
    # D13's side 0 faces E12 (whose side 3 faces back): each tile needs track on that side.
    first = rotation_for(game, "9", {0, 3})
    play(game, "lay_tile", "IGN", hex="D13", tile="9-0", rotation=first)
    # The second must connect: a tile in E12 without track on side 3 is refused.
    refuse(game, "lay_tile", "IGN", rf"the two {IGN} tiles must connect to each other \(rule 5\): the tile in E12 "
           r"needs track on the side facing D13", hex="E12", tile="9-1", rotation=rotation_for(game, "9", {1, 4}))
    # Both must be laid: no passing the track step in between.
    refuse(game, "pass", "MP", rf"both {IGN} tiles must be laid \(rule 5\)")
    play(game, "lay_tile", "IGN", hex="E12", tile="9-1", rotation=rotation_for(game, "9", {0, 3}))
    # They are extra: MP still lays its own tile in its home.
    play(game, "lay_tile", "MP", hex="G10", tile="57-0", rotation=0)
    assert game.state.board.hexes["D13"].tile_id == "9-0" and game.state.board.hexes["E12"].tile_id == "9-1"


def test_5_ign_first_tile_must_face_the_other_hex() -> None:
    game = ign_game()
    refuse(game, "lay_tile", "IGN", rf"the two {IGN} tiles must connect to each other \(rule 5\): the tile in D13 "
           r"needs track on the side facing E12", hex="D13", tile="9-0", rotation=rotation_for(game, "9", {1, 4}))
    offered = {c["hex"]: c["tiles"] for c in choices_of(game, "lay_tile") if c["hex"] in ("D13", "E12")}
    assert set(offered) == {"D13", "E12"}
    for hex_tiles in offered.values():
        for tile in hex_tiles:
            assert tile["tile"].split("-")[0] in ("7", "8", "9")


@pytest.mark.parametrize("options", [[], ["site_private_cards"]])
def test_5_ign_any_plain_yellow_tile_printed_only_8_and_9_on_the_site(options: list[str]) -> None:
    """P4: "place two tiles in the I&GN hexes": any plain yellow track; the site's card: #8, #9."""
    game = ign_game(options=options)
    offered = {t["tile"].split("-")[0] for c in choices_of(game, "lay_tile") if c["hex"] == "D13"
               for t in c["tiles"]}
    # A sharp curve (#7) from D13's side facing E12 (0) to its neighbour side 1.
    curve = rotation_for(game, "7", {0, 1})
    if options:
        assert offered == {"8", "9"}
        refuse(game, "lay_tile", "IGN", r"tile 7 cannot be laid in D13; tiles that can: 8, 9", hex="D13",
               tile="7-0", rotation=curve)
    else:
        assert offered == {"7", "8", "9"}
        play(game, "lay_tile", "IGN", hex="D13", tile="7-0", rotation=curve)
        assert game.state.board.hexes["D13"].tile_id == "7-0"


@pytest.mark.parametrize("options", [[], ["site_private_cards"]])
def test_5_ign_from_phase_3_in_both_readings(options: list[str]) -> None:
    game = ign_game("2", options=options)
    refuse(game, "lay_tile", "IGN", rf"{IGN}'s power works in phases 3, 4", hex="D13", tile="9-0", rotation=0)


# --- NOPR --------------------------------------------------------------------------------------
def nopr_game(extra=None, phase: str = "3", options: list[str] | None = None) -> Game:  # type: ignore[no-untyped-def]
    """5 players; E (the NOPR's owner) presides MP in `phase`."""
    def prepare(setup: Setup) -> None:
        setup.company("MP", "122,0,4", {"E": 30}, operated=False)
        setup.cash("MP", 300)
        if phase != "2":
            setup.phase(phase)
        if extra:
            extra(setup)
    return or_game(5, options=options, company="MP", prepare=prepare)


@pytest.mark.parametrize("options", [[], ["site_private_cards"]])
def test_5_nopr_power_has_no_phase_condition_printed_phases_3_4_on_the_site(options: list[str]) -> None:
    """P5 names no phase (unlike P2 and P4, "From Phase 3 on"); the site's card says phases 3-4.
    The #511 is green, so in phase 2 there is no legal tile either way: the readings differ in
    the reason, and both allow the lay in phase 3."""
    game = nopr_game(phase="2", options=options)
    assert not [m for m in moves_of(game, "lay_tile") if m["entity"] == "NOPR"]
    reason = rf"{NOPR}'s power works in phases 3, 4" if options else r"green tiles are not available in phase 2"
    refuse(game, "lay_tile", "NOPR", reason, hex="J5", tile="511-0", rotation=0)
    game = nopr_game(phase="3", options=options)
    play(game, "lay_tile", "NOPR", hex="J5", tile="511-0", rotation=0)


def test_5_nopr_511_on_an_unbuilt_san_antonio_with_a_station() -> None:
    game = nopr_game()
    play(game, "lay_tile", "NOPR", hex="J5", tile="511-0", rotation=0)
    assert corp(game, "MP").cash == 300
    play(game, "place_token", "NOPR", city="511-0-0", slot=0, tokener="MP")
    # San Antonio keeps its other space for SAA's home station.
    assert game.state.board.hexes["J5"].tokens == [["MP", None]]


def test_5_nopr_511_on_a_yellow_san_antonio() -> None:
    game = nopr_game(lambda s: s.lay("J5", "202-0", 0))
    play(game, "lay_tile", "NOPR", hex="J5", tile="511-0", rotation=0)
    assert game.state.board.hexes["J5"].tile_id == "511-0"


# --- the station that comes with the #511 (option site_private_station) -------------------------
@pytest.mark.parametrize("options", [[], ["site_private_station"]])
def test_5_grrrc_station_or_the_company_s_own_station(options: list[str]) -> None:
    """SSW (B, who owns the G&RRRC) can reach Lufkin; the G&RRRC lays its #511 in Houston."""
    game = ssw_network(phase="3", step="track", options=options)
    play(game, "lay_tile", "GRRRC", hex="I14", tile="511-0", rotation=1)
    houston = {"city": "511-0-0", "hex": "I14"}
    if options:
        # The site: the private alone answers at once, with the station or a pass.
        assert [(m["type"], m["entity"]) for m in game.legal_moves()] == [("place_token", "GRRRC"),
                                                                           ("pass", "GRRRC")]
        assert choices_of(game, "place_token") == [houston]
        refuse(game, "place_token", "SSW", r"GRRRC must first place SSW's station in I14 or pass",
               city=city_of(game, "F15"), slot=0)
        play(game, "pass", "GRRRC")
        # Declining leaves SSW its own station step.
        assert step_label(game) == "token"
        play(game, "place_token", "SSW", city=city_of(game, "F15"), slot=0)
    else:
        # Printed: the station is SSW's station step, with Houston among its choices.
        assert step_label(game) == "token"
        assert houston in [{"city": c["city"], "hex": "I14"} for m in moves_of(game, "place_token")
                           if m["entity"] == "GRRRC" for c in m["choices"]]
        refuse(game, "pass", "GRRRC", rf"{GRRRC} cannot /pass now")
        play(game, "place_token", "GRRRC", city="511-0-0", slot=0, tokener="SSW")
        # One station a turn (12.3): the step is over.
        assert step_label(game) != "token"
    assert game.state.board.hexes["F15"].corporations_here() == ({"SSW"} if options else set())


@pytest.mark.parametrize("options", [[], ["site_private_station"]])
def test_5_grrrc_station_placed_uses_the_company_s_station_step(options: list[str]) -> None:
    game = ssw_network(phase="3", step="track", options=options)
    play(game, "lay_tile", "GRRRC", hex="I14", tile="511-0", rotation=1)
    play(game, "place_token", "GRRRC", city="511-0-0", slot=0, tokener="SSW")
    assert game.state.board.hexes["I14"].corporations_here() == {"SP", "SSW"}
    assert step_label(game) == "route"


@pytest.mark.parametrize("options", [[], ["site_private_station"]])
def test_5_nopr_511_in_the_company_s_own_home(options: list[str]) -> None:
    """SAA (E, the NOPR's owner) already has its home station in San Antonio."""
    def prepare(setup: Setup) -> None:
        setup.company("SAA", "122,0,4", {"E": 30}, operated=False)
        setup.cash("SAA", 300)
        setup.phase("3")
    game = or_game(5, options=options, company="SAA", prepare=prepare)
    play(game, "lay_tile", "NOPR", hex="J5", tile="511-0", rotation=0)
    if options:
        # The site asks the NOPR all the same; it can only pass.
        assert [(m["type"], m["entity"]) for m in game.legal_moves()] == [("pass", "NOPR")]
        refuse(game, "place_token", "NOPR", r"SAA already has a station in J5", city="511-0-0", slot=1,
               tokener="SAA")
        play(game, "pass", "NOPR")
    else:
        assert not moves_of(game, "pass") or all(m["entity"] == "SAA" for m in moves_of(game, "pass"))
        refuse(game, "pass", "NOPR", rf"{NOPR} cannot /pass now")
    assert operating(game) == "SAA" and step_label(game) != "track"


def city_of(game: Game, coord: str) -> str:
    from engine.core.track import city_id
    return city_id(game.state.board.hexes[coord], 0)
