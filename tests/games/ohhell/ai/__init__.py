"""Tests of the Oh Hell computer players."""
