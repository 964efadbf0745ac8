"""Issue 9 item 6: each subcommand imports only what it uses (timed in bench/cli_startup.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_each_command_is_registered_by_its_module(command: str) -> None:
    subparsers = next(a for a in build_parser(command)._actions if a.dest == "command")
    assert command in subparsers.choices


def test_every_module_registers_only_the_commands_mapped_to_it() -> None:
    subparsers = next(a for a in build_parser()._actions if a.dest == "command")
    assert set(subparsers.choices) == set(COMMANDS)


def test_replay_loads_neither_discord_nor_cairosvg() -> None:
    code = ("import sys, contextlib, io\nfrom bot.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main(['replay', {str(FIXTURE)!r}]) == 0\n"
            "print(sorted(m for m in ('discord', 'cairosvg', 'aiosqlite', 'render') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
