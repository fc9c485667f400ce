"""What a game or a feature plugs into the runtime: the game contract and the feature registry."""
