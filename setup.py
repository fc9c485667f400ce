"""The build's one step beyond pyproject.toml: the engine's inner loops compiled to C.

mypyc (part of mypy) compiles the modules in ``COMPILED`` from their unchanged source; each is a
plain Python module that runs as it is where no compiler is at hand. So the extensions are
optional: a failed build leaves the pure-Python modules in use (``games/compiled.py`` says which
copy is loaded, and loads a compiled copy only when it was built from the source beside it).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: the modules compiled where a C compiler is at hand (games.compiled.COMPILED lists the same)
COMPILED = ["games/common/shuffle_loops.py", "games/ohhell/fast_loops.py", "games/ohhell/ai/sim.py"]


class BuildExtStamped(build_ext):
    """``build_ext`` that writes, beside each compiled module it has just built, the SHA-256 of
    the source it was built from (``<module>.built``): the loader's proof that the copy is
    current. An editable install (``pip install -e .``) builds elsewhere and copies the module
    into the tree: the tree's stamp is removed first and written only once the new copy is there,
    so a failed build leaves an older copy unstamped (the loader then runs the source)."""

    def run(self) -> None:
        self._stamped: dict[str, str] = {}
        if self.inplace:
            build_py = self.get_finalized_command("build_py")
            for ext in self.extensions:
                if _source(ext) is not None:
                    _stamp_path(self._get_inplace_equivalent(build_py, ext)[0], ext).unlink(missing_ok=True)
        super().run()

    def build_extension(self, ext: Extension) -> None:
        super().build_extension(ext)
        source = _source(ext)
        if source is not None:
            self._stamped[ext.name] = digest = hashlib.sha256(source.read_bytes()).hexdigest()
            _stamp_path(self.get_ext_fullpath(ext.name), ext).write_text(digest + "\n")

    def copy_extensions_to_source(self) -> None:
        super().copy_extensions_to_source()
        build_py = self.get_finalized_command("build_py")
        for ext in self.extensions:
            digest = self._stamped.get(ext.name)
            if digest is not None:
                _stamp_path(self._get_inplace_equivalent(build_py, ext)[0], ext).write_text(digest + "\n")


def _source(ext: Extension) -> Path | None:
    """The source of ``ext`` when it is one of ``COMPILED`` (mypyc adds a shared part too)."""
    path = ext.name.replace(".", "/") + ".py"
    return Path(path) if path in COMPILED else None


def _stamp_path(compiled: str, ext: Extension) -> Path:
    return Path(compiled).with_name(ext.name.rpartition(".")[2] + ".built")


def extensions() -> list[Extension]:
    try:
        from mypyc.build import mypycify
    except ImportError:  # no mypy in the build environment: pure Python
        return []
    try:
        modules = mypycify(COMPILED, opt_level="3")
    except (Exception, SystemExit) as error:  # mypyc exits on a type error: that must not fail the install
        print(f"games: the inner loops stay pure Python ({error!r})")
        return []
    for module in modules:
        module.optional = True  # no C compiler: build_ext warns and goes on
    return modules


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExtStamped})
