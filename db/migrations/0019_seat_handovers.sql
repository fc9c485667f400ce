-- A seat handed to another member mid-game (the seat's player, or the host for an absent
-- player, offers it; the member accepts): the seats row takes the new player, and this log keeps
-- who played the seat before, from which move on, so the history can name both. The ratings
-- count the game for the seat's final player (its results row).
CREATE TABLE seat_handovers (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    number     INTEGER NOT NULL,      -- 1 for the game's first hand-over
    seat       INTEGER NOT NULL,
    moves      INTEGER NOT NULL,      -- the game's recorded actions when the seat changed hands
    from_user  INTEGER NOT NULL,
    from_name  TEXT    NOT NULL,
    to_user    INTEGER NOT NULL,
    to_name    TEXT    NOT NULL,
    by_user    INTEGER NOT NULL,      -- who offered it: the seat's player, or the host
    PRIMARY KEY (game_id, number)
);
