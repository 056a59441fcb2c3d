"""Inputs a hostile user hands the tool (issue 24): malformed shards, mutation, rulings and fuzz documents,
FIFOs and endless devices in a scenarios folder, a huge player count, nesting thousands of levels deep.

Every command runs in a fresh process with a timeout (a hang fails the test, it does not hang the suite) and
must end with its documented exit code, one clear error naming the file (and the JSON path, or line:col for
YAML), and no traceback. Read through conformance/files/inputs.py, validated by spec/schemas/.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from baobei_conform.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
TURN = ROOT / "scenarios" / "2-turn"
SCENARIO = TURN / "turn-new-game-refuses-player-counts-outside-two-to-six.yaml"
# Many commands, one process: each one's exit code and output, a traceback caught and shown (then the test fails).
RUNNER = """
import contextlib, io, json, sys, traceback
from baobei_conform.cli.main import main
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        except BaseException:
            code = None
            err.write(traceback.format_exc())
    print(json.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue()}), flush=True)
"""


def commands(argvs: list[list[str]], cwd: Path, timeout: float = 120) -> list[dict]:
    """Each argv through ``baobei-conform`` in one fresh process, in at most ``timeout`` seconds."""
    done = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(argvs)], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(argvs), done.stderr[-3000:]
    for answer in answers:
        assert "Traceback" not in answer["err"] + answer["out"], answer["err"][-3000:]
    return answers


def command(*argv: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """``baobei-conform ARGV`` as its own process; a hang is a failure after ``timeout`` seconds."""
    done = subprocess.run([sys.executable, "-m", "baobei_conform", *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr[-3000:]
    return done


def one_error(err: str, prefix: str) -> str:
    """The error is one line, starting ``prefix``."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(prefix), err[-2000:]
    return lines[0]


# --- merge: shards validated, and of one run ----------------------------------------------------------


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> tuple[Path, dict, dict]:
    """Two shards of one small run: (folder, shard 1, shard 2)."""
    folder = tmp_path_factory.mktemp("shards")
    for k in (1, 2):
        assert main(["-k", "turn-deal*", "--shard", f"{k}/2", "--json", str(folder / f"s{k}.json"),
                     "--no-report", "-q"]) == 0
    return folder, *(json.loads((folder / f"s{k}.json").read_text(encoding="utf-8")) for k in (1, 2))


def _edit(document: dict, change) -> dict:
    document = copy.deepcopy(document)
    change(document)
    return document


def _nested(document: dict) -> str:
    text = json.dumps(document)
    return text.replace('"events": []', '"events": [' + "[" * 5000 + "]" * 5000 + "]", 1)


