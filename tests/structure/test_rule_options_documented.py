"""Every reading of the reference site a title offers as a rule option is in docs/rules.md's
tables, so a table choosing options can read what each one changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.titles import TITLE_CLASSES as TITLES

RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


@pytest.mark.parametrize("title", sorted(TITLES))
def test_every_site_option_has_a_row_in_docs_rules(title: str) -> None:
    doc = RULES_DOC.read_text(encoding="utf-8")
    options = TITLES[title].RULE_OPTIONS
    missing = sorted(name for name in options if name.startswith("site_") and f"| `{name}` |" not in doc)
    assert missing == []
