"""18USA rule 8, phase 8: "No new companies may be started" (the phase's text, the default). The
rulebook's phase table and the site allow 10-share companies (`site_phase_8_starts`).

The position: s8602's first stock round in phase 8, where Player 1 opens the auction for PRR at
$679 (the log's next action). No company was started in phase 8 before it, so the log replays to
here by either reading.
"""

from __future__ import annotations

import pytest
from usa_positions import logged_action, replayed

from engine.core.game import BaseGame
from engine.errors import GameError
from engine.legal import is_offered, legal_moves
from engine.titles.g18usa.game import SITE_PHASE_8_STARTS

LOG = "s8602"
PRR_OPENED = 1109


def phase_8_stock_round(site: bool) -> BaseGame:
    game = replayed(LOG, PRR_OPENED, without=() if site else (SITE_PHASE_8_STARTS,))
    game.importing = False
    assert (game.phase.name, game.round.name) == ("8", "Stock Round")
    return game


def starts_offered(game: BaseGame) -> list[object]:
    return [move for move in legal_moves(game) if move["type"] == "bid"]


def test_printed_no_company_may_be_started_in_phase_8() -> None:
    game = phase_8_stock_round(site=False)
    assert game.corporation_sizes() == [] and not starts_offered(game)
    opening = logged_action(LOG, PRR_OPENED)
    assert not is_offered(game, opening)
    with pytest.raises(GameError, match=r"no new companies may be started in this phase \(8\)"):
        game.process(opening)
    assert not game.corporations["PRR"].ipoed


def test_by_the_sites_reading_a_10_share_company_may_be_started_in_phase_8() -> None:
    game = phase_8_stock_round(site=True)
    assert game.corporation_sizes() == [10] and starts_offered(game)
    opening = logged_action(LOG, PRR_OPENED)
    assert is_offered(game, opening)
    game.process(opening)
    assert is_offered(game, logged_action(LOG, PRR_OPENED + 1))  # PRR's home station, as logged
