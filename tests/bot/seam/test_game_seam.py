"""The seam between the runtime and a game (:mod:`bot.seam.contract`) is typed all through: no member
of the parts a game implements is ``Any`` (a game's kind gets its own rules, engine, views and
actions back, typed as it declared them), no game narrows what it is handed with a ``cast``, and a
kind whose declared views are not its engine's is refused when it is defined (the one thing the
type checker cannot tie together).

:func:`figures` prints the counts for any revision: ``python -m tests.bot.seam.test_game_seam [REV]``
(``git show REV:path`` for the sources; the working tree without one)."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.seam.contract import GameKind
from games.ohhell.views import OhHellView
from tests.thirdgame.engine import HighCard, HighCardAction, HighCardView, Rules

ROOT = Path(__file__).resolve().parents[3]
CONTRACT = "bot/seam/contract.py"
#: the parts of the seam a game implements or is handed (the classes of bot/seam/contract.py that exist)
SEAM = (
    "GameKind",
    "GameEngine",
    "GameRules",
    "GameViews",
    "GameControls",
    "GameComputer",
    "GameResults",
    "RuleSet",
    "HandControl",
)
#: each game's adapter to the runtime
KINDS = ("cogs/ohhell/kind.py", "cogs/shithead/kind.py", "tests/thirdgame/kind.py")
#: the seam's protocols: what a game's own objects fit, not what its kind writes
PROTOCOLS = ("RuleSet", "HandControl")
THIRD_GAME = (
    "tests/thirdgame/__init__.py",
    "tests/thirdgame/controls.py",
    "tests/thirdgame/engine.py",
    "tests/thirdgame/kind.py",
)

Read = Callable[[str], str]


def _worktree(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
    }


def _any_aliases(tree: ast.Module) -> set[str]:
    """Module-level aliases whose value names ``Any`` (``View = Mapping[str, Any]``); a type
    variable is not an alias (its bound is the game's own type once a kind names it)."""
    found = {"Any"}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Call) and "TypeVar" in _names(value.func):
                continue
            if _names(value) & found:
                found.add(node.targets[0].id)
    return found


def _annotations(member: ast.stmt) -> list[ast.expr]:
    if isinstance(member, ast.AnnAssign):
        return [member.annotation]
    if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef):
        args = member.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        return [a.annotation for a in every if a is not None and a.annotation is not None] + (
            [member.returns] if member.returns is not None else []
        )
    return []


def _member_name(member: ast.stmt) -> str | None:
    if isinstance(member, ast.AnnAssign) and isinstance(member.target, ast.Name):
        return member.target.id
    if isinstance(member, ast.Assign) and len(member.targets) == 1 and isinstance(member.targets[0], ast.Name):
        return member.targets[0].id
    if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef):
        return member.name
    return None


def seam_members(source: str) -> dict[str, list[str]]:
    """Each seam class's members (attributes and methods), ``name!`` for one whose type names Any."""
    tree = ast.parse(source)
    aliases = _any_aliases(tree)
    out: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in SEAM:
            members = []
            for member in node.body:
                name = _member_name(member)
                if name is None:
                    continue
                typed_any = any(_names(a) & aliases for a in _annotations(member))
                members.append(name + ("!" if typed_any else ""))
            out[node.name] = members
    return out


def must_write(source: str) -> tuple[list[str], list[str]]:
    """What a game must write itself: the seam's abstract methods that no part defaults, and the
    attributes it declares without a value (a game's name, engine, presets...)."""
    tree = ast.parse(source)
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name in SEAM and n.name not in PROTOCOLS]
    abstract: set[str] = set()
    defaulted: set[str] = set()
    attributes: list[str] = []
    for node in classes:
        for member in node.body:
            if isinstance(member, ast.FunctionDef):
                marked = any("abstractmethod" in _names(d) for d in member.decorator_list)
                (abstract if marked else defaulted).add(member.name)
            elif isinstance(member, ast.AnnAssign) and member.value is None and isinstance(member.target, ast.Name):
                attributes.append(member.target.id)
    return sorted(abstract - defaulted), sorted(set(attributes))


def casts(source: str) -> int:
    return sum(
        1
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Call)
        and (getattr(n.func, "id", None) == "cast" or getattr(n.func, "attr", None) == "cast")
    )


def kind_members(source: str, name: str) -> list[str]:
    tree = ast.parse(source)
    found = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    return [m for m in (_member_name(s) for s in found.body) if m is not None]


def figures(read: Read = _worktree) -> list[str]:
    seam = seam_members(read(CONTRACT))
    members = [m for ms in seam.values() for m in ms]
    lines = [
        f"seam classes={len(seam)} members={len(members)} any_members={sum(m.endswith('!') for m in members)}"
        + "".join(f" {c}={len(ms)}" for c, ms in seam.items()),
        "a game must write: abstract methods={} attributes={}".format(*(len(m) for m in must_write(read(CONTRACT)))),
        "casts in kinds=" + " ".join(f"{p}:{casts(read(p))}" for p in KINDS),
        f"third game kind members={len(kind_members(read('tests/thirdgame/kind.py'), 'HighCardKind'))} "
        f"lines={sum(len(read(p).splitlines()) for p in THIRD_GAME)}",
    ]
    return lines


def test_no_member_of_the_game_seam_is_any() -> None:
    seam = seam_members(_worktree(CONTRACT))
    assert set(seam) == set(SEAM), "a part of the seam was renamed: name it in SEAM"
    typed_any = [f"{c}.{m[:-1]}" for c, ms in seam.items() for m in ms if m.endswith("!")]
    assert typed_any == []


def test_the_counter_sees_an_any_member() -> None:
    source = (
        "from typing import Any, TypeVar\nView = dict[str, Any]\nT = TypeVar('T', bound=dict[str, Any])\n"
        "class GameKind:\n    key: str\n    rules: Any\n    def draw(self, view: View) -> None: ...\n"
        "    def typed(self, view: T) -> T: ...\n"
    )
    assert seam_members(source) == {"GameKind": ["key", "rules!", "draw!", "typed"]}


@pytest.mark.parametrize("path", KINDS)
def test_no_game_casts_in_its_kind(path: str) -> None:
    assert casts(_worktree(path)) == 0
    assert casts("from typing import cast\nx = cast(int, 1)\n") == 1


def test_a_kind_whose_views_are_not_its_engines_is_refused() -> None:
    with pytest.raises(TypeError, match="views"):

        class Wrong(GameKind[HighCard, Rules, OhHellView, OhHellView, HighCardAction]):  # noqa: F841
            pass

    class Right(GameKind[HighCard, Rules, HighCardView, HighCardView, HighCardAction]):  # noqa: F841
        pass


if __name__ == "__main__":
    rev = sys.argv[1] if len(sys.argv) > 1 else None

    def at_rev(path: str) -> str:
        return subprocess.run(
            ["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True, cwd=ROOT
        ).stdout

    print("\n".join(figures(at_rev if rev else _worktree)))
