"""The message budget (draw/budget.py) held to a checker it did not write: SimCord's own model of
Discord's embed limits (``simcord.components.validate_embeds``), over any sequence of parts of
any length. What is shown is always whole lines, in order, with a tail saying how many were left
out; nothing offered is lost from the transcript."""

from __future__ import annotations

import re

import discord
from hypothesis import given, settings
from hypothesis import strategies as st
from simcord.components import validate_embeds

from draw.budget import FIELD_VALUE, TOTAL, Budget, fit, fit_lines, shorten, within

# names and lines as players make them: letters, spaces, card symbols, emoji outside the BMP
TEXT = st.text(alphabet=st.sampled_from("ab Zé9♠♥🃏-:"), min_size=1, max_size=300).filter(lambda t: t.strip() != "")
LINES = st.lists(TEXT, min_size=0, max_size=40)

Op = tuple[str, str, list[str], bool]
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("embed"), TEXT, LINES, st.booleans()),
        st.tuples(st.just("field"), TEXT, LINES, st.booleans()),
        st.tuples(st.just("fields"), TEXT, st.lists(TEXT, max_size=120), st.booleans()),
        st.tuples(st.just("footer"), TEXT, st.just([]), st.booleans()),
        st.tuples(st.just("author"), TEXT, st.just([]), st.booleans()),
    ),
    min_size=1,
    max_size=60,
)
TAIL = re.compile(r"^… and (\d+) more$")


def check_shown(value: str, lines: list[str], shown: int, last: bool = False) -> None:
    """``value`` is the first ``shown`` lines whole (the last ones with ``last``), and the tail
    naming how many were left out after them (before them); when not even one line fitted with
    the tail, that line shortened."""
    if shown == len(lines):
        assert value == "\n".join(lines)
        return
    got = value.split("\n")
    end = got[0] if last else got[-1]
    match = TAIL.match(end)
    assert match is not None, end
    assert int(match[1]) == len(lines) - shown
    joined = "\n".join(got[1:] if last else got[:-1])
    kept = lines[len(lines) - shown :] if last else lines[:shown]
    one = kept[0]
    assert shown >= 1
    assert joined == "\n".join(kept) or (shown == 1 and joined.endswith("…") and one.startswith(joined[:-1].rstrip()))


@settings(max_examples=300, deadline=None)
@given(OPS)
def test_any_message_built_through_the_budget_holds_every_discord_limit(ops: list[Op]) -> None:
    budget = Budget()
    offered: list[str] = []
    for op, text, lines, last in ops:
        if op == "embed" or not budget.embeds:
            if len(budget.embeds) == 10:
                continue
            embed = budget.embed(title=text, description="\n".join(lines) or None)
            offered += [text, *lines]
            continue
        embed = budget.embeds[-1]
        if op == "field":
            before = len(embed.fields)
            shown = budget.field(embed, text, lines, last=last)
            offered += [text, *lines]
            if shown:
                added = embed.fields[-1]
                assert len(embed.fields) == before + 1
                check_shown(added.value or "", lines or ["—"], shown, last)
            else:
                assert len(embed.fields) == before and budget.cut
        elif op == "fields":
            before = len(embed.fields)
            shown = budget.fields(embed, text, lines)
            offered += [text, *lines]
            values = [f.value or "" for f in embed.fields[before:]]
            assert shown <= len(lines)
            if shown == len(lines) and not budget.cut:
                assert "\n".join(values) == ("\n".join(lines) or "—")
            elif values:  # whole lines in order; the last field says how many were left out
                got = "\n".join(values).split("\n")
                if shown < len(lines):
                    match = TAIL.match(got[-1])
                    assert match is not None and int(match[1]) == len(lines) - shown, got[-1]
                    got = got[:-1]
                assert len(got) == shown
                pairs = zip(got, lines[:shown], strict=True)
                assert all(a == b or (a.endswith("…") and b.startswith(a[:-1].rstrip())) for a, b in pairs)
        elif op == "footer":
            if embed.footer.text:  # a second footer replaces the first: one each
                continue
            budget.footer(embed, text)
            offered.append(text)
        else:
            if embed.author.name:
                continue
            budget.author(embed, text)
            offered.append(text)
    payload = [e.to_dict() for e in budget.embeds]
    validate_embeds(payload)  # SimCord's model of Discord's limits: raises on any breach
    assert within(budget.embeds)
    assert sum(len(e) for e in budget.embeds) <= TOTAL
    transcript = budget.transcript()
    assert all(part in transcript for part in offered)
    if not budget.cut:  # nothing was left out: every text offered is shown as it was
        shown_text = "\n".join(
            [e.title or "" for e in budget.embeds]
            + [e.description or "" for e in budget.embeds]
            + [f"{f.name}\n{f.value}" for e in budget.embeds for f in e.fields]
            + [e.footer.text or "" for e in budget.embeds]
            + [e.author.name or "" for e in budget.embeds]
        )
        assert all(part in shown_text for part in offered)


@settings(max_examples=300, deadline=None)
@given(LINES.filter(bool), st.integers(min_value=1, max_value=2 * FIELD_VALUE), st.booleans())
def test_fit_lines_keeps_whole_lines_in_order_within_the_limit(lines: list[str], limit: int, last: bool) -> None:
    text, shown = fit_lines(lines, limit, last=last)
    assert len(text) <= limit
    assert 1 <= shown <= len(lines)
    if len("\n".join(lines)) <= limit:
        assert (text, shown) == ("\n".join(lines), len(lines))
    elif limit >= 40:  # room for a line's start and the tail: the count is said
        check_shown(text, lines, shown, last)


@given(TEXT, st.integers(min_value=0, max_value=400))
def test_shorten_marks_the_cut(text: str, limit: int) -> None:
    out = shorten(text, limit)
    assert len(out) <= limit
    assert out == text or out.endswith("…") or out == ""


LONG = st.text(alphabet=st.sampled_from("ab Z9♠🃏\n"), min_size=1, max_size=1500).filter(lambda t: t.strip() != "")


@settings(max_examples=200, deadline=None)
@given(LONG, st.lists(st.tuples(LONG, LONG), max_size=30), st.one_of(st.none(), LONG))
def test_fit_brings_any_embed_within_the_limits(description: str, fields: list[tuple[str, str]], footer) -> None:
    """An embed filled by code that took no budget (a game's replay hands), fitted after."""
    embed = discord.Embed(title=description[:300], description=description * 3)
    for name, value in fields:
        embed.add_field(name=name, value=value, inline=False)
    if footer:
        embed.set_footer(text=footer * 2)
    was = within([embed])
    cut = fit(embed)
    validate_embeds([embed.to_dict()])
    assert within([embed]) and (cut or was)
