-- Whether a finished game's final standings reached its channel (issue 13): a restart posts the
-- ones that did not. Games finished before this migration are taken as shown.
ALTER TABLE games ADD COLUMN finale_shown INTEGER NOT NULL DEFAULT 0;
UPDATE games SET finale_shown = 1 WHERE status = 'finished';
