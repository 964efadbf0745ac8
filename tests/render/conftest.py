"""Render tests import their helpers, the 18USA map helpers of the engine tests and the core's
tiny title, as top-level modules (tests/ has no __init__.py files)."""

import sys
from pathlib import Path

HERE = Path(__file__).parent
for folder in (HERE, HERE.parent / "engine" / "titles" / "g18usa", HERE.parent / "engine" / "core"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
