"""`stationmaster play 18USA` fed a generated game's opening, one raw action per line typed by
the player who controls the acting entity, reaches the reference engine's state (the trace)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from log_following import follow
from usa_script import USA_LOGS, decider, made_by_itself

from engine import new_game
from engine.log import document_options
from storage import SqliteGameRepository

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine" / "titles" / "g18usa"))
from usa_tracecheck import expected, first_divergence, snapshot  # noqa: E402

LOG = next(path for path in USA_LOGS if path.stem == "randplay_18USA_4p_s8400")
TRACE = LOG.parent / "traces" / f"{LOG.stem}.jsonl.gz"
STATIONMASTER = [sys.executable, "-m", "bot.cli"]


def trace_line(index: int) -> dict[str, Any]:
    import gzip

    with gzip.open(TRACE, "rt") as handle:
        for text in handle:
            line = json.loads(text)
            if line.get("i") == index and line.get("status") == "applied":
                return line
    raise AssertionError(f"no trace line for action {index}")


def typed_lines(document: dict[str, Any], count: int) -> list[str]:
    """The first `count` actions as `@<decider> /action json:...` lines."""
    game = new_game("18USA", document["players"], document["settings"]["seed"], document_options(document))
    lines = []
    for action in document["actions"][:count]:
        # Figures the site adds to a run and our engine works out itself: none here.
        assert not action.get("extra_revenue") and not action.get("subsidy")
        sent = {k: v for k, v in action.items() if k not in ("id", "created_at", "extra_revenue", "subsidy")}
        if not made_by_itself(game.state, action):  # else the bot makes it after the last move
            lines.append(f"@{decider(game.state, action)} /action json:{json.dumps(sent)}")
        game.state.importing = True  # logged run revenues stand, as the import of the log has them
        follow(game, action)
    return lines


async def stored_state(db: Path) -> Any:
    from bot.sessions import Sessions

    repo = await SqliteGameRepository.open(db)
    try:
        session = await Sessions(repo).get(1)
        assert session.game is not None
        return session.game.state
    finally:
        await repo.close()


def test_stationmaster_play_with_raw_actions_reaches_the_trace(tmp_path: Path) -> None:
    document = json.loads(LOG.read_text())
    found = first_divergence(LOG, TRACE)
    # The actions the engine gets right, up to two sets of rounds (the whole game takes minutes).
    count = min(found[0] if found is not None else len(document["actions"]), 230)
    assert count > 150  # past the auction and the first stock round, into the operating rounds
    names = [p["name"] for p in document["players"]]
    result = subprocess.run(
        STATIONMASTER + ["play", "18USA", "--players", ",".join(names), "--seed", str(document["settings"]["seed"]),
                         "--site-rules", "--strict", "--images", "none", "--db", str(tmp_path / "play.db")],
        input="\n".join(typed_lines(document, count)) + "\n", capture_output=True, text=True, timeout=600,
        cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    ours = snapshot(asyncio.run(stored_state(tmp_path / "play.db")))
    by_id = dict(zip(range(1, len(names) + 1), names, strict=True))  # the terminal seats players 1, 2, ...
    ours["players"] = [{**p, "id": by_id[p["id"]]} for p in ours["players"]]
    ours["acting"] = [by_id[i] for i in ours["acting"]]
    for corp in ours["corps"].values():
        corp["president"] = by_id.get(corp["president"], corp["president"])
    assert ours == expected(trace_line(count - 1))
