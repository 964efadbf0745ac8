"""The `stationmaster` command: each area of the project adds its own subcommands."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# Modules that provide `add_subcommands(subparsers)`; each owns its subcommands.
SUBCOMMAND_MODULES = ("engine.cli", "storage.cli")
OPTIONAL_MODULES = ("engine.router_cli", "render.cli", "bot.console", "bot.discord_app")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="stationmaster",
                                     description="Moderator for 18Texas and 18USA games")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(name).add_subcommands(subparsers)
    for name in OPTIONAL_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name:
                raise
            continue
        module.add_subcommands(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        # A bare `stationmaster` runs the bot: Discord with a token, else the terminal moderator.
        argv = ["bot"]
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader of our output went away (`stationmaster routes log.json | head`): not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
