"""An engine and what it answers: the one engine interface, the reference as an engine in process, the
protocol's commands, and an engine's replies and text made safe to read."""
