-- Which deal generator (games/common/rng.py) shuffled the game: 1 = random.Random(seed), the
-- only one before this migration, so every game stored so far is version 1.
ALTER TABLE games ADD COLUMN rng_version INTEGER NOT NULL DEFAULT 1;
