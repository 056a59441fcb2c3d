"""``baobei-conform``: the command line and its commands."""
