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


class MomentStrings:
    """:func:`strings` of each view of one moment of a game, the public one walked once.

    A seat's view repeats most of the public view (the history, the tricks, the scores), built
    afresh: walking every seat's whole view was most of the Oh Hell property tests' time. A value
    equal to the public view's under the same key holds the same strings, and comparing two values
    (in C) costs a fraction of walking one, so only a seat's own values are walked. Exact, not a
    superset: each key's strings are kept apart.

    ``before``, the previous moment of the same game, lends its strings to every key whose value
    has not changed since (the rules, the history until a deal ends, the totals): walking the whole
    public view again at every step was the largest part of the Oh Hell property tests' time."""

    def __init__(self, public: dict[str, Any], before: MomentStrings | None = None) -> None:
        self.public = public
        old = before.public if before is not None else {}
        self.by_key = {
            key: before.by_key[key] if before is not None and key in old and old[key] == value else strings(value)
            for key, value in public.items()
        }

    def of_public(self, skip: frozenset[str] = frozenset()) -> set[str]:
        """:func:`strings` of the public view; ``skip``: keys of the view's top level left out."""
        return set().union(*(found for key, found in self.by_key.items() if key not in skip))

    def of(self, view: dict[str, Any], skip: frozenset[str] = frozenset()) -> set[str]:
        """:func:`strings` of a seat's ``view``; ``skip``: keys of the view's top level left out
        (a value shared with the public view lends its strings walked whole, so a key in
        ``skip`` that also stood deeper would be found there: a superset, which can only fail a
        secrecy check, never hide a leak)."""
        found: set[str] = set()
        public = self.public
        for key, value in view.items():
            if key in skip:
                continue
            if key in public and public[key] == value:
                found |= self.by_key[key]
            else:
                found |= strings(value, skip)
        return found
