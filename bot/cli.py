"""The `stationmaster` command: each area of the project adds its own subcommands."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# Each subcommand and the module that registers it (``add_subcommands(subparsers)``). Only
# the module of the command being run is imported, so `stationmaster replay` loads neither
# discord.py nor CairoSVG; `stationmaster --help` imports them all to list them.
COMMANDS = {
    "replay": "engine.cli",
    "routes": "engine.router_cli",
    "import": "storage.cli",
    "export": "storage.cli",
    "migrate": "storage.cli",
    "render": "render.cli",
    "play": "bot.console",
    "bot": "bot.discord_app",
}
REQUIRED_MODULES = ("engine.cli", "storage.cli")  # the others may be left out of an install


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser for ``command`` alone, or for every subcommand when it is not known."""
    parser = argparse.ArgumentParser(prog="stationmaster",
                                     description="Moderator for 18Texas and 18USA games")
    subparsers = parser.add_subparsers(dest="command", required=True)
    modules = [COMMANDS[command]] if command in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name != name or name in REQUIRED_MODULES:
                raise
            continue
        module.add_subcommands(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        # A bare `stationmaster` runs the bot: Discord with a token, else the terminal moderator.
        argv = ["bot"]
    args = build_parser(argv[0]).parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader of our output went away (`stationmaster routes log.json | head`): not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
