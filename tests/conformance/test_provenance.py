"""A pass names what it passed: the suite's version and digests (the contract's among them) and whether agreement
was on, in the results, the JUnit properties, the console, the badge; merge refuses shards that differ in either;
a published badge is checked against the results it came from."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from baobei_conform.cli.main import main
from baobei_conform.results.document import agreement, render_summary
from baobei_conform.results.merge import MergeError, merge
from baobei_conform.suite.identity import SPEC_CAP, content_digest, suite_tag
from baobei_spec import SPEC_ROOT

ROOT = Path(__file__).resolve().parents[2]
TURN = ROOT / "scenarios" / "2-turn"


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> tuple[Path, dict, dict]:
    folder = tmp_path_factory.mktemp("shards")
    for k in (1, 2):
        assert main(["--scenarios", str(TURN), "-k", "turn-deal*", "--shard", f"{k}/2", "--json",
                     str(folder / f"s{k}.json"), "--junit", str(folder / f"s{k}.xml"), "--no-report", "-q"]) == 0
    first, second = (json.loads((folder / f"s{k}.json").read_text(encoding="utf-8")) for k in (1, 2))
    return folder, first, second


def _with(document: dict, **run) -> dict:
    return {**document, "run": {**document["run"], **run}}


def _unrecorded(document: dict) -> dict:
    """The document as a run that did not record agreement (an older harness) would have written it."""
    return {**document, "run": {k: v for k, v in document["run"].items() if k != "agreement"}}


def test_the_results_name_the_contract_among_the_suites_digests(shards):
    folder, first, _ = shards
    assert first["suite"]["contract"] == content_digest([("contract.yaml", SPEC_ROOT / "contract.yaml")], SPEC_CAP)
    assert set(first["suite"]) == {"version", "scenarios", "spec", "contract"}
    properties = {p.get("name"): p.get("value") for p in ET.parse(folder / "s1.xml").getroot().iter("property")}
    assert properties["suite_contract"] == first["suite"]["contract"]
    other = {**first["suite"], "contract": "sha256:" + "0" * 64}
    assert suite_tag(other) != suite_tag(first["suite"])  # the badge's short tag changes with any digest


def test_agreement_is_read_from_the_document_and_never_guessed(shards):
    _, first, _ = shards
    assert first["run"]["agreement"] is True  # the runner writes it: on by default
    assert [agreement(d) for d in (_unrecorded(first), _with(first, agreement=True),
                                   _with(first, agreement=False))] == ["not recorded", "on", "off (rules only)"]
    assert agreement(_with(first, agreement="yes")) == "not recorded"  # not a bool: not a setting
    summary = render_summary(_with(first, agreement=False))
    assert f"suite {suite_tag(first['suite'])} (scenarios {first['suite']['scenarios'][:19]}, " in summary
    assert summary.splitlines()[1].endswith("; agreement: off (rules only)")


def test_merge_refuses_shards_of_other_contracts_or_agreement_settings(shards):
    folder, first, second = shards
    assert merge([(first, "s1"), (second, "s2")])["run"]["complete"]
    both_on = merge([(_with(first, agreement=True), "s1"), (_with(second, agreement=True), "s2")])
    assert both_on["run"]["agreement"] is True
    contract = {**second, "suite": {**second["suite"], "contract": "sha256:" + "1" * 64}}
    with pytest.raises(MergeError, match=r"s2: suite .* contract sha256:1{64}\) is not the .*different suites"):
        merge([(first, "s1"), (contract, "s2")])
    for setting in (True, False):
        with pytest.raises(MergeError, match=r"s2: agreement (on|off \(rules only\)) is not that of s1 \(not recorded"):
            merge([(_unrecorded(first), "s1"), (_with(second, agreement=setting), "s2")])
    with pytest.raises(MergeError, match=r"agreement off \(rules only\) is not that of s1 \(on\)"):
        merge([(_with(first, agreement=True), "s1"), (_with(second, agreement=False), "s2")])


def _badge(capsys, results: Path, out: Path) -> dict:
    assert main(["badge", str(results), "--out", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def _verify(capsys, badge: Path, results: Path) -> tuple[int, str]:
    code = main(["badge", "--verify", str(badge), str(results)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_badge_names_the_suite_and_agreement_and_is_verified_against_its_results(shards, tmp_path, capsys):
    folder, first, _ = shards
    results = folder / "s1.json"
    badge = _badge(capsys, results, tmp_path / "badge.json")
    n, tag = first["summary"]["total"], suite_tag(first["suite"])
    assert badge == {"schemaVersion": 1, "label": "baobei", "color": "brightgreen",  # Shields' keys only
                     "message": f"{n}/{n} passed, suite {tag}"}  # agreement on: not named
    code, out = _verify(capsys, tmp_path / "badge.json", results)
    assert code == 0 and f"the badge of {results}" in out and first["suite"]["contract"] in out
    older = tmp_path / "older.json"
    older.write_text(json.dumps(_unrecorded(first)), encoding="utf-8")
    assert _badge(capsys, older, tmp_path / "older-badge.json")["message"] == \
        f"{n}/{n} passed, agreement not recorded, suite {tag}"
    off = tmp_path / "off.json"
    off.write_text(json.dumps(_with(first, agreement=False)), encoding="utf-8")
    assert ", rules only, suite " in _badge(capsys, off, tmp_path / "off-badge.json")["message"]


def test_tampering_with_the_badge_or_its_results_is_found(shards, tmp_path, capsys):
    folder, first, _ = shards
    results = folder / "s1.json"
    good = _badge(capsys, results, tmp_path / "badge.json")
    n = first["summary"]["total"]
    fewer = {**first, "results": [{**first["results"][0], "status": "fail"}, *first["results"][1:]],
             "summary": {**first["summary"], "passed": n - 1, "failed": 1}}
    tampered = {
        "message": ({**good, "message": good["message"].replace(" passed, ", " passed, agreement not recorded, ")},
                    results),
        "colour": ({**good, "color": "red"}, results),
        "extra key": ({**good, "suite": "mine"}, results),
        "other results": (good, fewer),
        "other agreement": (good, _with(first, agreement=False)),
        "other contract": (good, {**first, "suite": {**first["suite"], "contract": "sha256:" + "2" * 64}}),
    }
    for name, (badge, against) in tampered.items():
        badge_path, results_path = tmp_path / f"{name}.badge.json", results
        badge_path.write_text(json.dumps(badge), encoding="utf-8")
        if isinstance(against, dict):
            results_path = tmp_path / f"{name}.results.json"
            results_path.write_text(json.dumps(against), encoding="utf-8")
        code, out = _verify(capsys, badge_path, results_path)
        assert code == 1 and f"NOT the badge of {results_path}" in out, (name, out)
        assert " in the badge -> " in out and "from the results" in out, name


def test_a_badge_that_is_no_json_or_results_that_are_none_are_refused(shards, tmp_path, capsys):
    folder, _, _ = shards
    (tmp_path / "badge.json").write_text("{not json", encoding="utf-8")
    code, out = _verify(capsys, tmp_path / "badge.json", folder / "s1.json")
    assert code == 2 and "baobei-conform badge: " in out and "not JSON" in out and "Traceback" not in out
    code, out = _verify(capsys, folder / "s1.json", tmp_path / "badge.json")
    assert code == 2 and ("not a baobei results document" in out or "not JSON" in out)
