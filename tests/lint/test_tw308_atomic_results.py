"""TW308: an atomic's return value used in a differentiated kernel; a discarded one is fine."""

import textwrap

from tapewatch.lint import lint_source


def lint(src):
    return [f for f in lint_source(textwrap.dedent(src), "sim.py") if f.code == "TW308"]


SOURCE = """
import warp as wp


@wp.func
def claim(counter: wp.array(dtype=int)):
    return wp.atomic_add(counter, 0, 1)


@wp.kernel
def compact(x: wp.array(dtype=float), counter: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(counter, 1, 1)
    if x[i] > 0.0:
        slot = wp.atomic_add(counter, 0, 1)
        out[slot] = x[i]
    out[claim(counter)] += wp.atomic_max(out, 0, x[i])
"""


def test_used_results_are_flagged_and_statements_are_not():
    found = lint(SOURCE)
    assert sorted((f.location.line, f.data["function"], f.data["operation"]) for f in found) == [
        (7, "claim", "atomic_add"), (15, "compact", "atomic_add"), (17, "compact", "atomic_max")]


def test_a_kernel_without_backward_is_not_flagged():
    source = SOURCE.replace("@wp.kernel", "@wp.kernel(enable_backward=False)").replace("@wp.func\n", "")
    assert [f.location.line for f in lint(source)] == []
