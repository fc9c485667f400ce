"""The SimCord fixtures of the feature tests (tests/cogs/conftest.py) for these runtime tests too."""

from tests.cogs.conftest import _small_searches, db_path, simcord_bot  # noqa: F401
