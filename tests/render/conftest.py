"""Render tests import their helpers, and the 18USA map helpers of the engine tests, as
top-level modules (tests/ has no __init__.py files)."""

import sys
from pathlib import Path

HERE = Path(__file__).parent
for folder in (HERE, HERE.parents[0] / "engine" / "titles" / "g18usa"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
