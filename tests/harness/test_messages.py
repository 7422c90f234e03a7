"""What an FD verdict says agrees with the verdict: words first, the worst element by the measure the
verdict counts with, a PASS beside a large relative error says why it passes, a failure says what to change.

The checks run ``fdcheck``'s own measurement (``_check_parameter``) on a replayer whose objective is a linear
function of the parameter: finite differences are exact, so the numbers are the ones written here."""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np

from tapewatch.probe.fd import fdcheck


class LinearReplayer:
    """``objective(x) = g · x``: central differences give ``g`` exactly."""

    def __init__(self, values, g):
        self.values, self.g, self.base = values, g, {}

    def run(self, mode, perturb=None):
        x = self.values.copy()
        for index, (flat, h) in (perturb or {}).items():
            x[flat] += h
        return SimpleNamespace(objective=float(self.g @ x), applied={})


def measure(g, ad, backward_calls=1):
    values = np.ones(len(g))
    reference = SimpleNamespace(values={0: values}, grads={0: np.array(ad, dtype=float)}, objective=float(g @ values),
                                loss_scale=1e-9, backward_calls=backward_calls, backward_lines=[9])
    settings = fdcheck.Settings(max_inputs_per_var=len(g))
    param = fdcheck.Parameter("damping", 3, path="/p/script.py")
    result = fdcheck._check_parameter(LinearReplayer(values, np.array(g, dtype=float)), reference, 0, param,
                                      settings, "central", np)
    [finding] = fdcheck.result_findings(result, "/p/script.py", fdcheck.Loss("loss", [9]), reference, settings)
    return result, finding


def test_a_fail_names_the_element_beyond_the_tolerance_not_the_largest_absolute_error():
    # The case: the largest |AD - FD| (element 10, 1 % off) is inside the tolerance; what fails
    # are elements whose FD is near zero.
    g = np.full(24, -0.13)
    ad = g.copy()
    g[10], ad[10] = -0.1346, -0.1361           # |AD - FD| 0.0015 <= 0.001 + 0.01 * 0.1346: agrees
    g[3], ad[3] = 0.0004, 0.00165               # 0.00125 > 0.001004: 1.245x the tolerance
    g[7], ad[7] = 0.0003, 0.00125               # 0.00095 > 0.001003: no, agrees
    result, f = measure(g, ad)
    assert f.code == "TW401"
    assert f.message.startswith("FD check of `damping` FAIL: 1 of 24 sampled elements disagrees beyond the tolerance")
    assert "Worst element 3: AD 0.00165 vs FD 0.0004, 1.25× the tolerance" in f.message
    assert "Worst element 10" not in f.message
    # The words come before the numbers; the Fix says what to change, not which command to run.
    assert f.message.index("disagree") < f.message.index("max abs err")
    fix = f.message.split(" Fix: ", 1)[1]
    assert "Run Verification" not in fix and fix.startswith("change the launch whose adjoint is wrong")


def test_a_pass_beside_a_large_relative_error_says_why_it_passes():
    g = np.full(8, 0.5)
    ad = g.copy()
    g[2], ad[2] = 0.0001, 0.0005               # rel 4, |AD - FD| 0.0004 under the absolute tolerance
    result, f = measure(g, ad)
    assert f.code == "TW400" and result.max_rel > 3
    m = re.search(r"max rel err (\S+) is at elements whose FD is near zero \(\|FD\| ≤ (\S+)\), where the "
                  r"absolute tolerance 0.001 decides", f.message)
    assert m, f.message
    assert float(m.group(2)) == 0.0001
    where = re.search(r"\(max rel err where \|FD\| > 0\.001: (\S+)\)", f.message)
    assert where and float(where.group(1)) < 1e-9, f.message
    assert f.message.startswith("FD check of `damping` PASS: autodiff agrees with finite differences at all 8 "
                                "sampled elements")


def test_a_pass_with_small_errors_stays_short():
    g = np.linspace(0.2, 1.0, 6)
    _, f = measure(g, g.copy())
    assert f.code == "TW400" and "near zero" not in f.message and "Fix:" not in f.message


def test_an_integer_ratio_counts_and_says_what_to_remove():
    g = np.linspace(0.2, 1.0, 6)
    _, f = measure(g, 2 * g)
    assert f.code == "TW402"
    assert f.message.startswith("FD check of `damping` FAIL: autodiff is 2× finite differences at 6 of 6 sampled")
    assert " Fix: remove the double counting" in f.message


def test_truncation_across_windows_says_to_record_one_tape():
    g = np.linspace(0.2, 1.0, 4)
    _, f = measure(g, 0.6 * g, backward_calls=3)
    assert f.code == "TW401" and "truncation" in f.message
    assert " Fix: record the whole horizon on one tape" in f.message
