"""Oh Hell: the engine (start at :mod:`games.ohhell.game`, whose docstring maps the modules), its
rules and decks, and the computer players (:mod:`games.ohhell.ai`)."""
