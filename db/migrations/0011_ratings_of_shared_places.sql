-- Shared places are rated as the mean of the strict orders they stand for (cogs/stats/ratings.py):
-- openskill's own handling of ties let a player placed below a shared place gain more than those
-- sharing it. The ratings are worked out again from the stored games: with no rating changes
-- left, the rating book rates every finished game in finishing order when it is next read (the
-- bot's start, a game's finale, a leaderboard, a profile), as /cardadmin's rebuild would.
DELETE FROM rating_changes;
DELETE FROM ratings;