# (name, the shard's text from shard 1's document, what the one-line error must say)
MALFORMED = [
    ("a result that is a number", lambda d: _edit(d, lambda d: d["results"].__setitem__(0, 5)),
     "$.results[0]: 5 is not of type 'object'"),
    ("a result without id", lambda d: _edit(d, lambda d: d["results"][0].pop("id")),
     "$.results[0]: 'id' is a required property"),
    ("an empty id", lambda d: _edit(d, lambda d: d["results"][0].update(id="")), "$.results[0].id"),
    ("a list part", lambda d: _edit(d, lambda d: d["results"][0].update(part=["2"])), "$.results[0].part"),
    ("run.started: 5", lambda d: _edit(d, lambda d: d["run"].update(started=5)), "$.run.started"),
    ("negative seconds", lambda d: _edit(d, lambda d: d["results"][0].update(seconds=-1)), "$.results[0].seconds"),
    ("NaN seconds", lambda d: json.dumps(d).replace('"seconds": ', '"seconds": NaN, "x": ', 1),
     "NaN is not a JSON number"),
    ("Infinity seconds", lambda d: json.dumps(d).replace('"seconds": ', '"seconds": Infinity, "x": ', 1),
     "Infinity is not a JSON number"),
    ("results not a list", lambda d: _edit(d, lambda d: d.update(results={})), "$.results"),
    ("no summary", lambda d: _edit(d, lambda d: d.pop("summary")), "$: 'summary' is a required property"),
    ("an engine that is text", lambda d: _edit(d, lambda d: d.update(engine="x")), "$.engine"),
    ("a run without protocol", lambda d: _edit(d, lambda d: d["run"].pop("protocol")),
     "$.run: 'protocol' is a required property"),
    ("a line that is text", lambda d: _edit(d, lambda d: d["results"][0].update(line="3")), "$.results[0].line"),
    ("an event that is a number", lambda d: _edit(d, lambda d: d["results"][0].update(events=[1])),
     "$.results[0].events[0]"),
    ("a shard that is no K/N", lambda d: _edit(d, lambda d: d["run"].update(shard="two/3")), "$.run.shard"),
    ("a shard K beyond N", lambda d: _edit(d, lambda d: d["run"].update(shard="3/2")),
     "run.shard '3/2': K is at most N"),
    ("an unknown top-level field", lambda d: _edit(d, lambda d: d.update(extra=1)), "Additional properties"),
    ("a suite digest that is none", lambda d: _edit(d, lambda d: d["suite"].update(scenarios="sha256:xyz")),
     "$.suite.scenarios"),
    ("a document without suite", lambda d: _edit(d, lambda d: d.pop("suite")), "'suite' is a required property"),
    ("a list", lambda d: [d], "not a baobei results document (schema 'baobei-results/1' expected)"),
    ("a 60-digit count", lambda d: json.dumps(d).replace('"total": ', '"total": ' + "9" * 60 + ', "x": ', 1),
     "an integer of 60 digits"),
    ("half a file", lambda d: json.dumps(d, indent=1)[:500], ": not JSON: "),
    ("a byte that is not UTF-8", lambda d: json.dumps(d).replace('"turn-', '"\udcff', 1), "not UTF-8"),
    ("nested 5,000 deep", _nested, "nested more than 100 levels deep"),
    ("an unknown status", lambda d: _edit(d, lambda d: d["results"][0].update(status="weird")),
     "$.results[0].status: 'weird' is not one of ['pass', 'fail', 'error', 'skip', 'xfail', 'xpass', 'variant']"),
]


def _write(path: Path, document) -> Path:
    text = document if isinstance(document, str) else json.dumps(document)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return path


def test_a_malformed_shard_is_refused_naming_the_file_and_the_json_path(shards, tmp_path):
    folder, first, second = shards
    argvs, files = [], []
    for i, (_, make, _) in enumerate(MALFORMED):
        bad = _write(tmp_path / f"bad{i:02d}.json", make(second))
        files.append(bad)
        argvs.append(["merge", str(folder / "s1.json"), str(bad), "--json", str(tmp_path / f"merged{i:02d}.json")])
    for (name, _, says), bad, answer in zip(MALFORMED, files, commands(argvs, tmp_path), strict=True):
        assert answer["code"] == 2, (name, answer)
        line = one_error(answer["err"], f"baobei-conform merge: {bad}")
        assert says in line, (name, line)
    assert not list(tmp_path.glob("merged*.json"))  # refused before merging: nothing written


def test_the_report_refuses_a_malformed_results_file_as_merge_does(shards, tmp_path):
    folder, first, _ = shards
    bad = _write(tmp_path / "bad.json", _edit(first, lambda d: d["results"][0].update(status="weird")))
    done = command("report", str(bad), "--out", str(tmp_path / "report"), "--scenarios", str(TURN), cwd=tmp_path)
    assert done.returncode == 2
    one_error(done.stderr, f"baobei-conform report: {bad}: not a baobei results document: $.results[0].status")
    assert not (tmp_path / "report" / "index.html").exists()


