"""The import rules of the project, checked on the source (every ``import``, including those
inside functions and under ``TYPE_CHECKING``):

- no module reaches itself through its imports, directly or not;
- nothing in ``bot/``, ``db/`` or ``games/`` imports from ``cogs/`` (features sit on the runtime,
  never the reverse);
- ``db/`` imports neither ``bot/`` nor ``cogs/``;
- ``draw/`` (the drawing toolkit every game shares: card labels, emoji text, pictures) imports
  only ``draw/`` and ``games/`` (the cards): neither the runtime, nor the features, nor the store;
- ``games/`` imports only ``games/`` of the project, and runs on the standard library alone (an
  import for the type checker alone goes under ``if TYPE_CHECKING:``);
- no game is named in ``bot/``, ``db/``, ``draw/`` or ``tools/`` (the runtime, the store and the
  stand-alone tools ask a game's adapter): no import of a game's package (``games/<game>``,
  ``cogs/<game>``) and no identifier or string in the code that spells a game's name (its package
  name, its words apart or joined by ``_`` or ``-``, any case); prose (comments, docstrings) may
  give one as an example. The browser code the runtime serves (the local page's style sheets and
  scripts, ``bot/host/page/``) names none either, comments included. The one exception is
  ``tools/verify_shuffle.py``, the players' own check, which must derive each game's pack itself
  rather than trust the file or import the project (tests/tools/test_verify_shuffle_rigged.py
  holds it to the engines);
- one feature package under ``cogs/`` imports another only through the runtime (``bot/``).
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "db", "draw", "games", "locales")


def parsed(path: Path) -> ast.Module:
    """A source file's tree, parsed once a test process for each text it has: a dozen tests walk
    every module of the project (about 250 files, half a second of parsing each time), and none
    changes a tree."""
    return _parsed(path.read_text(encoding="utf-8"), str(path))


@functools.cache
def _parsed(source: str, filename: str) -> ast.Module:
    return ast.parse(source, filename)


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
    for node in ast.walk(parsed(path)):
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
    """Each module of the project -> the project modules it imports (a copy: a test may change it)."""
    return {
        name: set(targets)
        for name, targets in _graph(
            tuple(sorted((n, p, p.read_text(encoding="utf-8")) for n, p in modules().items()))
        ).items()
    }


@functools.cache
def _graph(sources: tuple[tuple[str, Path, str], ...]) -> dict[str, set[str]]:
    known = {name for name, _, _ in sources}
    return {name: imported(name, path, known) for name, path, _ in sources}


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
    assert "bot.seam.contract" in edges["bot.tables.manager"]


def test_no_import_cycles() -> None:
    cycles = find_cycles(graph())
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)


def test_a_package_importing_its_own_module_is_not_a_cycle_but_a_loop_is() -> None:
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_imports_go_down_the_layers() -> None:
    allowed = {
        # every layer may mark its words for the catalogue; the catalogue imports none of them
        "locales": {"locales"},
        "games": {"games", "locales"},
        "db": {"db", "games", "locales"},
        "draw": {"draw", "games", "locales"},
        "bot": {"bot", "db", "draw", "games", "locales"},
        "cogs": {"cogs", "bot", "db", "draw", "games", "locales"},
    }
    wrong = [
        f"{name} imports {target}"
        for name, targets in sorted(graph().items())
        for target in sorted(targets)
        if top(target) not in allowed[top(name)]
    ]
    assert not wrong, "\n".join(wrong)


def runtime_imports(path: Path) -> set[str]:
    """The top-level names of what ``path`` imports when it runs: imports under ``if
    TYPE_CHECKING:`` are the type checker's alone and do not count."""

    def checking_only(node: ast.AST) -> bool:
        test = node.test if isinstance(node, ast.If) else None
        return isinstance(test, ast.Name | ast.Attribute) and ast.unparse(test).endswith("TYPE_CHECKING")

    found: set[str] = set()
    pending: list[ast.AST] = [parsed(path)]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and checking_only(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
        pending.extend(ast.iter_child_nodes(node))
    return found


def test_the_engines_run_on_the_standard_library_alone() -> None:
    """``games/`` needs nothing installed (``python -m games.replay FILE`` checks a downloaded
    hand history from a bare checkout); a third-party import for the type checker alone goes
    under ``if TYPE_CHECKING:``."""
    wrong = sorted(
        f"{module_name(path)} imports {name}"
        for path in sorted((ROOT / "games").rglob("*.py"))
        for name in runtime_imports(path)
        if name not in sys.stdlib_module_names and name not in ("games", "locales")
    )
    assert not wrong, "\n".join(wrong)


def test_the_words_the_engines_mark_need_nothing_installed() -> None:
    """The engines mark their words with :mod:`locales`; its core must then be the standard
    library alone too (the catalogue's reader, which needs Babel, is a module of its own)."""
    assert runtime_imports(ROOT / "locales" / "__init__.py") <= set(sys.stdlib_module_names) | {"__future__"}


def test_an_import_for_the_type_checker_alone_does_not_count(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import typing\nfrom typing import TYPE_CHECKING\nimport attr.filters\n"
        "if TYPE_CHECKING:\n    from typing_extensions import ReadOnly\nelse:\n    import json\n"
        "if typing.TYPE_CHECKING:\n    import numpy\n"
        "def f():\n    from discord import ui\n"
    )
    assert runtime_imports(probe) == {"typing", "attr", "json", "discord"}


# -- no game named outside its own packages ------------------------------------------------------
#: the parts of the project that serve every game alike
NEUTRAL = ("bot", "db", "draw", "tools")
#: ...but for the players' stand-alone shuffle check, which knows each game's packs (module docstring)
KNOWS_THE_GAMES = ROOT / "tools" / "verify_shuffle.py"


def game_names() -> list[str]:
    """The games, found as the packages under ``games/`` (all but ``common``): a new game is
    covered without touching this test."""
    return sorted(p.name for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists() and p.name != "common")


def game_pattern(names: list[str]) -> re.Pattern[str]:
    """A game's name in any case, its letters joined or split anywhere by one space, ``_`` or
    ``-`` ("ohhell", "OhHell", "oh_hell", "Oh Hell", "shit-head")."""
    return re.compile("|".join("[ _-]?".join(map(re.escape, name)) for name in names), re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (prose, not code)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def names_of_games(path: Path, pattern: re.Pattern[str], names: list[str]) -> list[str]:
    """Each place in ``path``'s code that names a game: an import of a game's package, an
    identifier (name, attribute, argument, definition) or a string that spells one."""
    tree = parsed(path)
    prose = _docstrings(tree)
    packages = {f"{top}.{name}" for top in ("games", "cogs") for name in names}
    found: list[str] = []

    def hit(node: ast.AST, what: str) -> None:
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        found.append(f"{where}:{getattr(node, 'lineno', '?')}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for module in modules:
                if any(module == p or module.startswith(p + ".") for p in packages):
                    hit(node, f"imports {module}")
            words = [a.asname or a.name for a in node.names]
        elif isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.arg):
            words = [node.arg]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            words = [node.name]
        elif isinstance(node, ast.keyword):
            words = [node.arg or ""]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
            words = [node.value]
        else:
            continue
        for word in words:
            if pattern.search(word):
                hit(node, repr(word[:60]))
    return found


def test_the_game_names_are_found() -> None:
    names = game_names()
    assert names == ["ohhell", "shithead"]
    pattern = game_pattern(names)
    for spelled in ("ohhell", "OhHell", "oh_hell", "Oh Hell", "OH-HELL", "shithead", "Shit Head", "x_shithead_png"):
        assert pattern.search(spelled), spelled
    for other in ("oh, hell", "hello", "shield", "the head"):
        assert not pattern.search(other), other


def test_a_name_in_code_counts_and_one_in_prose_does_not(tmp_path: Path) -> None:
    names = game_names()
    pattern = game_pattern(names)
    probe = tmp_path / "probe.py"
    probe.write_text(
        '"""Oh Hell and Shithead in a docstring are prose."""\n'
        "# Oh Hell in a comment is prose\n"
        "from games.ohhell.decks import pack63\n"
        "import cogs.shithead\n"
        "def shithead_png(kind):\n"
        '    """Shithead\'s table."""\n'
        '    return kind.key == "shithead" or f"/{kind} new" == "Oh Hell"\n',
        encoding="utf-8",
    )
    found = names_of_games(probe, pattern, names)
    lines = sorted({int(f.split(":")[1]) for f in found})
    assert lines == [3, 4, 5, 7], found


def test_no_game_is_named_in_the_runtime_the_store_the_toolkit_or_the_tools() -> None:
    names = game_names()
    pattern = game_pattern(names)
    found = [
        place
        for package in NEUTRAL
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != KNOWS_THE_GAMES
        for place in names_of_games(path, pattern, names)
    ]
    assert not found, "a game named outside its own packages:\n" + "\n".join(found)


#: the browser code among the runtime's files: the local page's style sheets and scripts
BROWSER_CODE = ("*.css", "*.js")


def test_no_game_is_named_in_the_browser_code_the_runtime_serves() -> None:
    """The local page's style sheets and scripts (``bot/host/page/``) are files of their own, not
    Python strings the check above reads: each of their lines is searched, comments included, as
    it was while they were strings."""
    pattern = game_pattern(game_names())
    files = sorted(path for package in NEUTRAL for kind in BROWSER_CODE for path in (ROOT / package).rglob(kind))
    assert ROOT / "bot" / "host" / "page" / "cardtable.js" in files
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:60]!r}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, "a game named in the browser code:\n" + "\n".join(found)


