"""Issue 31, clarity: the terminal speaks the terminal (no buttons to press, no Discord users to
give seats to, `@Carol /game accept` where a player answers), /help lists only what works there,
and the proposed runs are the words `/run routes:` takes, so a copy of them is those runs.
Through a real `stationmaster play` process."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from cli_helpers import ROOT, cli, imported_at, play
from hostile_inputs import database_rows
from offer_helpers import stored_game

from engine import EXPORT_KEY
from engine.log import title_class
from storage import SqliteGameRepository

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"
DISCORD_WORDS = ("press", "button", "Discord", "server manager", "thread")


def test_a_train_offer_is_answered_as_the_terminal_types_it(tmp_path: Path) -> None:
    db = tmp_path / "games.db"

    async def store() -> None:
        async with await SqliteGameRepository.open(db) as repo:
            await stored_game(repo, "consent")

    asyncio.run(store())
    out = play(db, "@Alice /train train:2-0", "/game status", "/game accept", "@Carol /game accept")
    assert ("@Carol — SAA asks to buy your 2-train (2-0) from T&P for $100: accept or decline "
            "(@Carol /game accept or @Carol /game decline)") in out
    assert "error: Start /game accept with the name of the player making it, e.g. @Alice /game accept" in out
    assert "Carol accepts.\nSAA buys a 2-train from T&P for $100" in out
    assert not any(word in out for word in DISCORD_WORDS), out


def test_help_lists_what_works_in_the_terminal_as_it_is_typed_there(tmp_path: Path) -> None:
    out = cli("play", "--db", str(tmp_path / "games.db"), "--images", "none", stdin="/help\n")
    helped = out[out.index("Moves (write @<player> before each"):]
    for works in ("  /game status —", "  /game undo [steps:…] —", "  @<player> /game routes [seconds:…] —",
                  "  @<player> /game accept —", "  @<player> /game decline —", "  /game export —",
                  "  /game import file:…", "  /game abandon [confirm:…] —", "  /moves —", "Ctrl-D or Ctrl-C ends the session"):
        assert works in helped, works
    for only_on_discord in ("/game new", "/game join", "/game start", "/game replace", "/game settings",
                            "on Discord"):
        assert only_on_discord not in helped, only_on_discord


def test_the_proposal_is_copied_back_with_run_routes(tmp_path: Path) -> None:
    document = json.loads(FIXTURE.read_text())
    site = [name for name in title_class("18Texas").RULE_OPTIONS if name.startswith("site_")]
    document[EXPORT_KEY] = {"rule_options": [name for name in site if name != "site_any_runs"]}  # rule 12.4
    log = tmp_path / "65394-printed.json"
    log.write_text(json.dumps(document))
    db, _ = imported_at(tmp_path, log, 44)
    laid = play(db, "@Player 3 /lay hex:J7 tile:8 rotation:1")
    proposal = next(line for line in laid.splitlines() if line.startswith("Proposed runs for SP: "))
    assert proposal.startswith("Proposed runs for SP: 2-2: I14-I12-I10-I8-J7-J5 — 2-2 $60, total $60."), proposal
    copied = proposal.removeprefix("Proposed runs for SP: ").split(" — ")[0]
    before = database_rows(db)
    refused = play(db, "@Player 3 /run routes:none", f"@Player 3 /run routes:{copied}; {copied}")
    assert "To run for $60: /run with no routes runs the proposed runs." in refused
    assert ("the runs name the train 2-2 twice and SP has only one: each train runs once (its trains: 2-2)"
            in refused)
    assert not any(word in refused for word in DISCORD_WORDS), refused
    assert database_rows(db) == before
    ran = play(db, f"@Player 3 /run routes:{copied}")
    assert "SP runs for $60" in ran, ran


def test_a_bid_without_a_price_names_the_range(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    cli("play", "--db", str(db), "--images", "none", "--seed", "7")
    before = database_rows(db)
    out = play(db, "@Alice /bid company:GRRRC", "@Alice /bid company:JG price:")
    assert "error: give your bid for GRRRC as a whole number of dollars (price:), from $80 to $500 in steps of $5." \
        in out
    assert "error: give your bid for JG as a whole number of dollars (price:), from $200 to $500 in steps of $5." \
        in out
    assert database_rows(db) == before