def test_shards_of_different_protocol_versions_or_suites_are_not_merged(shards, tmp_path):
    folder, first, second = shards
    variants = {
        "protocol": (_edit(second, lambda d: d["run"].update(protocol="1.0")), "run.protocol '1.0' is not that of"),
        "version": (_edit(second, lambda d: d["suite"].update(version="0.0.9")), "shards of different suites"),
        "spec": (_edit(second, lambda d: d["suite"].update(spec="sha256:" + "0" * 64)), "shards of different suites"),
    }
    argvs = [["merge", str(folder / "s1.json"), str(_write(tmp_path / f"{name}.json", doc)), "--json",
              str(tmp_path / f"merged-{name}.json")] for name, (doc, _) in variants.items()]
    for (name, (_, says)), answer in zip(variants.items(), commands(argvs, tmp_path), strict=True):
        assert answer["code"] == 2, (name, answer)
        assert says in one_error(answer["err"], f"baobei-conform merge: {tmp_path / name}.json: "), name
    assert not list(tmp_path.glob("merged-*.json"))


def test_a_shard_run_from_an_edited_scenario_folder_is_another_suite(shards, tmp_path):
    folder, first, _ = shards
    edited = tmp_path / "2-turn"
    shutil.copytree(TURN, edited)
    path = next(edited.glob("turn-deal*.yaml"))
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    mine = tmp_path / "s2.json"
    argvs = [["--scenarios", str(TURN), "-k", "turn-deal*", "--shard", "2/2", "--json", str(tmp_path / "same.json"),
              "--no-report", "-q"],
             ["--scenarios", str(edited), "-k", "turn-deal*", "--shard", "2/2", "--json", str(mine), "--no-report",
              "-q"],
             ["merge", str(folder / "s1.json"), str(mine), "--json", str(tmp_path / "merged.json")]]
    same, edit, merged = commands(argvs, tmp_path)
    assert same["code"] == edit["code"] == 0
    suites = [json.loads(p.read_text(encoding="utf-8"))["suite"] for p in (tmp_path / "same.json", mine)]
    assert suites[0]["scenarios"] != suites[1]["scenarios"] and suites[0]["spec"] == suites[1]["spec"]
    assert merged["code"] == 2 and "shards of different suites" in one_error(merged["err"], "baobei-conform merge:")
    assert not (tmp_path / "merged.json").exists()


# --- report --mutants, --rulings, --fuzz ---------------------------------------------------------------


FUZZ = {"schema": "baobei-fuzz/1", "engine": "e", "mode": "differential", "checks": [], "problem": None,
        "clauses_cited": [], "notes": []}
RULINGS = {"schema": "baobei-rulings/1", "budget": {"games": 0}, "rulings": [], "consistency": []}
MUTANTS = {"mutants": [{"mutant": "m", "clauses": ["3.1.7"], "status": "killed"}]}
# (option, a valid document, [(broken document or text, what the error must say)])
DOCUMENTS = [
    ("--mutants", MUTANTS, [
        ({"mutants": [{"mutant": 5, "clauses": [], "status": "killed"}]}, "$.mutants[0].mutant: 5 is not of type"),
        ({"mutants": [{"mutant": "m", "clauses": "3.1.7", "status": "killed"}]}, "$.mutants[0].clauses"),
        ({"mutants": [{"mutant": "m", "clauses": [], "status": "weird"}]}, "$.mutants[0].status"),
        ({"summary": {}}, "$: 'mutants' is a required property"),
        ([], "$: [] is not of type 'object'"),
        ('{"mutants": [', ":1:14: not JSON"),
        ('{"mutants": ' + "[" * 3000 + "]" * 3000 + "}", "nested more than 100 levels deep")]),
    ("--rulings", RULINGS, [
        ({**RULINGS, "rulings": [{"id": "R-05", "readings": [{"id": 1}]}]}, "$.rulings[0].readings[0].id"),
        ({**RULINGS, "rulings": [{"id": "R-05"}]}, "$.rulings[0]: 'readings' is a required property"),
        ({**RULINGS, "rulings": 5}, "$.rulings"),
        ({**RULINGS, "schema": "baobei-fuzz/1"}, "(schema 'baobei-rulings/1' expected)"),
        ('{"schema": NaN}', "NaN is not a JSON number")]),
    ("--fuzz", FUZZ, [
        ({**FUZZ, "checks": [{"check": "state", "status": "weird"}]}, "$.checks[0].status"),
        ({**FUZZ, "problem": {"check": "state", "message": "m", "reproducer": {"id": "r", "text": 5}}},
         "$.problem"),
        ({**FUZZ, "notes": "x"}, "$.notes"),
        ({k: v for k, v in FUZZ.items() if k != "mode"}, "$: 'mode' is a required property"),
        ({**FUZZ, "schema": "baobei-results/1"}, "(schema 'baobei-fuzz/1' expected)")]),
]


