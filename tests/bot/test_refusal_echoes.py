"""Issue 31 item 8, logs: a refusal never echoes 100 KB of a log back. A log whose action type,
company, player or title is 100,000 characters long (with or without spaces) is refused by
`stationmaster import`, `replay`, `routes` and `render`, by the terminal's `/game import file:`
and by Discord's, with words that quote the start of the value and say how much more there was;
no traceback, and the store is as it was. (Typed lines: tests/bot/test_terminal_hardening.py.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import ROOT, run_cli
from fakediscord import FakeDiscord
from hostile_inputs import database_rows
from test_discord_e2e import stationmaster
from test_discord_hardening import _import_by_slash, consent_game

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"
LONG = 100_000
MOST = 2_100  # Discord's 2,000 characters for a message, and the command's name before it


def _spoilt(change: str) -> dict[str, Any]:
    """The fixture's first five actions, with ``change`` made (one of CHANGES, or none)."""
    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    document["actions"] = document["actions"][:5]
    if change == "action type":
        document["actions"][1]["type"] = "q" * LONG
    elif change == "company":
        document["actions"][1]["company"] = "c" * LONG
    elif change == "player, with spaces":
        document["actions"][1]["entity"] = "p " * (LONG // 2)
    elif change == "title":
        document["title"] = "T" * LONG
    return document


# change -> the start of the refusal's quote of it
CHANGES = {
    "action type": "q" * 59,
    "company": "'" + "c" * 59,
    "player, with spaces": "'" + "p " * 29,
    "title": "'" + "T" * 59,
}
CLI_EXIT = {"import": 1, "replay": 2, "routes": 2, "render": 2}


def _written(tmp_path: Path, change: str) -> Path:
    path = tmp_path / "spoilt.json"
    path.write_text(json.dumps(_spoilt(change)), encoding="utf-8")
    return path


@pytest.mark.parametrize("change", list(CHANGES))
def test_every_command_that_reads_a_log_cuts_what_it_quotes(tmp_path: Path, change: str) -> None:
    db = tmp_path / "games.db"
    assert run_cli("import", str(FIXTURE), "--db", str(db)).returncode == 0
    before = database_rows(db)
    spoilt = _written(tmp_path, change)
    for command, code in CLI_EXIT.items():
        argv = {"import": ["import", str(spoilt), "--db", str(db)],
                "render": ["render", str(spoilt), "--out", str(tmp_path / "pictures")]}.get(command,
                                                                                          [command, str(spoilt)])
        refused = run_cli(*argv)
        assert refused.returncode == code and refused.stdout == "", (command, refused.stdout[:300])
        assert "Traceback" not in refused.stderr and len(refused.stderr) < MOST, (command, refused.stderr[:300])
        assert refused.stderr.startswith(f"stationmaster {command}: ") and CHANGES[change] in refused.stderr
        assert "more characters)" in refused.stderr, refused.stderr
    assert database_rows(db) == before
    assert not (tmp_path / "pictures").exists()  # checked before the replay, and not left behind


def test_the_terminal_import_cuts_what_it_quotes(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    assert run_cli("play", "--players", "Alice,Bob,Carol", "--db", str(db), "--images", "none").returncode == 0
    before = database_rows(db)
    lines = []
    for number, change in enumerate(CHANGES):
        path = tmp_path / f"spoilt{number}.json"
        path.write_text(json.dumps(_spoilt(change)), encoding="utf-8")
        lines.append(f"/game import file:{path}")
    played = run_cli("play", "--game", "1", "--db", str(db), "--images", "none",
                     stdin=("\n".join(lines) + "\n/game status\n").encode())
    assert played.returncode == 0 and "Traceback" not in played.stderr, played.stderr[:300]
    refusals = [line for line in played.stdout.splitlines() if line.startswith("error: Import refused: ")]
    assert len(refusals) == len(CHANGES), played.stdout[:3000]
    for refusal, quote in zip(refusals, CHANGES.values(), strict=True):
        assert quote in refusal and "more characters)" in refusal and len(refusal) < MOST, refusal[:300]
    assert max(len(line) for line in played.stdout.splitlines()) < MOST
    assert "18Texas game #1 (active)" in played.stdout.split("error: ")[-1]
    assert database_rows(db) == before


async def test_a_discord_import_cuts_what_it_quotes(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    table = await consent_game(fake, db)
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        before = database_rows(db)
        for change, quote in CHANGES.items():
            raw = json.dumps(_spoilt(change)).encode()
            answer = await (await _import_by_slash(fake, table.users["bob"], raw)).wait_message(timeout=30)
            assert answer.ephemeral and answer.content.startswith("Import refused: "), answer.content[:300]
            assert quote in answer.content and "more characters)" in answer.content, answer.content[:300]
            assert answer.content.endswith("Nothing was stored."), answer.content[-300:]
        assert database_rows(db) == before and fake.threads(fake.channel) == []


def test_a_log_s_control_characters_are_named_not_sent_to_the_terminal(tmp_path: Path) -> None:
    """An escape sequence in a log (here one that would set the terminal's title, and the bell)
    is written as <U+001B>… in the refusal, in every command and at the terminal's import."""
    document = _spoilt("none")
    document["actions"][1]["type"] = "\x1b]0;owned\x07"
    spoilt = tmp_path / "escape.json"
    spoilt.write_text(json.dumps(document), encoding="utf-8")
    db = tmp_path / "games.db"
    assert run_cli("play", "--players", "Alice,Bob,Carol", "--db", str(db), "--images", "none").returncode == 0
    before = database_rows(db)
    for argv in (["import", str(spoilt), "--db", str(db)], ["replay", str(spoilt)], ["routes", str(spoilt)]):
        refused = run_cli(*argv)
        assert refused.returncode in (1, 2) and "Traceback" not in refused.stderr, refused.stderr
        assert "<U+001B>]0;owned<U+0007>" in refused.stderr, refused.stderr
        assert "\x1b" not in refused.stderr and "\x07" not in refused.stderr
    played = run_cli("play", "--game", "1", "--db", str(db), "--images", "none",
                     stdin=f"/game import file:{spoilt}\n".encode())
    assert played.returncode == 0 and "<U+001B>]0;owned<U+0007>" in played.stdout, played.stdout
    assert "\x1b" not in played.stdout + played.stderr and "\x07" not in played.stdout + played.stderr
    assert database_rows(db) == before
