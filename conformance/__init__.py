"""baobei-conform: the command line, and later the DSL, the engine protocol, the runner and reports."""
