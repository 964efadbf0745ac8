"""Issue 31 item 1: a database file that is not what it should be (random bytes, a file cut
short, a damaged page, a folder, a path in a missing folder, /dev/null, another program's
database) is named with what is wrong by every command that opens a store (`play`, a bare
`stationmaster`, `import`, `export`, `migrate --from`, `bot`), which exits with no traceback;
nothing is written to it.

The whole table runs through ``bot.cli.main`` in this process (the commands' own code, from
argument parsing to exit status); one real `stationmaster` process per kind of file checks the
same from the outside.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from cli_helpers import ROOT, STATIONMASTER, cli_env

from bot.cli import main
from storage.cli import import_game

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"


def _real_store(path: Path) -> None:
    import_game(FIXTURE, path)
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every page in the file itself


def _random(path: Path) -> None:
    path.write_bytes(bytes((n * 7919 + 13) % 251 for n in range(64 * 1024)))


def _cut_short(path: Path) -> None:
    _real_store(path)
    with path.open("r+b") as handle:
        handle.truncate(path.stat().st_size // 2)


def _damaged_page(path: Path) -> None:
    """A store whose actions table's first page has one bit flipped (its page kind)."""
    _real_store(path)
    with closing(sqlite3.connect(path)) as conn:
        (root,), = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'actions'")
        (page_size,), = conn.execute("PRAGMA page_size")
    with path.open("r+b") as handle:
        handle.seek((root - 1) * page_size)
        kind = handle.read(1)[0]
        handle.seek((root - 1) * page_size)
        handle.write(bytes([kind ^ 0x08]))
    with closing(sqlite3.connect(path)) as conn:
        try:
            verdict = conn.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError:
            verdict = []
    assert verdict != [("ok",)], "the flipped bit must damage the store"


def _folder(path: Path) -> None:
    path.mkdir()


def _another_programs(path: Path) -> None:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        conn.execute("INSERT INTO notes (body) VALUES ('keep me')")
        conn.commit()


# kind -> (how to make it at a path, or None for a path given as is; words of the refusal)
KINDS: dict[str, tuple[Callable[[Path], None] | None, str]] = {
    "random bytes": (_random, "is not a SQLite database"),
    "cut short": (_cut_short, "is damaged"),
    "damaged page": (_damaged_page, "is damaged"),
    "a folder": (_folder, "is a folder, not a database file"),
    "in a missing folder": (None, "the folder"),
    "/dev/null": (None, "is not a regular file"),
    "another program's": (_another_programs, "is not a Stationmaster store"),
}
COMMANDS = ("play", "bare", "import", "export", "migrate", "bot")


def _bad_file(tmp_path: Path, kind: str) -> Path:
    make, _ = KINDS[kind]
    if kind == "/dev/null":
        return Path(os.devnull)
    path = tmp_path / ("missing" if make is None else "") / "games.db"
    if make is not None:
        make(path)
    return path


def _snapshot(path: Path) -> dict[str, bytes | None]:
    """The file and its would-be SQLite companions (-wal, -shm, -journal), byte for byte."""
    if str(path) == os.devnull:
        return {}
    names = [path] + [path.with_name(path.name + suffix) for suffix in ("-wal", "-shm", "-journal")]
    snap: dict[str, bytes | None] = {}
    for name in names:
        if name.is_dir():
            snap[str(name)] = repr(sorted(p.name for p in name.iterdir())).encode()
        else:
            snap[str(name)] = name.read_bytes() if name.exists() else None
    snap["folder"] = repr(path.parent.exists()).encode()
    return snap


def _argv(command: str, db: Path, tmp_path: Path) -> list[str]:
    if command == "play":
        return ["play", "--db", str(db), "--images", "none"]
    if command == "import":
        return ["import", str(FIXTURE), "--db", str(db)]
    if command == "export":
        return ["export", "1", "--db", str(db)]
    if command == "migrate":
        return ["migrate", "--from", str(db), "--to", str(tmp_path / "copy.db")]
    config = tmp_path / "config.toml"
    config.write_text(f'[bot]\ndb_path = "{db}"\n', encoding="utf-8")
    return ["bot", "--config", str(config)]


CASES = [(kind, command) for kind in KINDS for command in COMMANDS
         if (kind, command) != ("in a missing folder", "bare")]  # a bare command names no path


def _words(kind: str, command: str) -> str:
    if kind == "in a missing folder" and command in ("export", "migrate"):
        return "no database at"  # they read a store, so they never create one
    return KINDS[kind][1]


def _bare_home(tmp_path: Path, db: Path) -> Path:
    """A folder whose ./stationmaster.db (what a bare `stationmaster` opens) is the bad file."""
    home = tmp_path / "here"
    home.mkdir()
    (home / "stationmaster.db").symlink_to(db)
    return home


@pytest.mark.parametrize("kind, command", CASES)
def test_each_command_names_the_bad_store_and_writes_nothing(tmp_path: Path, kind: str, command: str,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    db = _bad_file(tmp_path, kind)
    before = _snapshot(db)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    if command == "bot":
        monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")  # the Discord bot: it opens the store first
    if command == "bare":
        home = _bare_home(tmp_path, db)
        monkeypatch.chdir(home)
        code = main([])
        where = "./stationmaster.db"
        assert sorted(p.name for p in home.iterdir()) == ["stationmaster.db"]
    else:
        monkeypatch.chdir(tmp_path)
        code = main(_argv(command, db, tmp_path))
        where = str(db)
    out, err = capsys.readouterr()
    assert code in (1, 2), (out, err)
    assert _words(kind, command) in err and where in err, err
    assert "Traceback" not in out + err
    assert _snapshot(db) == before
    assert not (tmp_path / "copy.db").exists()


@pytest.mark.parametrize("kind, command", list(zip(KINDS, ("play", "import", "export", "migrate", "bot",
                                                            "play", "bare"), strict=True)))
def test_a_real_process_refuses_the_bad_store(tmp_path: Path, kind: str, command: str) -> None:
    db = _bad_file(tmp_path, kind)
    before = _snapshot(db)
    env = cli_env()
    if command == "bot":
        env["DISCORD_TOKEN"] = "not-a-real-token"
    cwd, argv = (_bare_home(tmp_path, db), []) if command == "bare" else (tmp_path, _argv(command, db, tmp_path))
    done = subprocess.run(STATIONMASTER + argv, capture_output=True, text=True, timeout=300, cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL)
    assert done.returncode in (1, 2), done.stdout + done.stderr
    assert _words(kind, command) in done.stderr and "Traceback" not in done.stderr + done.stdout, done.stderr
    assert _snapshot(db) == before


def test_a_good_store_still_opens_and_a_new_file_becomes_one(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "games.db"
    _real_store(store)
    assert main(["export", "1", "--db", str(store)]) == 0
    capsys.readouterr()
    empty = tmp_path / "empty.db"
    empty.touch()  # an empty file is a new store, as SQLite itself takes it
    assert main(["import", str(FIXTURE), "--db", str(empty)]) == 0
    assert capsys.readouterr().out.strip() == "1"
