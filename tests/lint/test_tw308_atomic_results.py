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


POOL = """
import warp as wp


@wp.kernel
def weights(score: wp.array(dtype=float), denom: wp.array(dtype=float), w: wp.array(dtype=float)):
    i = wp.tid()
    e = wp.exp(score[i])
    before = denom[1]
    wp.atomic_add(denom, 0, e)
    w[i] = e / denom[0] + before
    w[i] += denom[0]


@wp.kernel
def normalize(denom: wp.array(dtype=float), w: wp.array(dtype=float)):
    i = wp.tid()
    w[i] = w[i] / denom[0]
"""


def test_an_accumulator_read_in_the_launch_that_accumulates_into_it():
    """Read after the atomic (forward: a partial sum; backward: the final one): flagged once, at the first
    read; a read before the atomic, or in the next kernel, is not."""
    found = lint(POOL)
    assert [(f.location.line, f.data["array"], f.data["kernel"]) for f in found] == [(11, "denom", "weights")]
    assert found[0].location.column == 16 and "partial sum" in found[0].message


def test_a_function_with_a_func_replay_is_not_flagged():
    """``@wp.func_replay`` gives the backward pass the slots the forward pass claimed."""
    source = SOURCE + '''

@wp.func_replay(claim)
def replay_claim(counter: wp.array(dtype=int)):
    return counter[1]
'''
    assert sorted((f.location.line, f.data["function"]) for f in lint(source)) == [(15, "compact"), (17, "compact")]


NEIGHBOURS = """
import warp as wp


@wp.func
def note(table: wp.array(dtype=float), k: int, v: float):
    table[k] = v


@wp.kernel
def build_pairs(x: wp.array(dtype=wp.vec2), count: wp.array(dtype=wp.int32), nbr: wp.array2d(dtype=wp.int32)):
    i, j = wp.tid()
    d = x[i] - x[j]
    if wp.dot(d, d) < 1.0:
        slot = wp.atomic_add(count, i, 1)
        nbr[i, slot] = j


@wp.kernel
def pair_lengths(x: wp.array(dtype=wp.vec2), count: wp.array(dtype=int), r: wp.array2d(dtype=float)):
    i, j = wp.tid()
    slot = wp.atomic_add(count, i, 1)
    r[i, slot] = wp.length(x[i] - x[j])


@wp.kernel
def noted(x: wp.array(dtype=float), count: wp.array(dtype=int), table: wp.array(dtype=float)):
    i = wp.tid()
    slot = wp.atomic_add(count, 0, 1)
    note(table, slot, x[i])
"""


def test_a_kernel_that_writes_only_integer_arrays_is_not_flagged():
    """A neighbour list built with atomic slots writes no float array: its adjoint has nothing to misplace.
    The same slots indexing a float output, directly or through a function handed it, are flagged."""
    assert [(f.location.line, f.data["function"]) for f in lint(NEIGHBOURS)] == [(22, "pair_lengths"),
                                                                                 (29, "noted")]
