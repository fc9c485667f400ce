-- A duplicate match's comparison is posted once: the call that sets compared_at posts it (its last
-- table ending, or its close), so two tables ending at the same moment, two closes at once, or a
-- close after every table has ended cannot post it twice. Matches already over were compared when
-- they ended (or were closed) and are marked so.
ALTER TABLE matches ADD COLUMN compared_at TEXT;
UPDATE matches SET compared_at = COALESCE(closed_at, created_at)
WHERE EXISTS (SELECT 1 FROM games g WHERE g.match_id = matches.id)
  AND ((SELECT COUNT(*) FROM games g WHERE g.match_id = matches.id) >= matches.tables OR matches.closed_at IS NOT NULL)
  AND NOT EXISTS (SELECT 1 FROM games g WHERE g.match_id = matches.id AND g.status NOT IN ('finished', 'cancelled'));
