"""baobei-conform: the scenario language (dsl/), running steps on an engine (runner/), the engine
protocol (protocol/), the harness, results, the HTML report (report/) and the command line."""