def test_malformed_mutants_rulings_and_fuzz_files_are_one_line_errors(shards, tmp_path):
    folder, first, _ = shards
    argvs, expected = [], []
    for option, valid, broken in DOCUMENTS:
        good = _write(tmp_path / f"good{option}.json", valid)
        for i, (document, says) in enumerate(broken):
            bad = _write(tmp_path / f"bad{option}{i}.json", document)
            others = [arg for o, v, _ in DOCUMENTS if o != option
                      for arg in (o, str(_write(tmp_path / f"good{o}.json", v)))]
            argvs.append(["report", str(folder / "s1.json"), "--scenarios", str(TURN), "--out",
                          str(tmp_path / f"out{option}{i}"), *others, option, str(bad)])
            expected.append((bad, says))
        argvs.append(["report", str(folder / "s1.json"), "--scenarios", str(TURN), "--out",
                      str(tmp_path / f"ok{option}"), option, str(good)])
        expected.append((None, ""))
    for (bad, says), answer in zip(expected, commands(argvs, tmp_path, timeout=300), strict=True):
        if bad is None:  # the valid document is read and shown
            assert answer["code"] == 0, answer["err"][-2000:]
            continue
        assert answer["code"] == 2, (bad, answer)
        assert says in one_error(answer["err"], f"baobei-conform report: {bad}:"), (bad, answer["err"])
    assert not list(tmp_path.glob("out*/*"))  # refused before anything was written


def test_a_fifo_or_a_device_given_as_a_document_is_refused_at_once(shards, tmp_path):
    folder, _, _ = shards
    os.mkfifo(tmp_path / "pipe.json")
    argvs = [["merge", str(folder / "s1.json"), str(tmp_path / "pipe.json")],
             ["merge", str(folder / "s1.json"), "/dev/zero"],
             ["report", str(folder / "s1.json"), "--scenarios", str(TURN), "--out", str(tmp_path / "r1"),
              "--fuzz", str(tmp_path / "pipe.json")],
             ["report", str(folder / "s1.json"), "--scenarios", str(TURN), "--out", str(tmp_path / "r2"),
              "--mutants", "/dev/zero"]]
    says = ["a FIFO (named pipe)", "a character device", "a FIFO (named pipe)", "a character device"]
    for argv, what, answer in zip(argvs, says, commands(argvs, tmp_path, timeout=60), strict=True):
        assert answer["code"] == 2, answer
        assert f"not a regular file but {what}" in one_error(answer["err"], f"baobei-conform {argv[0]}: "), answer


# --- scenario folders ---------------------------------------------------------------------------------


