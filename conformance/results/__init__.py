"""One conformance run and what it gives: the results document, its files (JSON, JUnit), shards merged,
and the outputs that listen to the run (the console, the results files, the report)."""
