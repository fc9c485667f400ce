"""Pictures that come out the same on every start, kept on disk between starts.

The local mode (``python -m bot.host.local``) gives its page the picture of every card emoji at each
start: drawing them and compressing them as small PNGs (``optimize=True``) cost about a second of
every start. The bytes depend only on the drawing code, the fonts and the libraries that draw and
compress them, so they are kept in a folder named by a hash of all of those: a changed source
file, font, Pillow, FreeType or zlib names another folder, and the pictures are drawn afresh.
What is read back is the very bytes that were drawn.

The folder is ``$CARDTABLE_CACHE`` or ``$XDG_CACHE_HOME/cardtable`` (``~/.cache/cardtable``); where
it cannot be read or written the pictures are simply drawn, as before.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path

import PIL
from PIL import features

HERE = Path(__file__).resolve().parent
#: the sources whose code draws the pictures kept here
SOURCES = (HERE / "faces.py", HERE / "emojis.py", HERE / "stored.py", HERE.parent / "games" / "common" / "cards.py")


def folder() -> Path:
    """Where the kept pictures live (see the module's docstring)."""
    chosen = os.environ.get("CARDTABLE_CACHE")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cardtable"


@cache
def inputs_key(files: tuple[str, ...] = ()) -> str:
    """A hash of everything the pictures are made from but their arguments: the drawing sources,
    the ``files`` they read (the fonts that would be used: path, size and time of change), and
    the versions of Pillow, FreeType and zlib (the compressed bytes depend on zlib's)."""
    digest = hashlib.sha256()
    for source in SOURCES:
        digest.update(source.read_bytes())
    for path in sorted(files):
        try:
            stat = os.stat(path)
        except OSError:
            digest.update(f"{path}: none".encode())
        else:
            digest.update(f"{path}: {stat.st_size} {stat.st_mtime_ns}".encode())
    versions = (PIL.__version__, features.version("freetype2"), zlib.ZLIB_RUNTIME_VERSION)
    digest.update(repr(versions).encode())
    return digest.hexdigest()[:24]


def kept(kind: str, name: str, make: Callable[[], bytes], files: tuple[str, ...] = ()) -> bytes:
    """``make()``'s bytes, read from the folder when a start before this one made them with the
    same inputs (:func:`inputs_key`, ``files``: those ``make`` reads), else made now and written
    there for the next start. ``name`` says which picture of ``kind`` it is (a file name:
    letters, digits, ``_``)."""
    if not re.fullmatch(r"\w+", name):
        return make()  # never a name that could lead out of the folder
    try:
        where = folder()
    except RuntimeError:  # no home folder to be found (Path.home())
        return make()
    path = where / f"{kind}-{inputs_key(files)}" / f"{name}.bin"
    try:
        return path.read_bytes()
    except OSError:
        pass
    data = make()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # written whole under another name, then renamed: a reader never sees half a file
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{name}-", delete=False) as out:
            out.write(data)
        os.replace(out.name, path)
    except OSError:
        pass  # a folder we may not write: drawn again next start, nothing lost
    return data
