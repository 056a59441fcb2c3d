"""The scenarios as a suite: scenario files loaded and cached, the steps each reading runs, the suite's
identity, an engine's known failures. Never the reference: what a scenario expects comes from the spec."""
