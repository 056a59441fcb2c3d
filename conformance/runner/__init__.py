"""Running compiled scenario steps against an engine and judging the outcome."""
