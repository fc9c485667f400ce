"""What a view or an event shows, for the property tests of both games' secrecy."""

from __future__ import annotations

from typing import Any


def strings(value: Any, skip: frozenset[str] = frozenset()) -> set[str]:
    """Every string leaf of a JSON-able value (keys in ``skip`` left out, at any depth). One set
    filled on a walk, not a set a node joined on the way back: those unions were 40 % of the
    Shithead whole-game property test's time."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(v for k, v in item.items() if k not in skip)
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found
