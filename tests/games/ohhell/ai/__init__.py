"""Tests of the Oh Hell computer players (issue 6)."""
