-- A duplicate match's tables are read by match (every table's end, every door of a match's table,
-- the ratings' settled condition, the start's look for comparisons never posted): without an index
-- each read went through every game ever played (bench/store_matches.py).
CREATE INDEX games_by_match ON games (match_id);
