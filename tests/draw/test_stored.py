"""Pictures kept on disk between starts (draw.stored): the very bytes drawn, read back only for
the same inputs, and drawn as before where the folder cannot be used."""

from __future__ import annotations

from pathlib import Path

import pytest

from draw import emojis, faces, stored


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CARDTABLE_CACHE", str(tmp_path / "kept"))
    return tmp_path / "kept"


def test_a_picture_is_made_once_then_read_back_as_made(folder: Path) -> None:
    made: list[int] = []

    def make() -> bytes:
        made.append(1)
        return b"picture %d" % len(made)

    assert stored.kept("thing", "ct_AS", make) == b"picture 1"
    assert stored.kept("thing", "ct_AS", make) == b"picture 1"
    assert len(made) == 1
    assert [p.name for p in folder.rglob("*") if p.is_file()] == ["ct_AS.bin"]  # no temporary left


@pytest.mark.parametrize(("code", "four"), [("AS", False), ("10C", True), ("suit:D", True), ("?", False), ("X", False)])
def test_kept_emojis_and_faces_are_the_bytes_drawn_now(folder: Path, code: str, four: bool) -> None:
    name = emojis.emoji_name(code, four) + ("_four" if four else "")
    drawn = emojis._draw_emoji_png(code, four)
    assert stored.kept("emoji", name, lambda: drawn, faces.FONT_FILES) == drawn  # written
    assert stored.kept("emoji", name, lambda: b"", faces.FONT_FILES) == drawn  # read back
    if not code.startswith(emojis.SUIT) and code != "?":
        face = faces._draw_card_face(code, four)
        data = stored.kept("face", code + ("_four" if four else ""), face.tobytes, faces.FONT_FILES)
        assert (
            stored.kept("face", code + ("_four" if four else ""), lambda: b"", faces.FONT_FILES)
            == data
            == face.tobytes()
        )
    # what the bot uses reads that folder: the same bytes
    assert emojis.emoji_png.__wrapped__(code, four) == drawn
    if not code.startswith(emojis.SUIT):
        assert faces.card_face.__wrapped__(code, four).tobytes() == faces.card_face(code, four).tobytes()


def test_changed_drawing_code_or_font_names_another_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source, font = tmp_path / "faces.py", tmp_path / "font.ttf"
    source.write_text("one way to draw")
    monkeypatch.setattr(stored, "SOURCES", (source,))
    stored.inputs_key.cache_clear()
    try:
        before = stored.inputs_key((str(font),))
        source.write_text("another way to draw")
        stored.inputs_key.cache_clear()
        after = stored.inputs_key((str(font),))
        font.write_bytes(b"a font installed")
        stored.inputs_key.cache_clear()
        assert len({before, after, stored.inputs_key((str(font),))}) == 3
    finally:
        monkeypatch.undo()
        stored.inputs_key.cache_clear()


def test_a_folder_that_cannot_be_used_means_drawing_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CARDTABLE_CACHE", str(blocker))
    assert stored.kept("emoji", "ct_AS", lambda: b"drawn") == b"drawn"
    assert stored.kept("emoji", "ct_AS", lambda: b"drawn again") == b"drawn again"
    assert stored.kept("emoji", "../out", lambda: b"never a path") == b"never a path"
    assert not (tmp_path / "out.bin").exists()
