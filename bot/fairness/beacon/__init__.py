"""The public randomness beacon a game's decks are bound to: the League of Entropy's drand
``quicknet`` chain, a BLS12-381 signature every 3 s that nobody can predict and anyone can check.

A game commits to its seed in a public message and names a quicknet round a few seconds after
that message; its decks come from both the seed and that round's randomness, so neither the bot
(which cannot know the round in advance) nor the beacon (which never sees the seed) chooses them.

- :mod:`bot.fairness.beacon.chain`: the pinned chain (its key, genesis and period) and round times;
- :mod:`bot.fairness.beacon.verify`: a round's signature checked against the pinned key (no I/O);
- :mod:`bot.fairness.beacon.relay`: fetching one round from public relays, in turn, in bounded time;
- :mod:`bot.fairness.beacon.binding`: which round a game names, the wait for it, and the label when none
  came.
"""