def test_no_game_is_named_in_the_other_features() -> None:
    """The features every game shares (everything under ``cogs/`` but the games' own packages)
    ask the game's adapter too."""
    names = game_names()
    pattern = game_pattern(names)
    found = []
    for package in sorted(p for p in (ROOT / "cogs").iterdir() if p.is_dir() and p.name not in names):
        for path in sorted(package.rglob("*.py")):
            found += names_of_games(path, pattern, names)
    assert not found, "a game named in a shared feature:\n" + "\n".join(found)


def test_feature_packages_meet_only_through_the_runtime() -> None:
    """``cogs/<a>`` never imports ``cogs/<b>``: what two features share belongs in ``bot/``."""
    wrong = [
        f"{name} imports {target}"
        for name, targets in sorted(graph().items())
        if top(name) == "cogs" and name != "cogs"
        for target in sorted(targets)
        if top(target) == "cogs" and target != "cogs" and target.split(".")[1] != name.split(".")[1]
    ]
    assert not wrong, "\n".join(wrong)


def _is_a_kind(node: ast.expr) -> bool:
    """An expression the runtime holds a game's kind in: ``kind``, ``game_kind``, ``….kind``,
    ``kinds[…]``."""
    if isinstance(node, ast.Name):
        return node.id.endswith("kind") or node.id == "fresh"
    if isinstance(node, ast.Attribute):
        return node.attr == "kind"
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Attribute | ast.Name) and "kinds" in ast.unparse(node.value)
    return False


