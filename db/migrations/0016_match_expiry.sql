-- A duplicate match whose other tables never came stayed open for ever unless its host closed it:
-- the tables that did play were held (unrated, their shuffles not checkable, no comparison). A
-- match now has a time by which its tables must have opened (written by the bot from its own
-- clock, MATCH_EXPIRY_DAYS after it was opened); past it, the bot closes it as its host would
-- (bot.match_expiry). The matches opened before this migration have none and stay as they were.
ALTER TABLE matches ADD COLUMN expires_at TEXT;
