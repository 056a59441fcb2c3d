"""What the tool reads from its user and writes for them: inputs read one way, outputs whole or absent."""
