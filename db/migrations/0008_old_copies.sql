-- Old copies of a table still to lose their controls (issue 13): a deal's table once the next is
-- posted, or a copy /<game> table replaced. The display closes them; if the bot stops first, a
-- restart reads them here and finishes the job, so no old copy keeps live buttons.
CREATE TABLE old_copies (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    message_id  INTEGER NOT NULL,
    look        TEXT    NOT NULL,             -- JSON {"content": ..., "embeds": [...]}: how it ends
    after_post  INTEGER NOT NULL DEFAULT 0,   -- 1: close it only once the new copy is up
    PRIMARY KEY (game_id, message_id)
);
