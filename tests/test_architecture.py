"""The import rules of the project, checked on the source (every ``import``, including those
inside functions and under ``TYPE_CHECKING``):

- no module reaches itself through its imports, directly or not;
- nothing in ``bot/``, ``db/`` or ``games/`` imports from ``cogs/`` (features sit on the runtime,
  never the reverse);
- ``db/`` imports neither ``bot/`` nor ``cogs/``;
- ``games/`` imports only ``games/``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "db", "games")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports (``from a import b`` counts ``a.b`` when that is a module)."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                parent = ".".join([*base, node.module] if node.module else base)
            else:
                parent = node.module or ""
            targets = [parent, *(f"{parent}.{alias.name}" for alias in node.names)]
        for target in targets:
            # the module itself if it is ours, else the nearest package of ours containing it
            parts = target.split(".")
            while parts and ".".join(parts) not in known:
                parts.pop()
            if parts:
                found.add(".".join(parts))
    found.discard(name)
    return found


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imported(name, path, known) for name, path in mods.items()}


def top(name: str) -> str:
    return name.split(".")[0]


def find_cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), plus self-imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top_node = stack.pop()
                on_stack.discard(top_node)
                group.append(top_node)
                if top_node == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def test_the_graph_sees_the_project() -> None:
    edges = graph()
    assert "bot.tables" in edges and "cogs.ohhell" in edges and "games.common.engine" in edges
    assert "bot.contract" in edges["bot.tables"]


def test_no_import_cycles() -> None:
    cycles = find_cycles(graph())
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_a_package_importing_its_own_module_is_not_a_cycle_but_a_loop_is() -> None:
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_imports_go_down_the_layers() -> None:
    allowed = {
        "games": {"games"},
        "db": {"db", "games"},
        "bot": {"bot", "db", "games"},
        "cogs": {"cogs", "bot", "db", "games"},
    }
    wrong = [
        f"{name} imports {target}"
        for name, targets in sorted(graph().items())
        for target in sorted(targets)
        if top(target) not in allowed[top(name)]
    ]
    assert not wrong, "\n".join(wrong)