def test_every_member_of_the_game_contract_is_used() -> None:
    """A :class:`~bot.seam.contract.GameKind` member every game must define and nothing calls is
    dead weight on each new game: each is read somewhere other than its own definitions (the
    contract and the games' adapters, ``cogs/<game>/kind.py``)."""
    contract = ast.parse((ROOT / "bot" / "seam" / "contract.py").read_text(encoding="utf-8"))
    kind = next(n for n in ast.walk(contract) if isinstance(n, ast.ClassDef) and n.name == "GameKind")
    members: set[str] = set()
    for node in kind.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            members.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            members.add(node.target.id)
    members = {m for m in members if not m.startswith("_")}
    read: set[str] = set()
    for package in ("bot", "cogs", "games"):
        for path in (ROOT / package).rglob("*.py"):
            if path == ROOT / "bot" / "seam" / "contract.py":
                continue
            tree = parsed(path)
            read |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and _is_a_kind(n.value)}
            if path.name == "kind.py" and path.parent.parent.name == "cogs":  # a helper an adapter calls
                read |= {
                    n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and ast.unparse(n.value) == "self"
                }
    # the contract's own methods that call another member count as readers of it
    read |= {n.attr for f in kind.body if isinstance(f, ast.FunctionDef) for n in ast.walk(f)
             if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"}  # fmt: skip
    assert "panel" in members and "table" in members
    dead = sorted(members - read)
    assert not dead, f"GameKind members nothing reads: {dead}"


#: what a feature under ``cogs/`` may never write into: the runtime's objects and a game's kind
#: (a feature declares what it adds in its one registration, ``bot.features.add``, and
#: the runtime reads it from there)
RUNTIME_HANDLES = frozenset(
    {"bot", "client", "tables", "manager", "presenter", "watchers", "lent", "features", "tree", "kinds", "finish_hooks"}
)
#: the methods that change a list, dict or set in place
MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "__setitem__"})


