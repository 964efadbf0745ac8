"""Issue 31 item 6, imports: a log whose player names cannot act, whose seed is text that is not a
number, or whose action times are not times is refused with the reason; fields nothing reads,
with values 18xx.games would not write, are left out with a note instead of being taken
silently. Through `stationmaster import`, the terminal's `/game import file:` and Discord's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import ROOT, run_cli
from fakediscord import FakeDiscord
from hostile_inputs import database_rows
from test_discord_e2e import Table, stationmaster
from test_discord_hardening import _import_by_slash

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"


def _document() -> dict[str, Any]:
    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    document["actions"] = document["actions"][:20]
    return document


def _spoilt(change: str) -> dict[str, Any]:
    document = _document()
    first = document["players"][0]
    if change == "name with ' /'":
        first["name"] = "Ann /pass"
    elif change == "invisible twin":
        document["players"][1]["name"] = first["name"].replace(" ", " \u200b")
    elif change == "seed 'abc'":
        document["settings"]["seed"] = "abc"
    elif change == "negative created_at":
        document["actions"][2]["created_at"] = -5
    elif change == "created_at 1e300":
        document["actions"][2]["created_at"] = 1e300
    return document


REFUSED = {
    "name with ' /'": "The name 'Ann /pass' holds ' /'".lower(),
    "invisible twin": "differ only by invisible characters",
    "seed 'abc'": "'settings.seed' must be a whole number (or its digits as text), not 'abc'",
    "negative created_at": "action 3 (id 3) has created_at -5; a time is whole seconds since 1970",
    "created_at 1e300": "action 3 (id 3) has created_at 1e+300; a time is whole seconds since 1970",
}


@pytest.mark.parametrize("change", list(REFUSED))
def test_the_import_command_refuses_a_log_it_cannot_keep(tmp_path: Path, change: str) -> None:
    db = tmp_path / "games.db"
    assert run_cli("import", str(FIXTURE), "--db", str(db)).returncode == 0
    before = database_rows(db)
    spoilt = tmp_path / "spoilt.json"
    spoilt.write_text(json.dumps(_spoilt(change)), encoding="utf-8")
    refused = run_cli("import", str(spoilt), "--db", str(db))
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert REFUSED[change] in refused.stderr.lower(), refused.stderr
    assert database_rows(db) == before


def _absurd() -> dict[str, Any]:
    document = _document()
    document["turn"] = -1e300
    document["junk"] = "x" * 100_000
    document["settings"]["player_order"] = 7
    document["actions"][1]["junk"] = 1e300
    document["actions"][4]["junk"] = "y" * 5_000
    return document


NOTES = ["Left out, as nothing in Stationmaster reads them: turn (-1e+300 is not a value 18xx.games writes "
         "there); junk (not a field 18xx.games writes); settings.player_order (7); the field 'junk' of actions "
         "2, 5 (the engine does not read it)."]


def test_unread_fields_with_absurd_values_are_left_out_with_a_note(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    absurd = tmp_path / "absurd.json"
    absurd.write_text(json.dumps(_absurd()), encoding="utf-8")
    imported = run_cli("import", str(absurd), "--db", str(db))
    assert imported.returncode == 0 and imported.stdout.strip() == "1", imported.stderr
    assert imported.stderr == f"stationmaster import: {NOTES[0]}\n"
    stored = [json.loads(row[2]) for row in sorted(database_rows(db)["actions"], key=lambda r: r[1])]
    assert stored == [{k: v for k, v in a.items() if k != "junk"} for a in _document()["actions"]]
    exported = json.loads(run_cli("export", "1", "--db", str(db)).stdout)
    assert "turn" not in exported and "junk" not in exported and exported["actions"] == stored
    # A log as the site writes it is taken without a note.
    plain = run_cli("import", str(FIXTURE), "--db", str(db))
    assert plain.returncode == 0 and plain.stderr == ""


def test_the_terminal_import_says_what_was_left_out_in_its_own_words(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    absurd = tmp_path / "absurd.json"
    absurd.write_text(json.dumps(_absurd()), encoding="utf-8")
    created = run_cli("play", "--players", "Alice,Bob,Carol", "--db", str(db), "--images", "none",
                      stdin=f"/game import file:{absurd}\n".encode())
    assert created.returncode == 0 and "Traceback" not in created.stderr
    assert "Imported 18Texas as game #2 (20 actions, active)" in created.stdout, created.stdout
    assert NOTES[0] in created.stdout and "Play it with: stationmaster play --game 2" in created.stdout
    assert "server manager" not in created.stdout and "Discord" not in created.stdout


async def test_a_discord_import_says_what_was_left_out(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    table = Table(fake)
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        handle = await _import_by_slash(fake, table.users["bob"], json.dumps(_absurd()).encode())
        answer = await handle.wait_message(timeout=20)
        assert answer.ephemeral and answer.content.startswith("Imported as game #1"), answer.content
        (thread,) = fake.threads(fake.channel)
        posted = fake.messages_in(thread, include_ephemeral=False)[0].content
        assert NOTES[0] in posted and "You (the importer) or a server manager give the seats" in posted
