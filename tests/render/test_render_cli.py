"""`stationmaster render`: the files it writes and its error messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engine_states import FIXTURE, fixture_log

from bot.cli import main
from engine import load_game
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
    ("{not json", "log.json: not valid JSON (Expecting property name"),
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
    assert f"--out: cannot create the folder {blocker / 'sub'}: Not a directory" in capsys.readouterr().err


def test_render_at_a_round_draws_that_position_titled_with_the_moment(tmp_path: Path) -> None:
    from engine.history import History
    from engine.moments import resolve
    from render.cli import render_files

    out = tmp_path / "at"
    assert main(["render", str(FIXTURE), "--at", "OR 2.1", "--out", str(out)]) == 0
    log = fixture_log()
    moment = resolve(History.of_document(log), "OR 2.1")
    assert moment.label.startswith("start of OR 2.1 (after action ")
    action_id = int(moment.label.rsplit(" ", 1)[1].rstrip(")"))
    state = load_game(truncate_log(log, action_id)).state
    assert state.round_title() == "Operating Round 2.1"
    expected = render_files(state, tmp_path / "cut", moment=moment.label)
    for path in expected:
        assert (out / path.name).read_bytes() == path.read_bytes()
    assert render_files(state, tmp_path / "untitled")[0].read_bytes() != (out / "map.png").read_bytes()


def test_an_action_an_undo_took_back_is_on_the_board_at_its_number() -> None:
    from engine.history import History
    from engine.moments import resolve, state_at
    from render.from_engine import table_view

    # The fixture's first 40 actions, the last taken back and made again.
    first = [{**action, "id": number} for number, action in enumerate(fixture_log()["actions"][:40], start=1)]
    undo = {"type": "undo", "entity": first[-1]["entity"], "entity_type": first[-1]["entity_type"], "id": 41}
    actions = [*first, undo, {**first[-1], "id": 42}]
    log = {**fixture_log(), "actions": actions}
    undo, taken_back = 40, 40
    history = History.of_document(log)
    moment = resolve(history, str(taken_back))
    assert moment.actions is not None and moment.label.endswith("(since taken back)")
    assert table_view(state_at(history, moment)) == table_view(load_game(truncate_log(log, taken_back)).state)
    after = resolve(history, str(actions[undo]["id"]))
    assert after.actions is None
    assert table_view(state_at(history, after)) == table_view(load_game(truncate_log(log, actions[undo]["id"])).state)


def test_render_charts_writes_three_legible_pngs_in_the_companies_colours(tmp_path: Path) -> None:
    from PIL import Image, ImageColor

    out = tmp_path / "charts"
    assert main(["render", str(FIXTURE), "--charts", "--out", str(out)]) == 0
    for name in ("chart-values.png", "chart-prices.png", "chart-revenue.png", "map.png"):
        assert (out / name).read_bytes()[:8] == PNG_SIGNATURE
    prices = Image.open(out / "chart-prices.png").convert("RGB")
    assert prices.size == (1400, 861)
    colours = {colour for _, colour in prices.getcolors(maxcolors=1 << 20) or []}
    state = load_game(fixture_log()).state
    drawn = [corp for corp in state.corporations.values() if corp.ipoed]
    assert drawn
    for corp in drawn:
        assert ImageColor.getrgb(corp.color) in colours, corp.id


def test_at_and_upto_together_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(FIXTURE), "--upto", "5", "--at", "SR 1", "--out", str(tmp_path)]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["render", str(FIXTURE), "--at", "OR 99.1", "--out", str(tmp_path)]) == 2
    assert "no round 'OR 99.1'" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())
