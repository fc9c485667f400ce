-- The provable shuffle (issue 16; games/common/commitment.py). At the start a game stores the
-- SHA-256 commitment it shows and the salt that went into it (secret until the game is over,
-- like the seed); every deal stores its whole deck in the order it was dealt, so that anyone
-- can recompute the decks from the revealed seed and compare.
ALTER TABLE games ADD COLUMN commitment TEXT;  -- 64 hex digits; NULL for games started before
ALTER TABLE games ADD COLUMN salt TEXT;        -- 32 random bytes as 64 hex digits

CREATE TABLE deals (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    deal     INTEGER NOT NULL,                 -- 1, 2, ... (the engine's deal number)
    deck     TEXT    NOT NULL,                 -- JSON list of card codes, the first card dealt first
    PRIMARY KEY (game_id, deal)
);

-- Spectators (issue 16): a player lets people watching the table see their hand (off by default).
ALTER TABLE seats ADD COLUMN shows_hand INTEGER NOT NULL DEFAULT 0;

-- Duplicate matches (issue 16): two or more tables that play the same deck orders with the same
-- rules, seat for seat. The match holds the deal seed and salt every table shares (secret until
-- every table of the match is over); the first table to start fixes the rules and player count.
CREATE TABLE matches (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,
    code        TEXT    NOT NULL UNIQUE,       -- what the other tables join with
    guild_id    INTEGER,
    host_id     INTEGER NOT NULL,
    tables      INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    salt        TEXT    NOT NULL,
    rules       TEXT,                          -- JSON, fixed when the first table starts
    players     INTEGER,
    created_at  TEXT    NOT NULL
);
ALTER TABLE games ADD COLUMN match_id INTEGER REFERENCES matches (id);
