"""The live tables: the one path every move takes, seats, time, and who may see what."""
