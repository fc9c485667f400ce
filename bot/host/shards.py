"""Which shard a guild belongs to: Discord's own rule, so a process runs the games of exactly the
guilds its gateway shards deliver."""

from __future__ import annotations


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """``(guild_id >> 22) % shard_count``; games outside a guild (DMs, the local mode) are shard 0's,
    as Discord delivers every direct message on shard 0."""
    if guild_id is None or shard_count <= 1:
        return 0
    return (guild_id >> 22) % shard_count
