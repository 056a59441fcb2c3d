"""baobei-conform: the scenario language (dsl/), running steps on an engine (runner/), the engine
protocol (protocol/), the harness, results, the HTML report (report/) and the command line."""


def __getattr__(name: str) -> str:
    """``__version__``, read from the installed metadata only when asked: engines started by the harness
    import this package too, and their start-up time counts against the handshake timeout."""
    if name != "__version__":
        raise AttributeError(name)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("baobei")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"
