"""The observable contract held against an engine's answers: ``observe`` records them, ``judge`` weighs them."""
