"""One conformance run and what it gives: the results document, its files (JSON, JUnit), shards merged."""
