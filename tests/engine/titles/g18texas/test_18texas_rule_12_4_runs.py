"""Rulebook sections 12.1 and 12.4: routes and running trains."""

from __future__ import annotations

from engine_helpers import (
    Setup,
    corp,
    or_game,
    play,
    refuse,
    rotation_for,
    skip_to_step,
    ssw_network,
)

from engine.log import Game


def run(train: str, *chains: list[str], revenue: int | None = None) -> dict:
    route: dict = {"train": train, "connections": [list(chain) for chain in chains]}
    if revenue is not None:
        route["revenue"] = revenue
    return route


TO_SHREVEPORT = ["D15", "D17", "D19"]
TO_LUFKIN = ["D15", "E16", "F15"]


def test_12_4_run_revenue_is_the_sum_of_the_stops() -> None:
    game = ssw_network(trains=("2",))
    play(game, "run_routes", "SSW", routes=[run("2-0", TO_SHREVEPORT, revenue=50)])
    assert game.state.round.turn.revenue == 50


def test_12_4_trains_may_meet_in_a_city_but_not_share_track() -> None:
    game = ssw_network()
    refuse(game, "run_routes", "SSW", r"the run segment D15-D17-D19 needs track that another train of the "
           r"company already uses; no track may be used twice \(12.4\)",
           routes=[run("2-0", TO_SHREVEPORT), run("2-1", TO_SHREVEPORT)])
    play(game, "run_routes", "SSW", routes=[run("2-0", TO_SHREVEPORT), run("2-1", TO_LUFKIN)])
    assert game.state.round.turn.revenue == 90


def test_12_4_a_train_visits_at_most_its_number_of_stops() -> None:
    game = ssw_network()
    refuse(game, "run_routes", "SSW", r"a 2-train may visit at most 2 stops; this run has 3",
           routes=[run("2-0", TO_LUFKIN, ["F15", "F13"])])


def test_12_4_a_run_visits_at_least_two_stops() -> None:
    game = ssw_network()
    refuse(game, "run_routes", "SSW", r"a run must go from one stop to another", routes=[run("2-0")])
    refuse(game, "run_routes", "SSW", r"there is no track for the run segment D15", routes=[run("2-0", ["D15"])])
    refuse(game, "run_routes", "SSW", r"there is no track for the run segment D15-D17",
           routes=[run("2-0", ["D15", "D17"])])


def test_12_4_intermediate_cities_count_and_cannot_be_skipped() -> None:
    # Runs for less than the most are checked on the site's reading (any legal runs).
    game = ssw_network(trains=("3",), options=["site_any_runs"])
    # Lufkin lies between Marshall and Palestine: a run cannot pass it by, and a run through it counts it.
    refuse(game, "run_routes", "SSW", r"there is no track for the run segment D15-E16-F15-F13",
           routes=[run("3-0", ["D15", "E16", "F15", "F13"])])
    play(game, "run_routes", "SSW", routes=[run("3-0", TO_LUFKIN, ["F15", "F13"], revenue=60)])


def test_12_1_a_route_includes_a_city_with_the_companys_station() -> None:
    game = ssw_network()
    refuse(game, "run_routes", "SSW", r"each run must include a city with a SSW station",
           routes=[run("2-0", ["F15", "F13"])])


def test_12_1_red_off_boards_end_a_route() -> None:
    game = ssw_network(trains=("3",))
    refuse(game, "run_routes", "SSW", r"a run must end at the off-board area D19",
           routes=[run("3-0", TO_SHREVEPORT, ["D19", "C18", "C16"])])
    # Shreveport as the end of a run is fine.
    play(game, "run_routes", "SSW", routes=[run("3-0", ["F15", "E16", "D15"], TO_SHREVEPORT, revenue=70)])


def test_12_1_a_route_may_end_in_but_not_pass_through_a_city_full_of_other_stations() -> None:
    game = ssw_network(trains=("3",))
    # Direct setup: Lufkin's only space holds an MP station.
    Setup(game).token("MP", "F15")
    refuse(game, "run_routes", "SSW", r"the city at F15 is full of other companies' stations; a run may end "
           r"there but not pass through", routes=[run("3-0", TO_LUFKIN, ["F15", "F13"])])
    play(game, "run_routes", "SSW", routes=[run("3-0", ["D19", "D17", "D15"], TO_LUFKIN, revenue=70)])


def test_12_4_red_off_board_values_are_lower_before_phase_5_and_higher_from_it() -> None:
    game = ssw_network(trains=("2",))
    play(game, "run_routes", "SSW", routes=[run("2-0", TO_SHREVEPORT, revenue=50)])
    game = ssw_network(phase="5", trains=("2",))
    game.state.close_all_companies()
    refuse(game, "run_routes", "SSW", r"the run of train 2-0 is worth \$70, not \$50",
           routes=[run("2-0", TO_SHREVEPORT, revenue=50)])
    play(game, "run_routes", "SSW", routes=[run("2-0", TO_SHREVEPORT, revenue=70)])


