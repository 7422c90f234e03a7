"""TW301: in-place *= and /= on array elements inside Warp kernels and functions."""

import textwrap

from tapewatch.lint import lint_source


def lint(src, code="TW301"):
    return [f for f in lint_source(textwrap.dedent(src), "sim.py") if f.code == code]


def test_multiply_on_array_element_in_kernel():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def damp(v: wp.array(dtype=wp.vec3), damping: wp.array(dtype=float)):
            tid = wp.tid()
            v[tid] *= damping[tid]
        """
    )
    assert len(found) == 1
    f = found[0]
    assert (f.code, f.location.line, f.location.column) == ("TW301", 8, 5)
    assert (f.location.end_line, f.location.end_column) == (8, 27)
    assert f.severity == "warning"
    assert f.data["kernel"] == "damp" and f.data["array"] == "v" and f.data["operator"] == "*="


def test_divide_on_2d_array_and_subscript_annotation():
    found = lint(
        """
        import warp


        @warp.kernel
        def normalize_rows(grid: warp.array2d[float], totals: warp.array[float]):
            i, j = warp.tid()
            grid[i, j] /= totals[i]
        """
    )
    assert [(f.location.line, f.location.column, f.data["operator"]) for f in found] == [(8, 5, "/=")]


def test_from_import_kernel_and_func_with_array_param():
    found = lint(
        """
        import warp as wp
        from warp import kernel


        @wp.func
        def scale_in_place(a: wp.array(dtype=float), i: int, s: float):
            a[i] *= s


        @kernel
        def step(x: wp.array(dtype=wp.vec3), s: wp.array(dtype=float)):
            tid = wp.tid()
            x[tid].y *= s[0]
        """
    )
    assert [(f.location.line, f.data["kernel"]) for f in found] == [(8, "scale_in_place"), (14, "step")]


def test_struct_array_field():
    found = lint(
        """
        import warp as wp


        @wp.struct
        class State:
            q: wp.array(dtype=float)
            mass: float


        @wp.kernel
        def shrink(state: State, s: wp.array(dtype=float)):
            tid = wp.tid()
            state.q[tid] *= s[tid]
        """
    )
    assert [(f.location.line, f.data["array"]) for f in found] == [(14, "state.q")]


def test_benign_lookalikes_are_silent():
    assert lint(
        """
        import numpy as np
        import warp as wp


        @wp.kernel
        def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=float), dt: float):
            tid = wp.tid()
            x[tid] += v[tid] * dt        # accumulation is differentiable
            f[tid] -= 1.0
            s = float(2.0)
            s *= dt                      # a local scalar, not an array element
            f[tid] = f[tid] * s          # not in place (a write after read: a runtime check)


        @wp.func
        def safe_sqrt(x: float):
            return wp.sqrt(x)


        @wp.func_grad(safe_sqrt)
        def adj_safe_sqrt(x: float, adj_ret: float):
            if x > 0.0:
                wp.adjoint[x] += 1.0 / (2.0 * wp.sqrt(x)) * adj_ret


        def host_side(arr):
            arr[0] *= 2.0                # plain NumPy outside any kernel
            arr[1] /= 3.0
            return np.sum(arr)
        """
    ) == []


def test_factor_no_returned_gradient_flows_into_is_not_reported():
    """``obs[i] *= 0.01`` (percent to fraction), by a module constant or by a kernel's float argument: only the
    factor's adjoint needs the old element, and nobody reads that one; a factor read from an array still
    is reported (and a ``@wp.func``'s float parameter: its adjoint goes back to the caller)."""
    found = lint(
        """
        import warp as wp

        SCALE = 100.0


        @wp.kernel
        def convert(obs: wp.array(dtype=float), w: wp.array(dtype=float), gain: float):
            i = wp.tid()
            obs[i] *= 0.01
            obs[i] /= SCALE
            obs[i] *= -2.0 * SCALE
            obs[i] *= gain * SCALE
            obs[i] *= w[i]


        @wp.func
        def rescale(obs: wp.array(dtype=float), i: int, gain: float):
            obs[i] *= gain
        """
    )
    assert [f.location.line for f in found] == [14, 19]
