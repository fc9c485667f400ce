-- Ratings (openskill Plackett-Luce over each finished game's places), per server, game and
-- season; 'all' is the all-time season every game counts in. A player is 'u:<user id>', a
-- computer 'ai:<level>' (one identity per level). Everything here is rebuilt from the stored
-- games and results (cogs/stats/book.py), so a new rating model never loses history.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,             -- 0 for games outside a server
    kind       TEXT    NOT NULL,
    season     TEXT    NOT NULL,             -- 'all', or e.g. '2026-11', '2026-Q4', '2026'
    identity   TEXT    NOT NULL,
    name       TEXT    NOT NULL,             -- the name last played under
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    last_game  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, kind, season, identity)
);

-- What each finished game did to each seat's all-time rating (the finale's "+12", the trend),
-- and the mark that a game is rated.
CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    identity      TEXT    NOT NULL,
    mu_before     REAL    NOT NULL,
    sigma_before  REAL    NOT NULL,
    mu_after      REAL    NOT NULL,
    sigma_after   REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_by_identity ON rating_changes (identity);

-- A server's settings for its leaderboards: the season length ('monthly', 'quarterly',
-- 'yearly' or 'none') and the games a player needs to be ranked.
CREATE TABLE guild_settings (
    guild_id   INTEGER NOT NULL PRIMARY KEY,
    season     TEXT    NOT NULL DEFAULT 'monthly',
    min_games  INTEGER NOT NULL DEFAULT 3
);

-- The coach's analysis of a finished game (cogs/stats/coach.py), kept so that asking again
-- costs nothing; ``version`` is games/ohhell/analysis.py's VERSION when it was made.
CREATE TABLE analyses (
    game_id     INTEGER NOT NULL PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    data        TEXT    NOT NULL
);
