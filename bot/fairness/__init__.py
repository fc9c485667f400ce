"""Checkable shuffles (commitments, the drand beacon) and duplicate matches."""
