-- A game's decks bound to a public drand round (bot.beacon): the round the game named, the round's
-- signature once fetched and verified (its randomness is the signature's SHA-256), why the game
-- has none when it has none (then it is labelled "commit–reveal only (no beacon)"), and the
-- public message that committed to the seed and named the round (its snowflake time is the proof
-- that the commitment came first). A duplicate match's tables share one outcome: the first table
-- whose round is settled (verified, or not come) writes it on the match, every table deals by it. Games stored before this have none of it (NULL: no beacon,
-- as before).
ALTER TABLE games ADD COLUMN beacon_round INTEGER;
ALTER TABLE games ADD COLUMN beacon_signature TEXT;
ALTER TABLE games ADD COLUMN beacon_note TEXT;
ALTER TABLE games ADD COLUMN beacon_message_id INTEGER;
ALTER TABLE matches ADD COLUMN beacon_round INTEGER;
ALTER TABLE matches ADD COLUMN beacon_message_id INTEGER;
ALTER TABLE matches ADD COLUMN beacon_signature TEXT;
ALTER TABLE matches ADD COLUMN beacon_note TEXT;
