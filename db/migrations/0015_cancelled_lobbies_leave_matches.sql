-- A lobby of a duplicate match cancelled before it started kept the match's place and counted as
-- one of its tables: nobody else could open that table, and the match was over, with an empty
-- table in its comparison, once the others had played. A lobby cancelled now leaves its match
-- (db.store.Store.end_game); those cancelled before leave it here.
UPDATE games SET match_id = NULL WHERE status = 'cancelled' AND seed IS NULL AND match_id IS NOT NULL;
