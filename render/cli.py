"""`stationmaster render FILE.json [--upto N] --out DIR`: map, market and table PNGs of a log."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.errors import GameError
from engine.log import load_game
from render import png
from render.from_engine import map_view, market_view, table_view
from render.map_svg import map_svg
from render.market_svg import market_svg
from render.table_svg import table_svg

OUTPUTS = ("map.png", "market.png", "table.png")


def truncate_log(data: dict[str, Any], upto: int | None) -> dict[str, Any]:
    """The log as it stood after action `upto`.

    N is the 18xx.games action id (what the site's `?action=N` shows), so it matches what a
    player sees there; ids are not positions, since the site renumbers after undos. Undo and
    redo inside the kept part still apply (the engine's log filter sees them).
    """
    if upto is None:
        return data
    if upto < 0:
        raise GameError(f"--upto must be 0 or more, not {upto}")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise GameError("the game log needs a list of actions")
    kept = []
    for position, action in enumerate(actions):
        ident = action.get("id") if isinstance(action, dict) else None
        if (ident if isinstance(ident, int) else position + 1) > upto:
            break
        kept.append(action)
    return {**data, "actions": kept}


def render_files(state: Any, out: Path, *, show_last_runs: bool = True,
                 optimize: bool = False) -> list[Path]:
    """Write map.png, market.png and table.png for an engine position; return the paths."""
    out.mkdir(parents=True, exist_ok=True)
    pictures = (
        png.map_png(map_svg(map_view(state, show_last_runs=show_last_runs)), optimize=optimize),
        png.market_png(market_svg(market_view(state)), optimize=optimize),
        png.table_png(table_svg(table_view(state)), optimize=optimize),
    )
    written = []
    for name, data in zip(OUTPUTS, pictures, strict=True):
        path = out / name
        path.write_bytes(data)
        written.append(path)
    return written


def run_render(args: argparse.Namespace) -> int:
    from engine.cli import read_log  # the replay command's reader gives the same messages

    try:
        data = truncate_log(read_log(args.file), args.upto)
        game = load_game(data)
        written = render_files(game.state, Path(args.out), show_last_runs=not args.no_runs,
                               optimize=args.optimize)
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
    parser.add_argument("--out", required=True, help="directory for map.png, market.png, table.png")
    parser.add_argument("--no-runs", action="store_true", help="do not draw the last runs on the map")
    parser.add_argument("--optimize", action="store_true",
                        help="palette-quantise the PNGs (about a third of the bytes, slower)")
    parser.set_defaults(func=run_render)
