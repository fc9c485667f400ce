-- Players' open private panels kept across a stop (issue 14): a restarted bot edits them through
-- the saved interaction tokens (valid 15 minutes after the click that made them) instead of
-- asking everyone to press My hand again.
CREATE TABLE panels (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat            INTEGER NOT NULL,
    application_id  INTEGER NOT NULL,
    token           TEXT    NOT NULL,
    message_id      INTEGER NOT NULL,      -- the panel's message, edited through that token
    opened          REAL    NOT NULL,      -- wall-clock seconds of the click that made it
    PRIMARY KEY (game_id, seat)
);
