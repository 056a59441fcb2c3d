"""Rule-parameter overrides of a ``setup`` block (``value SPECIES N``, ``rule NAME N``) as the setup step's
``params``: the handshake parameters a position plays by instead (docs/protocol.md, setup)."""

from __future__ import annotations

from typing import Any

from baobei_conform.dsl.errors import ScenarioError
from baobei_spec import default_spec

PER_COUNT = ("hand_size", "decisive_hand_size")  # by player count: the override is this count's
PLAIN = ("initial_peek", "bao_failure_minimum", "bao_failure_factor", "final_phase_recycle")


def rule_overrides(values: dict[str, tuple[int, int]], rules: dict[str, tuple[int, int]],
                   players: int) -> dict[str, Any]:
    """``{"catalog": [...]}`` when card values change, plus one key per overridden rule parameter.
    Both map a name to (value, script line)."""
    out: dict[str, Any] = {}
    if values:
        catalog: list[dict[str, Any]] = [
            {"species": sp.id, "family": sp.family, "value": sp.value, "power": sp.power, "count": sp.count}
            for sp in default_spec().species_list]  # the handshake's catalog (docs/protocol.md, hello)
        known = {entry["species"] for entry in catalog}
        for species, (_, line) in values.items():
            if species not in known:
                raise ScenarioError(f"value: unknown species {species!r}", line=line, column=1)
        out["catalog"] = [{**entry, "value": values.get(entry["species"], (entry["value"],))[0]} for entry in catalog]
    for name, (value, rule_line) in rules.items():
        if name in PER_COUNT:
            out[name] = {str(players): value}  # merged into the handshake's map key by key
        elif name in PLAIN:
            out[name] = value
        else:
            raise ScenarioError(f"rule: unknown rule parameter {name!r}; known: {', '.join(PER_COUNT + PLAIN)} "
                                "(and 'threshold N')", line=rule_line, column=1)
    return out
