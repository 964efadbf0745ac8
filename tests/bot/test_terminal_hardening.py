"""Issue 31 items 4 to 8 at the terminal, each through a real `stationmaster play` process: an
output folder that cannot be written, player lists and names that cannot act, numbers Discord
would not take, Ctrl-C, a byte-order mark and 100 KB lines. Each is refused (or ended) with
words that say why, with no traceback, and the store is as it was.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cli_helpers import ROOT, STATIONMASTER, run_cli
from cli_helpers import cli_env as _env
from hostile_inputs import database_rows


def new_game(db: Path) -> None:
    created = run_cli("play", "--players", "Alice,Bob,Carol", "--seed", "7", "--db", str(db), "--images", "none")
    assert created.returncode == 0, created.stderr


def typed(db: Path, lines: bytes) -> subprocess.CompletedProcess[str]:
    """A terminal session on game 1 of ``db``, the lines read from its standard input."""
    return run_cli("play", "--game", "1", "--db", str(db), "--images", "none", stdin=lines)


@pytest.mark.parametrize("out, words", [
    ("{tmp}/a-file", "--out: {tmp}/a-file is a file, not a folder"),
    ("{tmp}/a-file/pictures", "--out: cannot create the folder {tmp}/a-file/pictures: Not a directory"),
    ("/proc/stationmaster-pictures", "--out: cannot create the folder /proc/stationmaster-pictures"),
])
def test_an_output_folder_that_cannot_be_written_is_refused_before_the_game_is_made(tmp_path: Path, out: str,
                                                                                     words: str) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    db = tmp_path / "games.db"
    for images in ("each", "end"):
        refused = run_cli("play", "--db", str(db), "--out", out.format(tmp=tmp_path), "--images", images)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr + refused.stdout
        assert words.format(tmp=tmp_path) in refused.stdout and "nothing was created" in refused.stdout, \
            refused.stdout
    assert not db.exists()  # refused before the store was even opened
    assert (tmp_path / "a-file").read_text() == "not a folder"
    resumed = run_cli("play", "--db", str(db), "--out", str(tmp_path / "a-file"), "--game", "1")
    assert resumed.returncode == 2 and "is a file, not a folder" in resumed.stdout and not db.exists()


@pytest.mark.parametrize("players, words", [
    ("Alice,,Bob", "--players: entry 2 of 3 is empty ('Alice,,Bob')"),
    ("Alice,Bob, ", "--players: entry 3 of 3 is empty"),
    ("Ann /pass,Bob,Carol", "The name 'Ann /pass' holds ' /', which ends a player's name in a terminal line"),
    ("Alice,Al\u200bice,Bob", "The names 'Alice' and 'Al<U+200B>ice' differ only by invisible characters"),
    ("Alice,Alice\u202e,Bob", "The names 'Alice' and 'Alice<U+202E>' differ only by invisible characters"),
    ("\u200b\u200d,Bob,Carol", "holds only invisible characters"),
])
def test_player_lists_that_cannot_act_create_nothing(tmp_path: Path, players: str, words: str) -> None:
    db = tmp_path / "games.db"
    refused = run_cli("play", "--players", players, "--db", str(db), "--images", "none")
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert words in refused.stdout and "nothing was created" in refused.stdout, refused.stdout
    assert not db.exists() or database_rows(db)["games"] == []
    bare_home = tmp_path / "home"
    bare_home.mkdir()
    bare = subprocess.run(STATIONMASTER + ["bot", "--players", players], capture_output=True, text=True,
                          timeout=300, cwd=bare_home, env=_env(), stdin=subprocess.DEVNULL)
    assert bare.returncode == 2 and "Traceback" not in bare.stderr
    assert words in bare.stdout + bare.stderr
    stored = bare_home / "stationmaster.db"
    assert not stored.exists() or database_rows(stored)["games"] == []


def test_a_name_with_an_invisible_character_still_acts_by_its_visible_letters(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    created = run_cli("play", "--players", "Al\u200bice,Bob,Carol", "--seed", "7", "--db", str(db),
                      "--images", "none", stdin=b"@Alice /bid company:GRRRC price:80\n")
    assert created.returncode == 0 and "bids $80 for GRRRC" in created.stdout, created.stdout


@pytest.mark.parametrize("price", ["٨٠", "８０", "8_0", "80.0", "1e2", "99999999999999999999"])
def test_prices_are_digits_as_discord_takes_them(tmp_path: Path, price: str) -> None:
    db = tmp_path / "games.db"
    new_game(db)
    before = database_rows(db)
    played = typed(db, f"@Alice /bid company:GRRRC price:{price}\n/game status\n".encode())
    assert played.returncode == 0 and "Traceback" not in played.stderr
    assert "error: price: must" in played.stdout and "bids" not in played.stdout, played.stdout
    assert database_rows(db) == before


def test_a_byte_order_mark_at_the_start_of_a_moves_file_is_ignored(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    new_game(db)
    moves = tmp_path / "moves.txt"
    moves.write_bytes("@Alice /bid company:GRRRC price:80\n@Bob /bid company:BBBCRC price:50\n".encode("utf-8-sig"))
    with moves.open("rb") as source:
        played = subprocess.run(STATIONMASTER + ["play", "--game", "1", "--db", str(db), "--images", "none",
                                                 "--strict"], stdin=source, capture_output=True, text=True,
                                timeout=300, cwd=ROOT, env=_env())
    assert played.returncode == 0, played.stdout + played.stderr
    assert "Alice bids $80 for GRRRC" in played.stdout and "error" not in played.stdout
    assert len(database_rows(db)["actions"]) == 2


def test_lines_of_100_kb_are_refused_without_being_echoed(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    new_game(db)
    before = database_rows(db)
    flood = "x" * 100_000
    lines = [f"@Alice /bid company:{flood} price:80", f"@Alice /{flood}", f"/{flood}", f"/game {flood}",
             f"@{flood} /pass", flood, f"@Alice /bid {flood}", f"/game log lines:{flood}",
             f"/game privates company:{flood}", f"/game replace seat:{flood} user:Bob", f"@Alice /action json:{flood}",
             f"@Alice /bid company:{'y' * 1000} price:80", f"@Alice /bid company:GRRRC price:{'9' * 5000}",
             f"@Alice /bid company:{'z ' * 2000}", f"/game map around:{'w' * 1000}"]
    played = typed(db, ("\n".join(lines) + "\n/game status\n").encode())
    assert played.returncode == 0 and "Traceback" not in played.stderr
    out = played.stdout
    assert out.count("error: ") == len(lines), out[:3000]
    assert max(len(line) for line in out.splitlines()) < 400, max(out.splitlines(), key=len)[:400]
    assert "a command has at most 6,000" in out and "company: takes at most 100 characters; this one has 1000" in out
    assert "18Texas game #1 (active)" in out.split("error: ")[-1]
    assert database_rows(db) == before


def test_an_input_with_no_end_of_line_is_not_read_into_memory(tmp_path: Path) -> None:
    """`stationmaster play < /dev/zero`: the line is skipped as it is read, not held, and past
    16 million characters the input is taken as having no end; exit status 1."""
    db = tmp_path / "games.db"
    new_game(db)
    before = database_rows(db)
    with open(os.devnull.replace("null", "zero"), "rb") as endless:
        played = subprocess.run(STATIONMASTER + ["play", "--game", "1", "--db", str(db), "--images", "none"],
                                stdin=endless, capture_output=True, text=True, timeout=300, cwd=ROOT, env=_env())
    assert played.returncode == 1 and "Traceback" not in played.stderr, played.stderr[-500:]
    assert ("error: line 1 goes on for more than 16,777,216 characters with no end: this input is not a list of "
            "commands, and nothing after it is read") in played.stdout, played.stdout[-500:]
    assert len(played.stdout) < 2000
    assert database_rows(db) == before
    lines = "y" * 6_001 + "\n" + "z" * 6_002 + "\n/game status\n"
    played = typed(db, lines.encode())
    assert played.returncode == 0
    assert "that line is 6,001 characters long" in played.stdout and "that line is 6,002 characters" in played.stdout
    assert "18Texas game #1 (active)" in played.stdout.split("error: ")[-1]


def _read_until(master: int, words: bytes, timeout: float = 60) -> bytes:
    seen, end = b"", time.monotonic() + timeout
    while time.monotonic() < end and words not in seen:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_ctrl_c_at_the_prompt_ends_the_session_and_says_how_to_resume(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    master, follower = pty.openpty()
    process = subprocess.Popen(STATIONMASTER + ["play", "--db", str(db), "--images", "none", "--seed", "3"],
                               stdin=follower, stdout=follower, stderr=follower, env=_env(), cwd=tmp_path)
    os.close(follower)
    try:
        assert b"\r\n> " in _read_until(master, b"\r\n> ")
        os.write(master, b"@Alice /bid company:GRRRC price:80\n")
        answer = _read_until(master, b"Alice bids $80 for GRRRC")
        assert b"\r\n> " in answer + _read_until(master, b"\r\n> ")
        process.send_signal(signal.SIGINT)  # what the terminal sends for Ctrl-C
        code = process.wait(timeout=30)  # at once: no Enter is needed (nor taken) to end
        rest = _read_until(master, b"\x00", timeout=2).decode()
    finally:
        if process.poll() is None:
            process.kill()
        os.close(master)
    assert code == 130
    assert f"Interrupted (Ctrl-C). Game #1 is saved in {db}. Resume it with: stationmaster play --game 1" in rest
    assert "Traceback" not in rest and "KeyboardInterrupt" not in rest
    assert len(database_rows(db)["actions"]) == 1


def test_ctrl_c_between_piped_lines_says_which_line_was_the_last(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    new_game(db)
    process = subprocess.Popen(STATIONMASTER + ["play", "--game", "1", "--db", str(db), "--images", "none"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(),
                               cwd=tmp_path)
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(b"@Alice /bid company:GRRRC price:80\n")
        process.stdin.flush()
        answered = b""
        while b"bids $80" not in answered:
            answered += process.stdout.readline()
        process.send_signal(signal.SIGINT)  # while it waits for line 2, its input still open
        process.wait(timeout=30)
        out, err = process.stdout.read(), process.stderr.read() if process.stderr else b""
    finally:
        process.stdin.close()
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130 and b"Traceback" not in err
    assert (b"Interrupted (Ctrl-C) after line 1, which was made and answered; the lines after it were not read. "
            b"Game #1 is saved in") in out
    assert len(database_rows(db)["actions"]) == 1


@pytest.mark.parametrize("budget", ["-1", "nan", "1e308", "0", "inf", "601"])
def test_the_routes_command_refuses_a_time_budget_out_of_range(budget: str) -> None:
    refused = run_cli("routes", str(ROOT / "tests/data/fixtures/18Texas/65394.json"), f"--time-budget={budget}")
    assert refused.returncode == 2 and refused.stdout == "" and "Traceback" not in refused.stderr
    assert f"--time-budget: must be more than 0 and at most 600 seconds, not {budget}" in refused.stderr


def test_log_lines_of_zero_or_fewer_are_refused_not_shown_as_one(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    new_game(db)
    before = database_rows(db)
    played = typed(db, b"/game log lines:0\n/game log lines:-3\n/game log lines:1\n")
    assert played.returncode == 0 and "Traceback" not in played.stderr
    for lines in (0, -3):
        assert (f"error: lines: is how many of the latest log lines to show, from 1 to 60, not {lines}."
                in played.stdout)
    assert played.stdout.count("error: ") == 2
    assert database_rows(db) == before


@pytest.mark.parametrize("argv, words", [
    (["export", "99999999999999999999"], "argument game_id: must be from 1 to 9223372036854775807, not 9999"),
    (["export", "٣"], "argument game_id: must be a whole number, not '٣'"),
    (["export", "0"], "argument game_id: must be from 1 to 9223372036854775807, not 0"),
    (["play", "--game", "99999999999999999999999"], "argument --game: must be from 1 to 9223372036854775807"),
    (["play", "--game", "１"], "argument --game: must be a whole number, not '１'"),
    (["play", "--seed", "1_0"], "argument --seed: must be a whole number, not '1_0'"),
    (["play", "--seed", "9" * 5000], "argument --seed: must be from 0 to 9223372036854775807, not 9999"),
])
def test_game_ids_and_seeds_are_digits_a_store_can_hold(tmp_path: Path, argv: list[str], words: str) -> None:
    db = tmp_path / "games.db"
    new_game(db)
    before = database_rows(db)
    refused = run_cli(*argv, "--db", str(db), "--images", "none") if argv[0] == "play" else \
        run_cli(*argv, "--db", str(db))
    assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr[-500:]
    assert f"stationmaster {argv[0]}: error: {words}" in refused.stderr and len(refused.stderr) < 2000
    assert database_rows(db) == before


def test_lines_with_control_characters_are_refused_and_not_echoed(tmp_path: Path) -> None:
    """A typed NUL, bell, escape sequence or right-to-left override is refused with its code
    point; the terminal is never sent one back. A tab is a space."""
    db = tmp_path / "games.db"
    new_game(db)
    before = database_rows(db)
    lines = {"@Alice /pass\x00": "U+0000 (at character 13)", "@Alice /bid company:GRRRC\x07 price:80": "U+0007",
             "\x1b[2J/game status": "U+001B (at character 1)", "@Alice /bid company:\u202eGRRRC price:80": "U+202E",
             "@Alice /bid company:GRRRC\x7f price:80": "U+007F", "@Alice /bid company:GRRRC\x9b price:80": "U+009B"}
    played = typed(db, ("\n".join(lines) + "\n/game status\n").encode())
    assert played.returncode == 0 and "Traceback" not in played.stderr
    for words in lines.values():
        assert f"error: that line holds the control character {words}" in played.stdout, played.stdout
    assert played.stdout.count("error: ") == len(lines)
    assert not any(char in played.stdout for char in "\x00\x07\x1b\u202e\x7f\x9b")
    assert database_rows(db) == before
    taken = typed(db, b"@Alice /bid\tcompany:GRRRC price:80\n")
    assert "Alice bids $80 for GRRRC" in taken.stdout, taken.stdout


def test_an_empty_file_or_centre_says_what_it_names(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    new_game(db)
    before = database_rows(db)
    played = typed(db, b"/game import file:\n/game import file:   \n/game map around:\n")
    assert played.returncode == 0 and "Traceback" not in played.stderr
    assert played.stdout.count("error: Import refused: file: names the file to import, e.g. /game import "
                               "file:game.json. Nothing was stored.") == 2, played.stdout
    assert "error: around: names what to show close up: a hex such as " in played.stdout
    assert "cannot read :" not in played.stdout and "Nothing is neither" not in played.stdout
    assert database_rows(db) == before


def test_an_output_folder_checked_for_a_game_that_is_then_refused_is_not_left_behind(tmp_path: Path) -> None:
    out = tmp_path / "new" / "pictures"
    refused = run_cli("play", "--players", "Alice,Bob,Carol", "--seed", "99999999999999999999", "--db",
                      str(tmp_path / "games.db"), "--out", str(out))
    assert refused.returncode == 2 and "argument --seed" in refused.stderr
    refused = run_cli("play", "--game", "5", "--db", str(tmp_path / "games.db"), "--out", str(out))
    assert refused.returncode == 2 and "there is no game 5" in refused.stdout, refused.stdout
    assert not (tmp_path / "new").exists()
