"""The terminal front door, run as a real subprocess reading a pipe.

The 18Texas fixture (a real 4-player game from 18xx.games) is played move by move through
``stationmaster play``, each action typed as the command its player would use, to the end.

About the scores: 8 of the log's 64 runs (ids 386, 390, 417, 421, 439, 442, 460, 463, all
through Corpus Christi, M8) are worth $10 more to our engine than the log says. An import
trusts logged revenue (as 18xx.games does), but a live move is checked, so the moderator
pays what the engine computes. The expected scores are therefore the engine's own live
valuation of the same moves (``fixture_script.script``); the fixture's ``result`` is reached
by importing it (test_moderator_games.py). The three generated games, which the reference
engine played on today's map, reach their logged results exactly through the terminal.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import cli_env
from fixture_script import RAW_ONLY, script

from bot.console_parse import ParseError, parse_line
from bot.model import Command

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"
STATIONMASTER = [sys.executable, "-m", "bot.cli"]


def run_play(args: list[str], lines: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    env = cli_env()
    return subprocess.run(STATIONMASTER + ["play", *args], input="\n".join(lines) + "\n", text=True,
                          capture_output=True, cwd=cwd, env=env, timeout=timeout)


def test_fixture_game_plays_to_the_end_through_the_terminal(tmp_path: Path) -> None:
    lines, document, expected = script(FIXTURE)
    assert not RAW_ONLY, f"every action has a command word; /action json was needed for {RAW_ONLY}"
    words = {line.split(" /", 1)[1].split()[0] for line in lines}
    assert words == {"bid", "par", "buy", "sell", "pass", "lay", "token", "run", "dividend", "train",
                     "issue", "redeem"}
    result = run_play(["18Texas", "--players", "Player 1,Player 2,Player 3,Player 4", "--seed", "65394",
                       "--site-rules", "--db", str(tmp_path / "t.db"), "--out", str(tmp_path / "png"),
                       "--images", "end", "--strict", "--router-budget", "0.5"],
                      lines + ["/game export"], tmp_path)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    out = result.stdout
    assert "error:" not in out
    assert "The game is over (bank). Final scores:\n1. Player 1 $5542\n2. Player 3 $5045" in out
    exported = json.loads(next(line for line in out.splitlines() if line.startswith('{"id"')))
    names = {str(p["id"]): p["name"] for p in exported["players"]}
    assert {names[k]: v for k, v in exported["result"].items()} == expected
    assert exported["status"] == "finished" and len(exported["actions"]) == len(lines)
    # The same ranking as the fixture's own result (the values differ by the 8 runs above).
    fixture_names = {str(p["id"]): p["name"] for p in document["players"]}
    fixture_rank = sorted(document["result"], key=lambda k: -document["result"][k])
    assert [fixture_names[k] for k in fixture_rank] == sorted(expected, key=lambda n: -expected[n])
    for name in ("map.png", "market.png", "table.png"):
        assert (tmp_path / "png" / name).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_terminal_errors_pictures_and_export(tmp_path: Path) -> None:
    lines = [
        "# a comment, then a blank line",
        "",
        "@Alice /bid company:GRRRC price:10",
        "@Nobody Here /pass",
        "Alice /pass",
        "@Alice /fly",
        "@Alice /bid company:GRRRC",
        "@Alice /bid company:GRRRC price:80",
        "/game status",
        "/game export",
    ]
    result = run_play(["--players", "Alice,Bob,Carol", "--seed", "3", "--db", str(tmp_path / "t.db"),
                       "--out", str(tmp_path / "png")], lines, tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "error: That move is not allowed: a bid on GRRRC must be at least $80" in out
    assert "error: No player of this game is called Nobody Here: the players are @Alice, @Bob, @Carol." in out
    assert "error: start a move with the player's name and a command, e.g. @Alice /pass" in out
    assert "error: unknown command /fly" in out
    assert "error: give your bid for GRRRC as a whole number of dollars (price:), from $80 to $500" in out
    assert "Alice bids $80 for GRRRC\n@Bob — bid on a private company" in out
    document = json.loads(out.splitlines()[-1])
    assert [a["type"] for a in document["actions"]] == ["bid"] and "result" not in document
    assert (tmp_path / "png" / "map.png").read_bytes().startswith(b"\x89PNG")


def test_a_move_missing_its_options_that_could_not_be_made_anyway_says_why(tmp_path: Path) -> None:
    """Before: '/lay needs tile:, rotation:' during the auction, and '/bid needs company:, price:'
    to a player whose turn it is not, as if typing them would help."""
    lines = ["@Alice /bid company:GRRRC price:80", "@Alice /bid", "@Carol /lay hex:J5", "@Bob /bid"]
    result = run_play(["--players", "Alice,Bob,Carol", "--seed", "3", "--db", str(tmp_path / "t.db"),
                       "--images", "none"], lines, tmp_path, timeout=60)
    assert result.returncode == 0, result.stderr
    errors = [line for line in result.stdout.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: /bid is not yours to make now: you act only for your own seat and the companies you preside.",
        "error: /lay is not possible now: it is Bob's turn (Auction Round).",
        # Bob's to make: only the options are missing, and the refusal says what they may be.
        "error: /bid needs what to bid on (company:); you can bid on BBBCRC (from $50), GRRRC (from $85), JG "
        "(from $200).",
    ]


def test_a_pass_is_told_once(tmp_path: Path) -> None:
    """18USA's auction logs its passes itself; the reply said 'Bob passes' twice."""
    lines = ["@Alice /bid company:P1 price:20", "@Bob /pass", "@Carol /pass", "@Bob /pass"]
    result = run_play(["18USA", "--players", "Alice,Bob,Carol", "--seed", "5", "--db", str(tmp_path / "t.db"),
                       "--images", "none", "--strict"], lines, tmp_path, timeout=60)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    told = [line for line in result.stdout.splitlines() if not line.startswith((" ", "@", "New", "Game"))]
    assert told == ["Alice bids $20 for P1", "Bob passes", "Bob leaves the auction for P1", "Carol passes",
                    "Carol leaves the auction for P1", "Alice buys P1 for $20", "Bob passes"]


