-- Turn pings (play-by-post): a table may ping a player it waits on who is not looking, after a
-- delay it sets. The ping rides on the turn's stored timer, so a restart still sends it once:
-- ping_at is when it is due (NULL: the table pings nobody), pinged whether it went out. A table
-- with pings but no turn timer has a timer row with no deadline, so deadline may now be NULL;
-- SQLite cannot drop a NOT NULL, so the table is built again with the rows it held.
CREATE TABLE timers_0017 (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,          -- the action count the timer belongs to
    deadline  REAL,                      -- POSIX seconds when the turn runs out; NULL: no turn timer
    reminded  INTEGER NOT NULL DEFAULT 0,
    ping_at   REAL,                      -- POSIX seconds when a player not looking is pinged; NULL: never
    pinged    INTEGER NOT NULL DEFAULT 0
);
INSERT INTO timers_0017 (game_id, seq, deadline, reminded) SELECT game_id, seq, deadline, reminded FROM timers;
DROP TABLE timers;
ALTER TABLE timers_0017 RENAME TO timers;

-- The members who turned turn pings off for themselves (every table, every game).
CREATE TABLE ping_optouts (
    user_id   INTEGER PRIMARY KEY
);
