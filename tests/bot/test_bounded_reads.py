"""Issue 31 items 2 and 3: every reader of a file stops at its limit, and every command that
reads a log parses it as hostile input.

- The terminal's `/game import file:` and `stationmaster import` read at most the limit plus
  one byte (`/dev/zero` is refused at once, not read until the kernel kills the process), and a
  regular file is refused by its size before it is read; `--max-bytes` takes a sane range.
- Discord's `/game import file:` refuses an attachment declared larger than the limit without
  downloading it, and stops a download that goes past the limit whatever was declared.
- `replay`, `routes` and `render` read their log through the same loader as `import`: deep
  nesting, `NaN`, huge integers are refused with the reason, never a RecursionError.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_helpers import ROOT, run_cli
from fakediscord import FakeDiscord
from hostile_inputs import database_rows, hostile_documents
from test_discord_e2e import stationmaster
from test_discord_hardening import _import_by_slash, consent_game

from storage.limits import MAX_IMPORT_BYTES

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"


def _too_big(tmp_path: Path) -> Path:
    """A valid log padded with spaces past the import limit."""
    path = tmp_path / "big.json"
    with path.open("wb") as handle:
        handle.write(FIXTURE.read_bytes())
        handle.write(b" " * MAX_IMPORT_BYTES)
    return path


def test_the_terminal_import_reads_no_further_than_its_limit(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    created = run_cli("play", "--players", "Alice,Bob,Carol", "--seed", "7", "--db", str(db), "--images", "none")
    assert created.returncode == 0, created.stderr
    before = database_rows(db)
    lines = [f"/game import file:{os.devnull.replace('null', 'zero')}", f"/game import file:{tmp_path}",
             f"/game import file:{_too_big(tmp_path)}", f"/game import file:{tmp_path / 'nothing.json'}",
             "/game status"]
    played = run_cli("play", "--game", "1", "--db", str(db), "--images", "none",
                     stdin="\n".join(lines).encode() + b"\n")
    assert played.returncode == 0 and "Traceback" not in played.stderr + played.stdout, played.stderr
    out = played.stdout
    assert f"error: Import refused: /dev/zero holds more than the limit of {MAX_IMPORT_BYTES} bytes" in out
    assert f"error: Import refused: {tmp_path} is a folder; name a file" in out
    assert f"big.json is {MAX_IMPORT_BYTES + FIXTURE.stat().st_size} bytes; the limit is {MAX_IMPORT_BYTES}" in out
    assert "nothing.json: No such file or directory" in out
    assert "18Texas game #1 (active)" in out.split("error: ")[-1]
    assert database_rows(db) == before


@pytest.mark.parametrize("source, words", [
    ("/dev/zero", f"/dev/zero holds more than the limit of {MAX_IMPORT_BYTES} bytes"),
    ("{tmp}", "is a folder; name a file"),
    ("{big}", f"the limit is {MAX_IMPORT_BYTES} bytes"),
])
def test_the_import_command_reads_no_further_than_its_limit(tmp_path: Path, source: str, words: str) -> None:
    db = tmp_path / "games.db"
    assert run_cli("import", str(FIXTURE), "--db", str(db)).returncode == 0
    before = database_rows(db)
    path = source.format(tmp=tmp_path, big=_too_big(tmp_path) if "big" in source else "")
    refused = run_cli("import", path, "--db", str(db))
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert refused.stderr.startswith("stationmaster import: refused: ") and words in refused.stderr, refused.stderr
    assert database_rows(db) == before


@pytest.mark.parametrize("value, words", [
    ("0", "must be from 1000 to 67108864 bytes, not 0"),
    ("-5", "must be a whole number of bytes, not '-5'"),
    ("1000000000000", "must be from 1000 to 67108864 bytes"),
    ("1e9", "must be a whole number of bytes, not '1e9'"),
    ("٤٠٠٠", "must be a whole number of bytes"),
])
def test_max_bytes_has_a_sane_range(tmp_path: Path, value: str, words: str) -> None:
    refused = run_cli("import", str(FIXTURE), "--db", str(tmp_path / "g.db"), f"--max-bytes={value}")
    assert refused.returncode == 2 and f"--max-bytes: {words}" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr
    assert not (tmp_path / "g.db").exists()
    taken = run_cli("import", str(FIXTURE), "--db", str(tmp_path / "g.db"), "--max-bytes", "1000000")
    assert taken.returncode == 0 and taken.stdout.strip() == "1"


def _deep(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text('{"title": "18Texas", "players": [], "actions": [], "junk": ' + "[" * 100_000
                    + "]" * 100_000 + "}")
    return path


LOG_READERS = {
    "replay": ["replay"],
    "routes": ["routes"],
    "render": ["render", "--out", "{tmp}/pictures"],
}


@pytest.mark.parametrize("command", list(LOG_READERS))
def test_every_command_that_reads_a_log_refuses_hostile_json(tmp_path: Path, command: str) -> None:
    hostile = {name: hostile_documents()[name] for name in ("NaN in an unknown field", "integer of 5000 digits",
                                                            "lone surrogate in a player name")}
    files: list[tuple[Path, str]] = [(_deep(tmp_path), "the JSON is nested too deeply (at most 64 levels)"),
                                     (Path("/dev/zero"), "/dev/zero holds more than the limit of"),
                                     (tmp_path, "is a folder; name a file")]
    for number, (raw, words) in enumerate(hostile.values()):
        path = tmp_path / f"hostile{number}.json"
        path.write_bytes(raw)
        files.append((path, words))
    for path, words in files:
        argv = [a.format(tmp=tmp_path) for a in LOG_READERS[command]] + [str(path)]
        done = run_cli(*argv)
        assert done.returncode == 2, (argv, done.stdout, done.stderr)
        assert done.stderr.startswith(f"stationmaster {command}: ") and words in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert not (tmp_path / "pictures").exists()


def _downloads(fake: FakeDiscord) -> int:
    return sum(1 for r in fake.requests if r.method == "GET" and r.path.startswith("/attachments/"))


async def test_discord_attachments_are_read_no_further_than_the_limit(fake_discord: FakeDiscord,
                                                                      tmp_path: Path) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    table = await consent_game(fake, db)
    good = FIXTURE.read_bytes()
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        before = database_rows(db)
        bob = table.users["bob"]
        # Declared larger than the limit: refused before any download.
        handle = await _import_by_slash(fake, bob, good, declared=MAX_IMPORT_BYTES + 1)
        answer = await handle.wait_message(timeout=20)
        assert answer.ephemeral and answer.content == (f"Import refused: game.json is {MAX_IMPORT_BYTES + 1} bytes; "
                                                       f"the limit is {MAX_IMPORT_BYTES} bytes. Nothing was stored.")
        assert _downloads(fake) == 0
        # Declared small, but the download goes on past the limit (and would never end).
        handle = await _import_by_slash(fake, bob, good[:100], declared=100, endless=True)
        answer = await handle.wait_message(timeout=30)
        assert answer.ephemeral and answer.content == (f"Import refused: game.json holds more than the limit of "
                                                       f"{MAX_IMPORT_BYTES} bytes. Nothing was stored.")
        assert _downloads(fake) == 1
        assert database_rows(db) == before and fake.threads(fake.channel) == []
        status = await table.slash(bob, "game", "status")
        assert not status.ephemeral and "18Texas game #1 (active)" in status.content


def test_the_bot_reads_its_configuration_no_further_than_its_limit(tmp_path: Path) -> None:
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"[bot]\n\xff\xfe\n")
    for config, words in (("/dev/zero", "/dev/zero holds more than the limit of 1048576 bytes"),
                          (str(tmp_path), "is a folder; name a file"),
                          (str(binary), "binary.toml is not UTF-8 text (byte 7); a configuration is TOML")):
        refused = run_cli("bot", "--config", config, cwd=tmp_path)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr, refused.stderr[-500:]
        assert refused.stderr.startswith("stationmaster bot: ") and words in refused.stderr, refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["binary.toml"]  # no store was made
