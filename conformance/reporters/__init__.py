"""The outputs of one run, each a listener of the run's events as pytest's reporters are: the console, the results
files (JSON, JUnit) and the HTML report, registered in one place (``listener.run_outputs``)."""
