"""Running a selection of scenarios on an engine: which engine, its workers, restarts, known failures."""
