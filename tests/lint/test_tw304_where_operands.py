"""TW304: wp.where / wp.select operands that overflow or are undefined where the guard rejects them."""

import textwrap

from tapewatch.lint import lint_source


def lint(src, code="TW304"):
    return [f for f in lint_source(textwrap.dedent(src), "sim.py") if f.code == code]


def test_guarded_exp_still_overflows():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def softplus(x: wp.array(dtype=float), y: wp.array(dtype=float)):
            tid = wp.tid()
            v = x[tid]
            y[tid] = wp.where(v > 20.0, v, wp.log(1.0 + wp.exp(v)))
        """
    )
    # log(1 + exp(v)) is kept off zero by the "+ 1.0"; the exp itself overflows for large v.
    assert [(f.location.line, f.location.column, f.location.end_column, f.data["operation"]) for f in found] == [
        (9, 49, 58, "exp"),
    ]
    assert found[0].data == {"kernel": "softplus", "function": "where", "operation": "exp", "source": "lint"}
    assert found[0].related[-1].role == "where"


def test_select_with_division_and_normalize():
    found = lint(
        """
        import warp as wp


        @wp.func
        def safe_dir(v: wp.vec3):
            d = wp.length(v)
            return wp.select(d > 1.0e-6, wp.vec3(0.0), v / d)


        @wp.kernel
        def directions(v: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
            tid = wp.tid()
            out[tid] = wp.where(wp.length(v[tid]) > 0.0, wp.normalize(v[tid]), wp.vec3(0.0))
        """
    )
    assert [(f.location.line, f.data["operation"]) for f in found] == [(8, "division"), (14, "normalize")]
    assert found[0].location.column == 48


def test_operand_computed_earlier():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def k(x: wp.array(dtype=float), y: wp.array(dtype=float)):
            tid = wp.tid()
            e = wp.exp(x[tid])
            y[tid] = wp.where(x[tid] < 80.0, e, 0.0)
        """
    )
    assert [(f.location.line, f.location.column, f.data["operation"]) for f in found] == [(9, 38, "exp")]
    assert found[0].related[0].location.line == 8


def test_benign_lookalikes_are_silent():
    assert lint(
        """
        import numpy as np
        import warp as wp

        EPS = 1.0e-8


        @wp.kernel
        def ok(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec3), y: wp.array(dtype=float)):
            tid = wp.tid()
            a = x[tid]
            leaky = wp.where(a > 0.0, a, 0.01 * a)                 # plain arithmetic
            half = wp.where(a > 0.0, a / 2.0, a * a ** 2.0)        # constant divisor, integer power
            r = wp.where(a > 0.0, wp.sqrt(wp.max(a, EPS)), 0.0)    # the documented double-where fix
            s = wp.select(a < 80.0, 0.0, wp.exp(wp.min(a, 80.0)))
            n = wp.length(v[tid])
            u = wp.where(n > 0.0, v[tid] / (n + 1.0e-6), v[tid])   # epsilon-guarded divisor
            t = wp.log(a) if a > 0.0 else 0.0                      # a branch, not wp.where
            y[tid] = leaky + half + r + s + u[0] + t


        def host(a):
            return np.where(a > 0, np.log(a), 0.0)                 # NumPy on the host
        """
    ) == []
