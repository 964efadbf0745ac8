"""`stationmaster render FILE.json [--upto N | --at WHEN] [--charts] --out DIR`: map, market and
table PNGs of a log's position, and the charts of its story."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine.errors import GameError
from engine.history import History
from engine.log import load_game
from engine.moments import actions_upto, resolve, state_at
from engine.story import KINDS, chart
from render import png
from render.at_moment import map_at, market_at, table_at
from render.from_engine import map_view, market_view, table_view
from render.map_svg import map_svg
from render.market_svg import market_svg
from render.table_svg import table_svg
from untrusted.files import folder_problem

OUTPUTS = ("map.png", "market.png", "table.png")


def truncate_log(data: dict[str, Any], upto: int | None) -> dict[str, Any]:
    """The log as it stood after action `upto` (`engine.moments.actions_upto`), so that it
    matches what a player sees on the site as `?action=N`."""
    if upto is None:
        return data
    if upto < 0:
        raise GameError(f"--upto must be 0 or more, not {upto}")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise GameError("the game log needs a list of actions")
    return {**data, "actions": actions_upto(actions, upto)}


def render_files(state: Any, out: Path, *, show_last_runs: bool = True,
                 optimize: bool = False, moment: str | None = None) -> list[Path]:
    """Write map.png, market.png and table.png for an engine position, titled with `moment`
    where it is one of the past; return the paths."""
    out.mkdir(parents=True, exist_ok=True)
    the_map, the_market, the_table = map_view(state, show_last_runs=show_last_runs), market_view(state), table_view(state)
    if moment is not None:
        the_map, the_market, the_table = map_at(the_map, moment), market_at(the_market, moment), table_at(the_table, moment)
    pictures = (
        png.map_png(map_svg(the_map), optimize=optimize),
        png.market_png(market_svg(the_market), optimize=optimize),
        png.table_png(table_svg(the_table), optimize=optimize),
    )
    return _written(out, zip(OUTPUTS, pictures, strict=True))


def chart_files(history: History, out: Path) -> list[Path]:
    """Write chart-values.png, chart-prices.png and chart-revenue.png for a game's history."""
    from render.charts import chart_png  # matplotlib is loaded only when charts are drawn

    out.mkdir(parents=True, exist_ok=True)
    return _written(out, ((f"chart-{kind}.png", chart_png(chart(history, kind))) for kind in KINDS))


def _written(out: Path, pictures: Iterable[tuple[str, bytes]]) -> list[Path]:
    written = []
    for name, data in pictures:
        path = out / name
        path.write_bytes(data)
        written.append(path)
    return written


def run_render(args: argparse.Namespace) -> int:
    from engine.cli import read_log  # the replay command's reader gives the same messages

    try:
        if args.at is not None and args.upto is not None:
            raise GameError("give --upto or --at, not both")
        data = read_log(args.file)
        if (problem := folder_problem(args.out)) is not None:  # before the replay, not after it
            raise GameError(f"--out: {problem}")
        out = Path(args.out)
        written = []
        if args.at is not None or args.charts:
            history = History.of_document(data)
            if args.charts:
                written += chart_files(history, out)
            if args.at is not None:
                moment = resolve(history, args.at)
                written += render_files(state_at(history, moment), out, show_last_runs=not args.no_runs,
                                        optimize=args.optimize, moment=moment.label)
        if args.at is None:
            game = load_game(truncate_log(data, args.upto))
            written += render_files(game.state, out, show_last_runs=not args.no_runs, optimize=args.optimize)
    except GameError as error:
        print(f"stationmaster render: {error}", file=sys.stderr)
        return 2
    except png.RenderLimitError as error:
        print(f"stationmaster render: picture too large to stay legible: {error}", file=sys.stderr)
        return 3
    except OSError as error:
        print(f"stationmaster render: cannot write to {args.out}: {error.strerror or error}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


def add_subcommands(subparsers: Any) -> None:
    parser = subparsers.add_parser("render", help="draw the map, stock market and table of a game log as PNGs")
    parser.add_argument("file", help="18xx.games game log (JSON)")
    parser.add_argument("--upto", type=int, default=None, metavar="N",
                        help="stop after the action with 18xx.games id N (default: the whole log)")
    parser.add_argument("--at", default=None, metavar="WHEN",
                        help="the position at a moment: an action number (57), a round ('OR 3.2' as it "
                             "begins, 'SR 4', 'start of OR 5', 'end of OR 3.2'); the pictures say which")
    parser.add_argument("--charts", action="store_true",
                        help="also write chart-values.png, chart-prices.png, chart-revenue.png "
                             "(players' value after each round, share prices, revenue per operating round)")
    parser.add_argument("--out", required=True, help="directory for map.png, market.png, table.png")
    parser.add_argument("--no-runs", action="store_true", help="do not draw the last runs on the map")
    parser.add_argument("--optimize", action="store_true",
                        help="palette-quantise the PNGs (about a third of the bytes, slower)")
    parser.set_defaults(func=run_render)
