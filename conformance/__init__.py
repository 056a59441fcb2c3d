"""baobei-conform: the scenario language (dsl/), running steps on an engine (runner/), the engine
protocol (protocol/), the harness, results, the HTML report (report/) and the command line."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("baobei")
except PackageNotFoundError:  # run from a checkout that was never installed
    __version__ = "unknown"
