"""The HTML traceability report: ``baobei-conform report [RESULTS.json ...] [--out DIR]``.

    >>> from baobei_conform.report import build_report
    >>> index = build_report("baobei-report", ["ref.json", "mine.json"])  # doctest: +SKIP

Several results files are shown side by side (one column per engine); with none, the suite is run on the
reference in process. The pages are static and self-contained (open ``index.html`` from disk).
"""

from baobei_conform.report.build import build_report, write_report
from baobei_conform.report.model import Report, ReportError, collect

__all__ = ["Report", "ReportError", "build_report", "collect", "report_main", "write_report"]


def report_main(argv: list[str] | None = None) -> int:
    """``baobei-conform report [RESULTS.json ...] [--out DIR]``; see :mod:`baobei_conform.report.cli`."""
    from baobei_conform.report.cli import report_main as main  # imported late: ``python -m ...report.cli`` works

    return main(argv)
