-- A duplicate match whose other tables never come can be closed (its host or a server manager,
-- /<game> duplicate close): no table joins it after, and it is over once the tables that did open
-- are over, so their results count in ratings and profiles and their shuffles can be checked.
-- Until then a table whose match never filled stayed held (unrated, its replay and seed kept back).
ALTER TABLE matches ADD COLUMN closed_at TEXT;
