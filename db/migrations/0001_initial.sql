-- Games of any kind, their seats, every accepted action, and what each game ended with.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY,
    kind             TEXT    NOT NULL,               -- 'ohhell' | 'shithead'
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    host_id          INTEGER NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    preset           TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',  -- JSON: the host's overrides of the preset
    rules            TEXT,                           -- JSON: the engine's rules, frozen at the start
    seed             INTEGER,
    turn_seconds     INTEGER,                        -- turn timer; NULL = off
    message_id       INTEGER,                        -- the lobby message, then the current table message
    created_at       TEXT    NOT NULL,
    started_at       TEXT,
    finished_at      TEXT
);
-- One live game per channel, enforced by the database so two hosts racing cannot both win.
CREATE UNIQUE INDEX games_one_live_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'playing');

CREATE TABLE seats (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    user_id    INTEGER,                  -- NULL for a computer player
    name       TEXT    NOT NULL,
    ai_level   TEXT,                     -- NULL: a person plays; else the computer's level
    dm_closed  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,        -- 0, 1, 2... : the engine's log order
    seat        INTEGER NOT NULL,
    action      TEXT    NOT NULL,        -- JSON action as the engine takes it
    by_ai       INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE deal_scores (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    deal     INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    bid      INTEGER,
    tricks   INTEGER,
    delta    INTEGER NOT NULL,
    total    INTEGER NOT NULL,
    PRIMARY KEY (game_id, deal, seat)
);

CREATE TABLE results (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user_id  INTEGER,
    name     TEXT    NOT NULL,
    place    INTEGER NOT NULL,           -- 1 = best; shared only when a tie stood
    total    INTEGER,                    -- final score (Oh Hell); NULL for Shithead
    is_loser INTEGER NOT NULL DEFAULT 0, -- the shithead
    stats    TEXT    NOT NULL DEFAULT '{}', -- JSON: tie-breaker counts and other figures
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_by_user ON results (user_id);

-- Turn deadlines: stored so a restart keeps each player's remaining time.
CREATE TABLE timers (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,          -- the action count the deadline belongs to
    deadline  REAL    NOT NULL,          -- POSIX seconds (from discord.utils.utcnow())
    reminded  INTEGER NOT NULL DEFAULT 0
);
