-- Which process runs each shard. A process claims its shards' leases when it starts, renews them
-- while it runs and deletes them when it stops; a lease whose holder stopped renewing (the process
-- died) may be taken over once it has expired. Two processes can so never drive one guild's games.
CREATE TABLE shard_leases (
    shard        INTEGER NOT NULL PRIMARY KEY,  -- 0 .. shard_count - 1 (unsharded: shard 0 of 1)
    shard_count  INTEGER NOT NULL,              -- the count the holder shards guilds by
    holder       TEXT    NOT NULL,              -- host:pid:random of the process holding it
    expires_at   REAL    NOT NULL               -- POSIX seconds on the database's own clock
);
