"""`stationmaster render`: the files it writes and its error messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engine_states import FIXTURE, fixture_log

from bot.cli import main
from render.cli import truncate_log

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_render_writes_three_pngs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pics"
    assert main(["render", str(FIXTURE), "--upto", "120", "--out", str(out)]) == 0
    for name in ("map.png", "market.png", "table.png"):
        assert (out / name).read_bytes()[:8] == PNG_SIGNATURE
    assert str(out / "map.png") in capsys.readouterr().out


def test_upto_counts_site_action_ids_not_positions() -> None:
    log = fixture_log()
    kept = truncate_log(log, 200)["actions"]
    assert kept[-1]["id"] <= 200 < log["actions"][len(kept)]["id"]
    assert len(kept) < 200  # the site renumbered after undos: ids run ahead of positions
    assert truncate_log(log, None) is log
    assert truncate_log(log, 0)["actions"] == []


@pytest.mark.parametrize(("content", "message"), [
    (None, "cannot read"),
    ("{not json", "is not valid JSON"),
    (json.dumps({"title": "1830", "players": [], "actions": []}), "unknown title"),
])
def test_errors_are_clear_and_exit_non_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            content: str | None, message: str) -> None:
    path = tmp_path / "log.json"
    if content is not None:
        path.write_text(content)
    assert main(["render", str(path), "--out", str(tmp_path / "out")]) != 0
    err = capsys.readouterr().err
    assert err.startswith("stationmaster render:") and message in err


def test_negative_upto_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(FIXTURE), "--upto", "-1", "--out", str(tmp_path)]) == 2
    assert "--upto" in capsys.readouterr().err


def test_unwritable_output_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert main(["render", str(FIXTURE), "--upto", "40", "--out", str(blocker / "sub")]) == 2
    assert "cannot write" in capsys.readouterr().err
