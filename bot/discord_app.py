"""`stationmaster bot`: the Discord front door, or the terminal one when there is no token.

``main`` builds the store, the Moderator and the reminder scheduler from the settings and
hands them to the bot (discord.py's advanced-startup pattern); the bot itself lives in
``bot.discord.client``.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import Any

from bot.config import TOKEN_ENV, ConfigError, Settings, load_settings

log = logging.getLogger("stationmaster")


def run_bot(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config)
    except ConfigError as error:
        print(f"stationmaster bot: {error}", file=sys.stderr)
        return 2
    if settings.token is None:
        return _terminal_fallback(args, settings)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.discord.client import run_discord
    from storage import StorageError

    try:
        asyncio.run(run_discord(settings))
    except KeyboardInterrupt:
        pass
    except StorageError as error:  # a store that cannot be opened: say which and why
        print(f"stationmaster bot: {error}", file=sys.stderr)
        return 2
    return 0


def _terminal_fallback(args: argparse.Namespace, settings: Settings) -> int:
    from bot.console import last_terminal_game, run_play
    from bot.console_input import player_names
    from engine.catalog import default_title
    from storage import StorageError, parse_database_url

    title = args.title or default_title()
    try:
        resume = last_terminal_game(settings.store_url)
    except StorageError as error:
        print(f"stationmaster bot: {error}", file=sys.stderr)
        return 2
    if resume is not None:
        where = parse_database_url(settings.store_url).describe()
        print(f"{TOKEN_ENV} is not set, so Stationmaster runs in the terminal, resuming game #{resume} from "
              f"{where} (`stationmaster play` starts a new one). /moves lists the choices, /help the "
              f"commands; pictures go to {args.out}.")
    else:
        try:
            names = player_names(args.players)
        except ValueError as error:
            print(f"stationmaster bot: {error}", file=sys.stderr)
            return 2
        print(f"{TOKEN_ENV} is not set, so Stationmaster starts in the terminal: a {len(names)}-player {title} "
              f"game for {', '.join(names)}.\nType moves as @<player> /<command> option:value … (/moves lists the choices, /help "
              f"the commands); pictures go to {args.out}. For Discord, set {TOKEN_ENV} (see the README).")
    play_args = argparse.Namespace(
        title=title, players=args.players, seed=None, site_rules=False, db=settings.store_url,
        out=args.out, images="each", game=resume, strict=False, router_budget=settings.router_budget,
        router_follow_up=settings.router_follow_up)
    return run_play(play_args)


def add_subcommands(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bot", help=f"run the Discord bot (token from {TOKEN_ENV}); without a token, play in the terminal")
    parser.add_argument("--config", default=None, help="config.toml (see config.example.toml)")
    parser.add_argument("--players", default="Alice,Bob,Carol", help="terminal fallback: the players")
    parser.add_argument("--title", default=None, help="terminal fallback: the game (default: the first title "
                        "the engine lists, see stationmaster play --help)")
    parser.add_argument("--out", default="./stationmaster-images", help="terminal fallback: picture folder")
    parser.set_defaults(func=run_bot)
