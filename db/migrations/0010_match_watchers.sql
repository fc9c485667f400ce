-- Who has watched a table of a duplicate match (issue 22, item 7): a member who saw a table's
-- cards (Watch shows a finished deal's hands) may not then sit at another table of the same
-- match, which deals those very cards. Kept in the store, so a restart or another shard knows.
CREATE TABLE match_watchers (
    match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
    user_id   INTEGER NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
