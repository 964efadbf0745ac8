"""The import/export subcommands: exit codes, stdout, and errors on stderr."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from backends import PostgresBackend
from storage_helpers import FIXTURE, REPO_ROOT, fixture_game

from storage import SqliteGameRepository
from storage.cli import add_subcommands, main


def _make_game(db: Path, doc: dict, moves: int) -> int:
    async def make() -> int:
        async with await SqliteGameRepository.open(db) as repo:
            game_id = await repo.create_game(*fixture_game(doc))
            for seq, action in enumerate(doc["actions"][:moves], start=1):
                await repo.append_action(game_id, seq, action, None)
            return game_id

    return asyncio.run(make())


def test_subcommands_plug_into_another_parser(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser(prog="stationmaster")
    add_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["export", "3", "--db", str(tmp_path / "x.db")])
    assert (args.command, args.game_id, callable(args.func)) == ("export", 3, True)
    args = parser.parse_args(["import", "game.json", "--db", "x.db"])
    assert (args.file, args.max_bytes) == ("game.json", 4 * 1024 * 1024)
    # Both default to the database `stationmaster play` and `bot` use.
    assert parser.parse_args(["export", "3"]).db == parser.parse_args(["import", "g.json"]).db == "./stationmaster.db"


def test_export_an_unfinished_game(tmp_path: Path, fixture_doc: dict, capsys) -> None:
    db = tmp_path / "games.db"
    game_id = _make_game(db, fixture_doc, moves=30)
    assert main(["export", str(game_id), "--db", str(db)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["actions"] == fixture_doc["actions"][:30]
    assert out["players"] == fixture_doc["players"]
    assert out["status"] == "active" and "result" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["export", "99", "--db", "{db}"], "no game with id 99"),
        (["export", "1", "--db", "{tmp}/missing.db"], "no database at"),
        (["import", "{tmp}/missing.json", "--db", "{db}"], "No such file"),
        (["import", "{tmp}/bad.json", "--db", "{db}"], "not valid JSON"),
    ],
)
def test_errors_go_to_stderr_with_a_non_zero_exit(
    tmp_path: Path, fixture_doc: dict, capsys, argv: list[str], message: str
) -> None:
    db = tmp_path / "games.db"
    _make_game(db, fixture_doc, moves=1)
    (tmp_path / "bad.json").write_text("{oops")
    argv = [a.format(db=db, tmp=tmp_path) for a in argv]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
    assert not (tmp_path / "missing.db").exists()


def test_command_line_round_trip_in_a_process(tmp_path: Path, fixture_doc: dict) -> None:
    """Needs the engine: the real commands, as a user runs them."""
    db = tmp_path / "games.db"
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    command = [sys.executable, "-m", "storage.cli"]
    imported = subprocess.run(
        [*command, "import", str(FIXTURE), "--db", str(db)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=env,
        timeout=60,
    )
    assert imported.returncode == 0, imported.stderr
    game_id = int(imported.stdout)
    exported = subprocess.run(
        [*command, "export", str(game_id), "--db", str(db)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env=env,
        timeout=60,
    )
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["actions"] == fixture_doc["actions"]


async def test_import_and_export_by_postgresql_url(
    postgres_backend: PostgresBackend, fixture_doc: dict, capsys
) -> None:
    url = postgres_backend.url
    assert await asyncio.to_thread(main, ["import", str(FIXTURE), "--db", url]) == 0
    game_id = int(capsys.readouterr().out)
    assert await asyncio.to_thread(main, ["export", str(game_id), "--db", url]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["actions"] == fixture_doc["actions"]
    assert exported["result"] == fixture_doc["result"]
    assert await asyncio.to_thread(main, ["export", "99", "--db", url]) == 1
    assert "no game with id 99" in capsys.readouterr().err