def _chain(node: ast.expr) -> list[str]:
    """The names along ``a.b[c].d``: ``["a", "b", "d"]`` (a call or subscript is looked through)."""
    names: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        else:
            if isinstance(node, ast.Name):
                names.append(node.id)
            return names[::-1]


def _foreign(names: list[str]) -> bool:
    """Whether the object ``names`` leads to (``a.b.c``: the object ``a.b`` whose ``c`` is written)
    is the runtime's or a game's kind: reached through the bot, the table manager, the presenter…,
    or a kind (``kind``, ``game_kind``). An attribute of the module's own object (``self.bot = bot``)
    is its own."""
    owner = names[:-1]
    if owner[:1] == ["self"]:
        owner = owner[1:]
    return bool(owner) and (owner[0].endswith("kind") or any(n in RUNTIME_HANDLES for n in owner))


def _stored(target: ast.expr) -> list[ast.Attribute]:
    """The attributes an assignment's target writes (each of a tuple's; an item's container)."""
    if isinstance(target, ast.Attribute):
        return [target]
    if isinstance(target, ast.Subscript):  # ``a.b[k] = v`` writes into ``a.b``, an attribute of ``a``
        return _stored(target.value)
    if isinstance(target, ast.Tuple | ast.List):
        return [a for t in target.elts for a in _stored(t)]
    if isinstance(target, ast.Starred):
        return _stored(target.value)
    return []


def writes_into_the_runtime(source: str, where: str = "") -> list[str]:
    """Each place in ``source`` that writes an attribute of the runtime's objects or of a game's
    kind (an assignment, ``setattr``, or a list or dict of theirs changed in place)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        written: list[list[str]] = []
        if isinstance(node, ast.Assign):
            written = [_chain(a) for t in node.targets for a in _stored(t)]
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            written = [_chain(a) for a in _stored(node.target)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" and node.args:
            written = [[*_chain(node.args[0]), "?"]]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            written = [_chain(node.func.value)]  # the list (dict, set) changed is an attribute of its owner
        if any(_foreign(names) for names in written):
            found.append(f"{where}:{node.lineno}: {ast.unparse(node).splitlines()[0]}")
    return found


#: what an extension once called to add its own parts to the bot (its one registration,
#: ``bot.features.add``, declares them, and start-up adds them, games by key): a game's kind, a
#: command group (or any top-level command), dynamic items
DIRECT_ADDS = (["tables", "register"], ["tree", "add_command"], ["add_dynamic_items"])


def adds_to_the_bot_itself(source: str, where: str = "") -> list[str]:
    """Each call in ``source`` that adds to the bot around the one registration: registers a
    kind with the table manager, adds a command to the tree, or adds dynamic items."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            names = _chain(node.func)
            if any(names[-len(tail) :] == tail for tail in DIRECT_ADDS):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node).splitlines()[0]}")
    return found


def plugged_in() -> list[Path]:
    """Every module that plugs into the bot: those under ``cogs/`` and the test-only third game's
    (loaded through ``Settings.extra_games``)."""
    return sorted([*(ROOT / "cogs").rglob("*.py"), *(ROOT / "tests" / "thirdgame").rglob("*.py")])


