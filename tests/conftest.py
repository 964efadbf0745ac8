"""Shared pytest configuration for the whole test suite."""

# --- fakediscord: the local Discord fake (tests/fakediscord/) ---------------------------------
# tests/ is on sys.path (rootdir conftest, no __init__.py), so the package imports as
# ``fakediscord``. Re-exporting the fixture makes ``fake_discord`` available to every test.
from fakediscord.fixtures import fake_discord  # noqa: F401
