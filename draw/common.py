"""Formatting shared by every game's messages."""

from __future__ import annotations

import discord

from locales import N_, _, translate

COLOR = discord.Color.dark_green()

TIMER_CHOICES: dict[str, int | None] = {
    "off": None,
    "30s": 30,
    "1m": 60,
    "2m": 120,
    "5m": 300,
    "15m": 900,
    "1h": 3600,
    "8h": 8 * 3600,
    "1d": 86400,
}


#: a computer player's level (the seat record's ``ai_level``) as players read it
LEVEL_WORDS = {"random": N_("random"), "quick": N_("quick"), "strong": N_("strong")}


def level_word(level: str) -> str:
    """A computer's level in the language spoken now (a level without a word stays as it is)."""
    word = LEVEL_WORDS.get(level)
    return translate(word) if word else level


def computer_name(number: int, level: str) -> str:
    """A computer seat's name, "Computer 1 (strong)", in the language spoken now."""
    return _("Computer {number} ({level})", number=number, level=level_word(level))


def timer_label(seconds: int | None) -> str:
    if not seconds:
        return _("off")
    for label, value in TIMER_CHOICES.items():
        if value == seconds:
            return _("{time} a turn", time=label)
    return _("{seconds} s a turn", seconds=seconds)


def parse_timer(text: str) -> int | None:
    """``off``, ``90``, ``90s``, ``2m``, ``1h``, ``1d`` → seconds (10 s up to a day)."""
    raw = text.strip().lower()
    if raw in ("off", "none", "0", ""):
        return None
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    number, unit = (raw[:-1], raw[-1]) if raw[-1] in units else (raw, "s")
    try:
        seconds = int(float(number) * units[unit])
    except (ValueError, OverflowError):  # not a number, NaN, or 1e309 (infinity)
        raise ValueError(_("Give the turn timer as off, or a time such as 45s, 2m, 1h or 1d.")) from None
    if not 10 <= seconds <= 86400:
        raise ValueError(_("The turn timer must be between 10 seconds and a day (or off)."))
    return seconds


def ordinal(n: int) -> str:
    """ "1st", "2nd", "11th" (German "1.", Spanish "1.º"): English picks the suffix, each language
    writes its own form of it."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    if suffix == "st":
        return _("{n}st", n=n)
    if suffix == "nd":
        return _("{n}nd", n=n)
    if suffix == "rd":
        return _("{n}rd", n=n)
    return _("{n}th", n=n)


def game_place(client: discord.Client | None, game_id: int, guild_id: int | None, channel_id: int) -> str:
    """ "Game #4 in #cards on **Card Club**", the channel a link to it. A DM names both by name:
    a ``<#id>`` mention shows as raw digits where the reader's client has not loaded that server,
    and a hand must say which of several games it belongs to."""
    channel = client.get_channel(channel_id) if client is not None else None
    guild = client.get_guild(guild_id or 0) if client is not None else None
    name = getattr(channel, "name", None)
    shown = f"#{name}" if name else _("the game's channel")
    link = f"https://discord.com/channels/{guild_id}/{channel_id}" if guild_id else None
    place = f"[{shown}]({link})" if link else shown
    if guild is not None:
        return _("Game #{id} in {place} on **{server}**", id=game_id, place=place, server=guild.name)
    return _("Game #{id} in {place}", id=game_id, place=place)


def a_or_an(word: str) -> str:
    """The article before ``word`` as it is said: "an 8-card play-off", "an 11-card", "a 5-card",
    "an Oh Hell table"."""
    spoken = word.lower()
    vowel = spoken[:1] in "aeio" or spoken.startswith(("8", "11", "18")) and not spoken.startswith(("111", "181"))
    return "an" if vowel and not spoken.startswith("one") else "a"