@pytest.fixture
def infested(tmp_path) -> Path:
    """A scenarios folder with one good scenario and entries named *.yaml that are no regular files."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    shutil.copy(SCENARIO, folder)
    os.mkfifo(folder / "pipe.yaml")
    (folder / "zero.yaml").symlink_to("/dev/zero")
    (folder / "to-pipe.yaml").symlink_to("pipe.yaml")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(folder / "sock.yaml"))
    yield folder
    sock.close()


NOT_REGULAR = {"pipe.yaml": "a FIFO (named pipe)", "zero.yaml": "a character device",
               "to-pipe.yaml": "a FIFO (named pipe)", "sock.yaml": "a socket"}


def _named(text: str, folder: Path) -> None:
    for name, kind in NOT_REGULAR.items():
        assert f"{folder / name}: not a regular file but {kind}: skipped" in text, (name, text[-2000:])


def test_lint_skips_a_fifo_and_dev_zero_with_an_error_each(infested, tmp_path):
    done = command("lint", str(infested), cwd=tmp_path, timeout=30)
    assert done.returncode == 1
    assert "5 scenario files, 1 valid, 4 with errors" in done.stdout
    _named(done.stderr, infested)


def test_a_run_lists_them_as_broken_files_and_runs_the_rest(infested, tmp_path):
    out = tmp_path / "results.json"
    done = command("--scenarios", str(infested), "--json", str(out), "--no-report", "-q", cwd=tmp_path, timeout=60)
    assert done.returncode == 1  # broken scenario files fail the run
    document = json.loads(out.read_text(encoding="utf-8"))
    assert document["summary"]["passed"] == 1
    _named("\n".join(b["message"] for b in document["broken"]), infested)


def test_the_fuzzer_s_corpus_names_them_and_searches_from_the_rest(infested, tmp_path):
    done = command("fuzz", "--scenarios", str(infested), "--budget", "1", "--max-examples", "2", "--derandomize",
                   "--no-database", cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and "no problem found" in done.stdout
    _named(done.stderr, infested)


def test_an_oversized_file_is_refused_naming_the_cap(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(SCENARIO.read_bytes() + b"# " + b"x" * (1 << 20) + b"\n")
    done = command("lint", str(big), cwd=tmp_path, timeout=30)
    assert done.returncode == 1
    assert f"{big}: the file has more than 1048576 bytes; a scenario file has at most 1048576" in done.stderr


def test_at_most_cap_plus_one_bytes_are_read_whatever_the_size(tmp_path, monkeypatch):
    from baobei_conform.files import inputs
    from baobei_conform.files.inputs import InputError, read_bytes

    path = tmp_path / "grows.yaml"
    path.write_bytes(b"x" * (8 << 20))
    taken = []
    read = os.read

    def counted(fd, n):
        data = read(fd, n)
        taken.append(len(data))
        return data

    monkeypatch.setattr(inputs.os, "read", counted)
    with pytest.raises(InputError, match="the file has more than 100 bytes"):
        read_bytes(path, 100)
    assert sum(taken) == 101
    taken.clear()
    assert read_bytes(path, 8 << 20) == b"x" * (8 << 20) and sum(taken) == 8 << 20


# --- numbers and depth ----------------------------------------------------------------------------------


def _scenario(folder: Path, name: str, script: str, extra: str = "") -> Path:
    path = folder / f"{name}.yaml"
    body = "".join(f"  {line}\n" for line in script.splitlines())
    path.write_text(f'id: {name}\ntitle: t\nclauses: ["2.1.1"]\n{extra}script: |\n{body}', encoding="utf-8")
    return path


def test_a_huge_player_count_is_refused_at_its_line_and_column_at_once(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    huge = _scenario(folder, "huge", "new game 100000000 players")
    seven = _scenario(folder, "seven", "new game 7 players")
    refused = _scenario(folder, "refused", "reject malformed_action: new game 7 players\nnew game 2 players")
    eight = _scenario(folder, "eight", "reject malformed_action: new game 8 players")
    done = command("lint", str(folder), cwd=tmp_path, timeout=30)
    assert done.returncode == 1 and "4 scenario files, 1 valid, 3 with errors" in done.stdout
    assert f"{huge}:5:12: a game of 100000000 players: a script writes 1 to 7" in done.stderr
    assert f"{seven}:5:12: BAO BEI is played by 2 to 6 players (2.1.1)" in done.stderr
    assert f"{eight}:5:37: a game of 8 players" in done.stderr
    assert str(refused) not in done.stderr
    run = command("--scenarios", str(huge), "--no-report", cwd=tmp_path, timeout=30)
    assert run.returncode == 2 and f"{huge}:5:12: a game of 100000000 players" in run.stderr


def test_a_deeply_nested_scenario_is_an_error_at_its_line_and_column(tmp_path):
    folder = tmp_path / "s"
    folder.mkdir()
    flow = _scenario(folder, "flow", "new game 2 players", "tags: " + "[" * 5000 + "]" * 5000 + "\n")
    block = _scenario(folder, "block", "new game 2 players",
                      "ruling_notes:\n" + "".join(" " * (i + 1) + "a:\n" for i in range(1000)))
    done = command("lint", str(folder), cwd=tmp_path, timeout=30)
    assert done.returncode == 1
    assert (f"{flow}:4:14: nested more than 8 levels deep" in done.stderr
            or f"{flow}:4:1006: not valid YAML: exceeded maximum nesting" in done.stderr), done.stderr[-2000:]
    assert f"{block}:12:9: nested more than 8 levels deep" in done.stderr


@pytest.fixture
def deep_expectations(tmp_path) -> list[tuple[Path, str]]:
    """Expectations files nested thousands of levels deep, with where the error must point."""
    flow = tmp_path / "flow.yaml"
    flow.write_text("expected: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    block = tmp_path / "block.yaml"
    block.write_text("".join(" " * i + "a:\n" for i in range(1500)), encoding="utf-8")
    return [(flow, f"{flow}:1:"), (block, f"{block}:5:5: nested more than 4 levels deep")]


def test_a_deeply_nested_expectations_file_is_an_error_at_its_line_and_column(deep_expectations, tmp_path):
    argvs = [["-k", "turn-deal*", "--no-report", "--expectations", str(path)] for path, _ in deep_expectations]
    for (_, says), answer in zip(deep_expectations, commands(argvs, tmp_path, timeout=60), strict=True):
        assert answer["code"] == 2
        line = one_error(answer["err"], f"baobei-conform: {says}")
        assert "nested more than 4 levels deep" in line or "exceeded maximum nesting" in line


def test_the_pytest_plugin_refuses_it_as_a_usage_error(deep_expectations, tmp_path):
    for path, says in deep_expectations:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--baobei-engine",
                               "reference", "--baobei-expectations", str(path), "--collect-only"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 4, done.stdout[-2000:] + done.stderr[-2000:]  # pytest's usage error
        assert "INTERNALERROR" not in done.stdout + done.stderr and "Traceback" not in done.stderr
        assert f"baobei: {says}" in done.stderr


def test_an_engine_manifest_is_read_as_any_input(tmp_path):
    fifo, listed, deep = (tmp_path / name for name in ("fifo", "listed", "deep"))
    for folder in (fifo, listed, deep):
        folder.mkdir()
    os.mkfifo(fifo / "baobei-engine.json")
    (listed / "baobei-engine.json").write_text('[1]', encoding="utf-8")
    (deep / "baobei-engine.json").write_text('{"command": ' + "[" * 5000 + "]" * 5000 + "}", encoding="utf-8")
    argvs = [[str(folder), "-k", "turn-deal*", "--no-report"] for folder in (fifo, listed, deep)]
    says = ["not a regular file but a FIFO", "a manifest is JSON with a 'command'", "nested more than 100 levels"]
    for folder, what, answer in zip((fifo, listed, deep), says, commands(argvs, tmp_path, timeout=60), strict=True):
        assert answer["code"] == 2
        assert what in one_error(answer["err"], f"baobei-conform: {folder / 'baobei-engine.json'}"), answer["err"]
