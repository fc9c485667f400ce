-- Which deal the table message shows, so a restart can tell whether the current deal's table
-- was posted before the bot stopped (and post it if not).
ALTER TABLE games ADD COLUMN message_key TEXT;
