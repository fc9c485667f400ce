"""The README stays a page a newcomer reads in five minutes, and the documents' links lead somewhere.

Why: the README once grew to 770 lines, most of it a diary of measurements; what it does not hold
lives in ``docs/`` and is reached by links, so a link to a moved or renamed file or heading is
a dead end for the reader.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MAX_README_LINES = 200
#: ``[text](target)`` and ``![alt](target)``; a target may carry a "title"
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)


def _documents() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "logs" / "README.md"]


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, re.M)}


def _links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans are not links
    return LINK.findall(text)


def test_the_readme_is_at_most_two_hundred_lines() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"{len(lines)} lines: move the detail to docs/"


def test_the_readme_keeps_its_heading_for_the_shuffle_check() -> None:
    assert "### Checking a shuffle yourself" in README.read_text(encoding="utf-8").splitlines()


def test_every_relative_link_and_image_in_the_readme_and_docs_points_at_what_exists() -> None:
    dead = []
    for doc in _documents():
        for target in _links(doc):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            where = (doc.parent / file_part).resolve() if file_part else doc
            name = f"{doc.relative_to(ROOT)}: {target}"
            if not where.exists():
                dead.append(f"{name} (no such file)")
            elif anchor and where.suffix == ".md" and anchor not in _anchors(where):
                dead.append(f"{name} (no such heading)")
    assert dead == []


def test_the_link_reader_finds_links_images_and_anchors_and_skips_code() -> None:
    doc = ROOT / "docs" / "rules.md"
    links = _links(doc)
    assert any(t.endswith(".png") for t in links), "images are read"
    sample = "see [a](x.md#b-c) and ![p](i.png) but not `[c](d.md)`\n```\n[e](f.md)\n```\n"
    text = FENCE.sub("", sample)
    text = re.sub(r"`[^`\n]*`", "", text)
    assert LINK.findall(text) == ["x.md#b-c", "i.png"]
    assert _slug("Clicks and REST calls a move") == "clicks-and-rest-calls-a-move"
    assert _slug("Presets and options: `/ohhell set`") == "presets-and-options-ohhell-set"


def test_the_options_reference_names_every_option_and_preset_of_both_games() -> None:
    """docs/rules.md's tables are the games' own lists: a new option or preset must be written there."""
    from games.ohhell.options import OPTIONS as OHHELL_OPTIONS
    from games.ohhell.presets import PRESETS as OHHELL_PRESETS
    from games.shithead import rules as shithead

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    names = [*OHHELL_OPTIONS, *OHHELL_PRESETS, *(o.name for o in shithead.OPTIONS), *shithead.PRESETS]
    missing = [name for name in names if f"`{name}`" not in text]
    assert missing == []
    for option in OHHELL_OPTIONS.values():
        assert option.help in text, option.name
    for sh_option in shithead.OPTIONS:
        assert sh_option.help in text, sh_option.name
