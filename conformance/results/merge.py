"""Shards of one run (``--shard K/N`` in a CI matrix) merged into one results document: one result, one
report. ``baobei-conform merge SHARD.json ... --json ALL.json``; ``baobei-conform report`` merges them too.

Each shard was validated against the results schema when it was read (report/model.py ``load_results``);
here they must also belong together: one engine, one protocol version, one suite (suite/identity.py), one agreement
setting (``run.agreement``: a shard held to the reference's every step and one judged by its rules alone are
not one verdict), distinct shards of one N, each scenario once."""

from __future__ import annotations

from collections import Counter

from baobei_conform.results.document import RESULTS_SCHEMA, agreement, tally


class MergeError(Exception):
    """Documents that are not shards of one run on one engine."""


def _shard(document: dict, source: str) -> tuple[int, int] | None:
    """(K, N) of a shard's ``run.shard`` (the schema made it K/N), None for a whole run."""
    text = document["run"].get("shard")
    if not text:
        return None
    k, n = (int(x) for x in text.split("/"))
    if k > n:
        raise MergeError(f"{source}: run.shard {text!r}: K is at most N")
    return k, n


def _suite(document: dict) -> str:
    suite = document.get("suite") or {}
    return (f"suite {suite.get('version')} (scenarios {suite.get('scenarios')}, spec {suite.get('spec')}, "
            f"contract {suite.get('contract')})")


def _same_run(document: dict, source: str, first: dict, first_source: str) -> None:
    """The shard was run on the same protocol version and suite as the first one."""
    protocol, expected = (d.get("run", {}).get("protocol") for d in (document, first))
    if protocol != expected:
        raise MergeError(f"{source}: run.protocol {protocol!r} is not that of {first_source} ({expected!r}): "
                         "shards run by different protocol versions are not one run")
    if document.get("suite") != first.get("suite"):
        raise MergeError(f"{source}: {_suite(document)} is not the {_suite(first)} of {first_source}: shards of "
                         "different suites (another version, scenario folder, spec or contract) are not one run")
    if agreement(document) != agreement(first):
        raise MergeError(f"{source}: agreement {agreement(document)} is not that of {first_source} "
                         f"({agreement(first)}): shards run with and without agreement are not one run")


def merge(documents: list[tuple[dict, str]]) -> dict:
    """One document from ``(document, source)`` shards; complete only when every shard 1..N is there, complete."""
    if not documents:
        raise MergeError("no results to merge")
    for document, source in documents:
        if not isinstance(document, dict) or document.get("schema") != RESULTS_SCHEMA:
            raise MergeError(f"{source}: not a baobei results document (schema {RESULTS_SCHEMA!r} expected)")
    first, first_source = documents[0]
    engine = first.get("engine") or {}
    for document, source in documents[1:]:
        _same_run(document, source, first, first_source)
    shards: dict[int, str] = {}
    total_shards = None
    results: dict[str, dict] = {}
    owner: dict[str, str] = {}
    for document, source in documents:
        other = document.get("engine") or {}
        if (other.get("name"), other.get("command")) != (engine.get("name"), engine.get("command")):
            raise MergeError(f"{source}: engine {other.get('name')!r} ({other.get('command')}) is not the engine of "
                             f"{first_source}, {engine.get('name')!r} ({engine.get('command')})")
        shard = _shard(document, source)
        if shard:
            k, n = shard
            if total_shards not in (None, n):
                raise MergeError(f"{source}: shard {k}/{n} does not belong with shards of {total_shards}")
            if k in shards:
                raise MergeError(f"{source}: shard {k}/{n} is also {shards[k]}")
            total_shards, shards[k] = n, source
        for r in document.get("results") or []:
            if r.get("id") in results:
                raise MergeError(f"{source}: scenario {r.get('id')!r} is also in {owner[r['id']]}")
            results[r["id"]], owner[r["id"]] = r, source
    runs = [d.get("run") or {} for d, _ in documents]
    missing = sorted(set(range(1, (total_shards or 0) + 1)) - set(shards))
    complete = all(r.get("complete", True) for r in runs) and not missing
    ordered = [results[sid] for sid in sorted(results)]
    by_part: dict[str, Counter] = {}
    for r in ordered:
        by_part.setdefault(r.get("part", "?"), Counter())[r.get("status")] += 1
    broken = {b.get("file"): b for d, _ in documents for b in d.get("broken") or []}
    return {
        "schema": RESULTS_SCHEMA,
        "suite": first.get("suite"),
        "engine": engine,
        "run": {**runs[0], "started": min(r.get("started", "") for r in runs),
                "seconds": round(max(r.get("seconds", 0) for r in runs), 3), "complete": complete,
                "interrupted": any(r.get("interrupted") for r in runs),
                "selected": sum(r.get("selected", 0) for r in runs), "ran": len(ordered),
                "broken_files": len(broken), "shard": None, "jobs": runs[0].get("jobs"),
                "merged": [source for _, source in documents], "merged_of": total_shards,
                "missing_shards": missing},
        "summary": tally(r.get("status") for r in ordered),
        "by_part": {p: tally(c.elements()) for p, c in sorted(by_part.items())},
        "results": ordered,
        "broken": list(broken.values()),
    }


def merge_shards(documents: list[tuple[dict, str]]) -> list[tuple[dict, str]]:
    """For the report: shard documents of one engine become one (sources joined); others stay as they are."""
    groups: dict[tuple, list[tuple[dict, str]]] = {}
    order: list[tuple | tuple[dict, str]] = []  # a group's key where its first shard was, or a document
    for document, source in documents:
        run = document.get("run") if isinstance(document, dict) else None
        engine = document.get("engine") if isinstance(document, dict) else None
        if isinstance(run, dict) and run.get("shard") and isinstance(engine, dict):
            key = ("shards", str(engine.get("name")), str(engine.get("command")))
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append((document, source))
        else:
            order.append((document, source))
    out = []
    for item in order:
        if item[0] != "shards":
            out.append(item)
        elif len(groups[item]) == 1:  # one shard alone is reported as it is: a shard's own run
            out.append(groups[item][0])
        else:
            out.append((merge(groups[item]), " + ".join(s for _, s in groups[item])))
    return out
