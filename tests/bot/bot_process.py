"""`stationmaster bot` as its own process, talking to a FakeDiscord that runs in the test.

    python tests/bot/bot_process.py API_URL GATEWAY_URL CONFIG [POLL_SECONDS LEASE_SECONDS]

The bot is built exactly as `stationmaster bot --config CONFIG` builds it (settings from the
file, the store from its database URL, the token from DISCORD_TOKEN); only discord.py's two
URLs point at the fake (as ``fakediscord.client.pointed_at`` does in-process) and the reminder
timings are short, so that tests take seconds.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

from bot.config import load_settings  # noqa: E402
from bot.discord.client import run_discord  # noqa: E402


def main() -> None:
    api, gateway, config = sys.argv[1:4]
    poll, lease = (float(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (0.2, 2)
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(process)d %(name)s: %(message)s")
    asyncio.run(run_discord(load_settings(config), reminder_poll_seconds=poll, reminder_lease_seconds=lease))


if __name__ == "__main__":
    main()