def extension_packages() -> list[Path]:
    """Every extension package: each package under ``cogs/`` and the third game."""
    found = [p for p in (ROOT / "cogs").iterdir() if (p / "__init__.py").exists()]
    return sorted([*found, ROOT / "tests" / "thirdgame"])


def is_game(package: Path) -> bool:
    """A game's package has a ``kind`` module (its :class:`~bot.seam.contract.GameKind`)."""
    return (package / "kind.py").exists()


def feature_packages() -> list[Path]:
    """The packages under ``cogs/`` that are not games (a game's has a ``kind`` module)."""
    return sorted(p for p in (ROOT / "cogs").iterdir() if (p / "__init__.py").exists() and not is_game(p))


def test_the_old_ways_of_plugging_in_are_caught() -> None:
    """What the features did before they registered is each found by the check below."""
    old = [
        "bot.tables.presenter.lobby = render_lobby",
        "kind.lent.take_back = take_back_button",
        "kind.lent.finale = rematch_view",
        "presenter.watchers.render = lambda table: spectator_view(table, presenter.live_face(table))",
        "bot.tables.finish_hooks.append(cog.on_finished)",
        "kind.seat_note = cog.seat_note",
        "setattr(bot.tables, 'lobby', render_lobby)",
        "bot.tables.kinds[kind.key] = kind",
    ]
    for line in old:
        assert writes_into_the_runtime(line), line
    own = ["embed.description = text", "out.dropped.append(name)", "rows.append(row)", "bot.features.add(feature)"]
    for line in own:
        assert not writes_into_the_runtime(line), line


def test_the_old_ways_of_plugging_a_game_in_are_caught() -> None:
    """What the games did before they registered is each found by the check below."""
    old = [
        "bot.tables.register(kind)",
        "kind = bot.tables.register(HighCardKind())",
        "bot.tree.add_command(ohhell_group(kind))",
        "self.bot.tree.add_command(command)",
        "bot.add_dynamic_items(TableButton, PanelButton)",
    ]
    for line in old:
        assert adds_to_the_bot_itself(line), line
    own = [
        "bot.features.add(Game(kind, game_group(kind), items=(HandButton, CardButton)))",
        "group.add_command(command)",
        "self.register(name)",
        "await bot.add_cog(Lobby(bot))",
    ]
    for line in own:
        assert not adds_to_the_bot_itself(line), line


def test_no_feature_writes_into_the_runtime_or_a_game() -> None:
    """A module under ``cogs/`` (or the third game's) never sets an attribute of the runtime's
    objects or of a game's kind (nor changes their lists in place): what a feature adds goes in
    its one registration."""
    found = []
    for path in plugged_in():
        found += writes_into_the_runtime(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "a feature writes into another package's objects:\n" + "\n".join(found)


def test_no_game_or_feature_adds_to_the_bot_itself() -> None:
    """No module under ``cogs/`` (nor the third game's) registers a kind, adds a command to the
    tree or adds dynamic items: its one registration declares them, and start-up adds them in a
    fixed order, whatever order the extensions loaded in."""
    found = []
    for path in plugged_in():
        found += adds_to_the_bot_itself(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "an extension adds to the bot around bot.features.add:\n" + "\n".join(found)


def test_each_feature_and_each_game_registers_once() -> None:
    """Each extension package's ``setup()`` makes exactly one registration, ``bot.features.add``:
    a game's of a ``Game``, any other feature's of a ``Feature``."""
    assert [p.name for p in feature_packages()] == ["fairness", "lobby", "stats"]
    assert [p.name for p in extension_packages() if is_game(p)] == ["ohhell", "shithead", "thirdgame"]
    for package in extension_packages():
        tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
        adds = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and _chain(n.func)[-2:] == ["features", "add"]
        ]
        assert len(adds) == 1, f"{package.name} registers {len(adds)} times"
        made = adds[0].args[0] if adds[0].args else None
        wanted = "Game" if is_game(package) else "Feature"
        assert isinstance(made, ast.Call) and _chain(made.func) == [wanted], f"{package.name} registers no {wanted}"
