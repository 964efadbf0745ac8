"""Bot tests import their helpers as top-level modules (tests/ has no __init__.py files)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
