"""TW307: a custom adjoint that assigns ``wp.adjoint[x]``; harmless when every call passes a temporary."""

import textwrap

from tapewatch.lint import lint_source


def lint(src):
    return [f for f in lint_source(textwrap.dedent(src), "rod.py") if f.code == "TW307"]


ADJOINT = """
import warp as wp


@wp.func
def safe_length(d: wp.vec3):
    return wp.sqrt(wp.dot(d, d) + 1.0e-12)


@wp.func_grad(safe_length)
def adj_safe_length(d: wp.vec3, adj_ret: float):
    l = wp.sqrt(wp.dot(d, d) + 1.0e-12)
    wp.adjoint[d] = adj_ret / l * d
"""

KERNEL = """

@wp.kernel
def forces(x: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
%s
"""


def with_body(body):
    return ADJOINT + KERNEL % textwrap.indent(textwrap.dedent(body), "    ")


def test_an_assigned_adjoint_without_visible_calls_is_flagged():
    assert [(f.location.line, f.data["input"]) for f in lint(ADJOINT)] == [(13, "d")]


def test_a_variable_used_again_by_the_caller_is_flagged():
    body = """
    d = x[s + 1] - x[s]
    l = safe_length(d)
    f[s] = (l - 1.0) * d
    """
    assert [f.location.line for f in lint(with_body(body))] == [13]


def test_the_callers_own_parameter_or_a_loop_variable_is_flagged():
    param = ADJOINT + """

@wp.func
def energy(d: wp.vec3):
    return safe_length(d) + wp.dot(d, d)
"""
    assert [f.location.line for f in lint(param)] == [13]
    loop = """
    acc = float(0.0)
    for k in range(3):
        d = x[s] * float(k)
        acc += safe_length(d)
    f[s] = wp.vec3(acc)
    """
    assert [f.location.line for f in lint(with_body(loop))] == [13]


def test_temporaries_at_every_call_are_not_flagged():
    body = """
    l = safe_length(x[s + 1] - x[s])
    d = x[s] * 2.0
    m = safe_length(d)
    f[s] = (l - m) * (x[s + 1] - x[s])
    """
    assert lint(with_body(body)) == []
