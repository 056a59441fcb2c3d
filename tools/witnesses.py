"""Regenerate conformance/witnesses.json: a fresh witness search for every switch reading of spec/rulings.yaml.

    python tools/witnesses.py     # about four to five minutes on one core (the budget: conformance/fuzz/witness.py)

``baobei-conform rulings`` reuses each witness of the file while it still passes under its own reading and fails
under the other on today's reference, and searches again for the others; run this after a change to the rules
or to a reading, and commit the file.
"""

from __future__ import annotations

import json
import sys

from baobei_conform.files.outputs import write_atomic
from baobei_conform.fuzz.witness import CACHE, WITNESS_BUDGET, find_witness, key
from baobei_conform.harness.run import Selection, load_suite
from baobei_conform.options import default_suite
from baobei_spec import default_spec


def main() -> int:
    scenarios, broken = load_suite(default_suite(), Selection())
    if broken:
        print("\n".join(map(str, broken)), file=sys.stderr)
        return 1
    found = {}
    for r in default_spec().rulings.values():
        for reading in r.readings:
            if reading.switch:
                w = find_witness(r, reading.id, scenarios, WITNESS_BUDGET)
                found[key(r.id, reading.id)] = w
                print(f"{key(r.id, reading.id)}: {'verified' if w.get('verified') else w.get('note')} "
                      f"({w['search']['seconds']} s)", flush=True)
    doc = {"budget": WITNESS_BUDGET, "witnesses": found}
    write_atomic(CACHE, json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
