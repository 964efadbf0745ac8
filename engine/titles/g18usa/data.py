"""18USA's map, tiles, market and entities, as packaged JSON (engine/titles/g18usa/data)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).with_name("data")
DATA_FILES = ("map", "tiles", "market", "entities")


@cache
def load_data() -> dict[str, Any]:
    """The four data files by name. Shared between callers: read it, never change it."""
    return {name: json.loads((DATA_DIR / f"{name}.json").read_text()) for name in DATA_FILES}
