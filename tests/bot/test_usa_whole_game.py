"""A whole generated 18USA game through `stationmaster play`: every action of the log typed as
one raw action per line by the player who controls the acting entity (the engine says who),
from the private auction to the game's end, which must come with the logged scores."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

from test_usa_play import STATIONMASTER, stored_state, typed_lines
from usa_script import USA_LOGS

# The shorter of the two logs the engine plays exactly to their result (827 actions, 4 players).
LOG = next(path for path in USA_LOGS if path.stem == "randplay_18USA_4p_s8403")


def test_a_whole_18usa_game_typed_as_raw_actions_ends_with_the_logged_scores(tmp_path: Path) -> None:
    document = json.loads(LOG.read_text())
    lines = typed_lines(document, len(document["actions"]))
    names = [p["name"] for p in document["players"]]
    result = subprocess.run(
        STATIONMASTER + ["play", "18USA", "--players", ",".join(names), "--seed", str(document["settings"]["seed"]),
                         "--site-rules", "--strict", "--images", "none", "--db", str(tmp_path / "play.db")],
        input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    state = asyncio.run(stored_state(tmp_path / "play.db"))
    assert state.finished
    by_id = dict(zip(range(1, len(names) + 1), names, strict=True))  # the terminal seats players 1, 2, ...
    scores = {by_id[int(key)]: value for key, value in state.result().items()}
    assert scores == document["result"]
    # The terminal said so too, with the scores in order.
    ranked = sorted(document["result"].items(), key=lambda item: -item[1])
    told = "\n".join(f"{rank}. {name} ${value}" for rank, (name, value) in enumerate(ranked, 1))
    assert told in result.stdout, result.stdout[-2000:]
