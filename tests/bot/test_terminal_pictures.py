"""Issue 31, clarity, pictures in the terminal: `/game map around:` writes map-close-up.png and
leaves map.png the whole map; a new round redraws the market and the table, whose titles name
the round they show (the market once said "Auction Round" in stock round 2)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import ROOT, cli

from engine import load_game
from render.from_engine import market_view, table_view

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"
LAST_OPERATING = 29  # actions of fixture 65394 before SAA lays K4, buys two trains and passes, ending OR 1.1


def test_a_close_up_leaves_the_whole_map_and_a_new_round_redraws_market_and_table(tmp_path: Path) -> None:
    db, out = tmp_path / "games.db", tmp_path / "pictures"
    document = json.loads(FIXTURE.read_text())
    document["actions"] = document["actions"][:LAST_OPERATING]
    document.pop("result")
    (tmp_path / "prefix.json").write_text(json.dumps(document))
    assert cli("import", str(tmp_path / "prefix.json"), "--db", str(db)).strip() == "1"
    state = load_game(document).state
    president = state.corporations["SAA"].president().name
    shown = cli("play", "--game", "1", "--db", str(db), "--out", str(out), stdin="/game map\n")
    assert f"pictures: {out / 'map.png'}" in shown
    whole = (out / "map.png").read_bytes()
    near = cli("play", "--game", "1", "--db", str(db), "--out", str(out), stdin="/game map around:J5 radius:1\n")
    assert f"map around J5 after move {LAST_OPERATING}" in near and f"pictures: {out / 'map-close-up.png'}" in near
    assert (out / "map.png").read_bytes() == whole and (out / "map-close-up.png").read_bytes() != whole

    # SAA lays a tile and buys a train (the market stays as it was), then passes, which ends the
    # operating round:
    # the market (whose prices did not move) and the table are drawn again, titled with the stock
    # round they now show.
    moved = cli("play", "--game", "1", "--db", str(db), "--out", str(out),
                stdin=f"@{president} /lay hex:K4 tile:9 rotation:0\n@{president} /train train:2\n"
                      f"@{president} /train train:2\n@{president} /pass\n")
    _, _, bought, passed = (line for line in moved.splitlines() if line.startswith("pictures: "))
    assert str(out / "market.png") not in bought and str(out / "table.png") in bought, bought
    assert str(out / "market.png") in passed and str(out / "table.png") in passed, passed
    document["actions"] = json.loads(FIXTURE.read_text())["actions"][:LAST_OPERATING + 4]
    after = load_game(document).state
    assert after.round_label() == "Stock Round 2"
    assert market_view(after).title == "18Texas stock market \u2014 Stock Round 2"
    assert table_view(after).round_name == "Stock Round 2"