def test_strict_mode_stops_at_the_first_refusal(tmp_path: Path) -> None:
    result = run_play(["--players", "Alice,Bob,Carol", "--seed", "3", "--db", str(tmp_path / "t.db"),
                       "--images", "none", "--strict"], ["@Bob /pass", "/game status"], tmp_path, timeout=60)
    assert result.returncode == 1
    assert "error: /pass is not possible now" in result.stdout and "Players: 1. Alice" not in result.stdout


def test_bot_without_a_token_falls_back_to_the_terminal(tmp_path: Path) -> None:
    env = cli_env()
    result = subprocess.run(STATIONMASTER, input="@Alice /bid company:GRRRC price:80\n", text=True,
                            capture_output=True, cwd=tmp_path, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "DISCORD_TOKEN is not set" in result.stdout
    assert "Players: Alice, Bob, Carol" in result.stdout
    assert (tmp_path / "stationmaster.db").exists()


@pytest.mark.parametrize(("line", "expected"), [
    ("@Player 2 /lay hex:E11 tile:57 rotation:2", ("Player 2", Command("lay", {"hex": "E11", "tile": "57", "rotation": 2}))),
    ("@Al /run routes:2-0: I14-I12; 3-0: D9-D9", ("Al", Command("run", {"routes": "2-0: I14-I12; 3-0: D9-D9"}))),
    ('@Al /action json:{"type": "pass", "entity": 1}', ("Al", Command("action", {"json": '{"type": "pass", "entity": 1}'}))),
    ("/game undo steps:2", (None, Command("game undo", {"steps": 2}))),
    ("/game status", (None, Command("game status", {}))),
    ("  # comment", None),
])
def test_parse_line(line: str, expected: object) -> None:
    assert parse_line(line) == expected


@pytest.mark.parametrize(("line", "message"), [
    ("@Al /bid company:X price:ten", "price: must be a whole number"),
    ("@Al /pass now", "/pass takes no options"),
    ("@Al /buy SP", "does not understand 'SP'"),
    ("/game", "/game needs a word"),
    ("@ /pass", "write @<player> /<command>"),
])
def test_parse_errors(line: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_line(line)


GENERATED = sorted((ROOT / "tests" / "data" / "generated" / "18Texas").glob("*.json"))


@pytest.mark.parametrize("log_path", GENERATED, ids=[p.stem for p in GENERATED])
def test_generated_game_plays_through_the_terminal_to_its_logged_result(log_path: Path, tmp_path: Path) -> None:
    """Games the reference engine played on today's map reach its exact final scores live."""
    lines, document, expected = script(log_path)
    names = [p["name"] for p in document["players"]]
    result = run_play(["18Texas", "--players", ",".join(names), "--seed", str(document["settings"]["seed"]),
                       "--site-rules", "--db", str(tmp_path / "t.db"), "--images", "none", "--strict"],
                      lines + ["/game export"], tmp_path, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    exported = json.loads(next(line for line in result.stdout.splitlines() if line.startswith('{"id"')))
    exported_names = {str(p["id"]): p["name"] for p in exported["players"]}
    logged_names = {str(p["id"]): p["name"] for p in document["players"]}
    logged = {logged_names[str(k)]: v for k, v in document["result"].items()}
    assert {exported_names[k]: v for k, v in exported["result"].items()} == logged == expected
