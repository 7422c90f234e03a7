"""Warp's own test suite under Tapewatch: break none of its tests, accuse none of its correct programs.

Warp's wheel ships its tests (``warp.tests``).  Each batch runs twice in a
subprocess, plain and under ``pytest --tapewatch=warn`` (findings as
warnings, so tests pass exactly as they do plain), on the CPU:

- every test that passes plain passes under Tapewatch;
- every warning or error Tapewatch reports on these suites is listed in
  ``docs/warp-tests.md`` with why it is right (the hazard the test builds on
  purpose), and every row there is still reported: the table is the
  specification, kept true by this test.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "warp-tests.md"

BATCHES = {
    "autodiff": ["test_grad", "test_grad_customs", "test_tape", "test_adam", "test_sgd", "test_overwrite",
                 "test_grad_debug", "interop.test_torch"],
    "structs-copies-sparse": ["test_struct", "test_copy", "test_lvalue", "test_composite_component_adjoint",
                              "test_conditional", "test_implicit_init", "test_special_values",
                              "deterministic.test_deterministic_backward", "test_map", "test_ref",
                              "test_func_parameter_targets", "test_codegen_continue", "test_sparse",
                              "test_array_subclass"],
}


def _has_warp_tests() -> bool:
    try:
        import warp.tests  # noqa: F401
    except ImportError:
        return False
    return True


pytestmark = [pytest.mark.timeout(1200),
              pytest.mark.skipif(not _has_warp_tests(), reason="this Warp ships no tests")]


def _run(tmp_path: Path, name: str, modules, *extra) -> dict:
    """``{test id: outcome}`` of one pytest run over Warp's modules (CPU only)."""
    xml = tmp_path / ("%s.xml" % name)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "-o", "addopts=",
           "--pyargs", *("warp.tests.%s" % m for m in modules), "-k", "cpu", "--junitxml", str(xml), *extra]
    done = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=1100)
    assert xml.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    outcomes = {}
    for case in ET.parse(xml).getroot().iter("testcase"):
        test = "%s::%s" % (case.get("classname", ""), case.get("name", ""))
        bad = [c.tag for c in case if c.tag in ("failure", "error", "skipped")]
        outcomes[test] = bad[0] if bad else "passed"
    return outcomes


def explained() -> set:
    """``{(test name, code)}`` from the table in docs/warp-tests.md (rows ``| `test` | TWnnn | why |``)."""
    rows = re.findall(r"^\|\s*`([^`]+)`\s*\|\s*(TW\d{3})\s*\|", TABLE.read_text(encoding="utf-8"), re.M)
    return set(rows)


@pytest.mark.parametrize("batch", list(BATCHES))
def test_warps_own_tests_pass_under_tapewatch(tmp_path, batch):
    modules = BATCHES[batch]
    plain = _run(tmp_path, "plain", modules)
    report = tmp_path / "tapewatch.json"
    checked = _run(tmp_path, "tapewatch", modules, "--tapewatch=warn", "--tapewatch-report", str(report))
    broken = sorted(t for t, outcome in plain.items() if outcome == "passed" and checked.get(t) != "passed")
    assert broken == [], "tests that pass plain and fail under Tapewatch: %s" % broken
    findings = json.loads(report.read_text())["findings"]
    got = {(test.split("::")[-1], f["code"]) for f in findings if f["severity"] in ("warning", "error")
           for test in f["data"].get("tests") or ["(outside a test)"]}
    names = {test.split("::")[-1] for test in plain} | {"(outside a test)"}
    mine = {(test, code) for test, code in explained() if test in names}
    unexplained = sorted(got - mine)
    assert unexplained == [], "findings on Warp's tests that docs/warp-tests.md does not explain: %s" % unexplained
    stale = sorted(mine - got)
    assert stale == [], "rows of docs/warp-tests.md no longer reported (update the table): %s" % stale
    internal = [f["message"] for f in findings if f["code"] == "TW910"]
    assert internal == []