def test_12_4_tan_hexes_count_as_stops_with_phase_values() -> None:
    # Galveston (J15) is worth $20 before phase 5 and $50 from it; Houston is $30.
    game = or_game(prepare=lambda s: s.give_train("SP", "2"))
    skip_to_step(game, "route")
    play(game, "run_routes", "SP", routes=[run("2-0", ["I14", "J15"], revenue=50)])
    game = or_game(prepare=lambda s: (s.give_train("SP", "2"), s.phase("5")))
    skip_to_step(game, "route")
    play(game, "run_routes", "SP", routes=[run("2-0", ["I14", "J15"], revenue=80)])


def test_12_1_dallas_and_fort_worth_are_two_separate_cities() -> None:
    def prepare(setup: Setup) -> None:
        setup.company("T&P", "100,0,2", {"B": 20}, operated=False)
        setup.give_train("T&P", "2")
    game = or_game(company="T&P", prepare=prepare)
    skip_to_step(game, "route")
    # Fort Worth ($10) to Dallas ($20, T&P's home) inside the printed D9 hex.
    play(game, "run_routes", "T&P", routes=[run("2-0", ["D9"], revenue=30)])


def test_12_4_a_train_runs_once_and_only_the_companys_trains_run() -> None:
    game = ssw_network()
    refuse(game, "run_routes", "SSW", r"train 2-0 can run only once",
           routes=[run("2-0", TO_SHREVEPORT), run("2-0", TO_LUFKIN)])
    refuse(game, "run_routes", "SSW", r"SSW has no train '3-0'", routes=[run("3-0", TO_SHREVEPORT)])


def test_12_4_declared_revenue_must_be_the_runs_value() -> None:
    game = ssw_network()
    refuse(game, "run_routes", "SSW", r"the run of train 2-0 is worth \$50, not \$60",
           routes=[run("2-0", TO_SHREVEPORT, revenue=60)])


def test_12_1_no_track_segment_twice_not_even_at_a_junction() -> None:
    """Two junction tiles (each has two tracks meeting at one side) face each other between
    Texarkana and Little Rock/Shreveport: two runs that each use one track of each tile still
    share the short piece of track where they meet (#6179)."""
    def prepare(setup: Setup) -> None:
        game_ = setup.game
        setup.company("SSW", "100,0,2", {"B": 20}, operated=False)
        setup.token("SSW", "C16")
        setup.phase("3")
        setup.lay("C16", "5-0", rotation_for(game_, "5", {3, 4}))
        setup.lay("B17", "30-0", 5)  # tracks 5-3 and 5-0
        setup.lay("C18", "26-0", 2)  # tracks 2-5 and 2-1
        setup.give_train("SSW", "2")
        setup.give_train("SSW", "2")
    game = or_game(company="SSW", prepare=prepare)
    skip_to_step(game, "route")
    board = game.state.board
    assert {frozenset(p) for p in board.hexes["B17"].paths()} == {
        frozenset({("edge", 5), ("edge", 3)}), frozenset({("edge", 5), ("edge", 0)})}
    via_texarkana_to_shreveport = run("2-0", ["C16", "B17", "C18", "D19"])
    little_rock_to_texarkana = run("2-1", ["A18", "B17", "C18", "C16"])
    refuse(game, "run_routes", "SSW", r"the runs use the track at side 5 of B17 twice; no piece of track may be "
           r"used twice, not even where two tracks join \(12.1\)",
           routes=[via_texarkana_to_shreveport, little_rock_to_texarkana])
    play(game, "run_routes", "SSW", routes=[via_texarkana_to_shreveport])
    assert game.state.round.turn.revenue == 50
    assert corp(game, "SSW").trains


# --- a route lies in one network ----------------------------------------------------------------
def separate_stations(trains: tuple[str, ...] = ()) -> Game:
    """MP (B, $300) with its home station in College Station (G10) and a second station in
    Palestine (F13), no track at either (direct setup): two stops, but in two networks."""
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {"B": 30}, operated=False)
        setup.cash("MP", 300)
        setup.token("MP", "F13")
        for name in trains:
            setup.give_train("MP", name)
    game = or_game(company="MP", prepare=prepare)
    assert sorted(game.state.board.token_hexes("MP")) == [("F13", 0), ("G10", 0)]
    return game


def test_12_4_stops_in_separate_networks_make_no_route() -> None:
    game = separate_stations()
    assert not game.state.route_available(corp(game, "MP"))
    skip_to_step(game, "buy_train")
    # Without a route MP need not buy a train (12.6).
    assert {m["type"] for m in game.legal_moves()} == {"buy_train", "pass"}
    play(game, "pass", "MP")


def test_12_4_a_company_without_a_route_runs_nothing_and_its_price_moves_as_for_a_withhold() -> None:
    game = separate_stations(trains=("2",))
    before = game.state.market.position["MP"]
    revenue_before = corp(game, "MP").cash
    skip_to_step(game, "buy_train")
    assert not [m for m in game.legal_moves() if m["type"] == "run_routes"]
    refuse(game, "run_routes", "MP", r"/run is not possible now: MP is to buy trains",
           routes=[run("2-0", ["G10", "F11", "F13"])])
    after = game.state.market.position["MP"]
    assert after[0] == before[0] and after[1] == before[1] - 1
    assert corp(game, "MP").cash == revenue_before
