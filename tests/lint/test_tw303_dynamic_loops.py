"""TW303: values carried through dynamic loops that the backward pass cannot reconstruct.

The kernels are the examples of "Dynamic Loops" in Warp's Differentiability guide.
"""

import textwrap

from tapewatch.lint import lint_source


def lint(src, code="TW303"):
    return [f for f in lint_source(textwrap.dedent(src), "sim.py") if f.code == code]


def test_multiplicative_accumulation_warp_guide_example():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def dynamic_loop_mult(x: wp.array(dtype=float), loss: wp.array(dtype=float), iters: int):
            prod = float(1.0)

            for i in range(iters):
                prod *= x[i]

            wp.atomic_add(loss, 0, prod)
        """
    )
    assert len(found) == 1
    f = found[0]
    # On the loop's header (``for i in range(iters)``), where the trip count would be made constant;
    # the update is related.
    assert (f.location.line, f.location.column, f.location.end_column) == (9, 5, 26)
    assert f.data["kind"] == "recurrence" and f.data["variable"] == "prod" and f.data["loop_line"] == 9
    assert f.data["update_line"] == 10
    assert [(r.location.line, r.role) for r in f.related] == [(10, "update")]
    assert "range(iters)" in f.message and "compile-time constant" in f.message


def test_product_spelled_out_and_while_loop():
    found = lint(
        """
        import warp as wp


        @wp.func
        def horner(coeffs: wp.array(dtype=float), n: int, t: float):
            acc = float(0.0)
            i = n - 1
            while i >= 0:
                acc = acc * t + coeffs[i]
                i -= 1
            return acc
        """
    )
    # A ``while`` loop cannot be unrolled: the update itself is the line to change.
    assert [(f.location.line, f.data["variable"]) for f in found] == [(10, "acc")]


def test_local_assigned_in_loop_used_after_it():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def nearest(p: wp.array(dtype=wp.vec3), q: wp.array(dtype=wp.vec3), n: int, out: wp.array(dtype=float)):
            tid = wp.tid()
            best = float(1.0e10)
            best_j = int(0)
            for j in range(n):
                d = wp.length(p[tid] - q[j])
                if d < best:
                    best = d
                    best_j = j
            out[tid] = wp.length(p[tid] - q[best_j])
        """
    )
    # ``best`` is not read after the loop; ``best_j`` selects the element the adjoint goes to.
    assert [(f.location.line, f.data["update_line"], f.data["variable"], f.data["kind"]) for f in found] == [
        (10, 14, "best_j", "local-used-after-loop"),
    ]
    assert found[0].data["use_line"] == 15


def test_accumulator_needed_after_loop_warp_guide_example():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def dynamic_loop_sum(x: wp.array(dtype=float), weights: wp.array(dtype=float), loss: wp.array(dtype=float), iters: int):
            sum = float(0.0)
            norm = float(0.0)

            for i in range(iters):
                w = weights[i]
                norm += w
                sum += x[i] * w

            l = sum / norm
            wp.atomic_add(loss, 0, l)
        """
    )
    # One finding on the loop, naming both accumulators, each related with its use after the loop.
    assert len(found) == 1
    f = found[0]
    assert (f.location.line, f.location.column) == (10, 5)
    assert set(f.data["variables"]) == {"sum", "norm"}
    assert f.data["kind"] == "accumulator-used-after-loop"
    assert {(r.location.line, r.role) for r in f.related} >= {(12, "update"), (13, "update"), (15, "use")}
    assert "`norm` is accumulated in it (line 12)" in f.message


def test_literal_trip_count_above_max_unroll_is_dynamic():
    src = """
        import warp as wp
        {options}

        @wp.kernel
        def power(x: wp.array(dtype=float), out: wp.array(dtype=float)):
            tid = wp.tid()
            p = float(1.0)
            for i in range(32):
                p = p * x[tid]
            out[tid] = p
        """
    found = lint(src.format(options=""))
    assert [(f.location.line, f.data["update_line"]) for f in found] == [(9, 10)]
    assert "max_unroll" in found[0].message
    raised = 'wp.set_module_options({"max_unroll": 64})'
    assert lint(src.format(options=raised)) == []


def test_break_makes_a_literal_loop_dynamic():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def first_hit(x: wp.array(dtype=float), out: wp.array(dtype=float)):
            tid = wp.tid()
            hit = float(0.0)
            for i in range(8):
                hit = x[i]
                if hit > 0.5:
                    break
            out[tid] = hit * hit
        """
    )
    assert [(f.location.line, f.data["update_line"], f.data["kind"]) for f in found] == [
        (9, 10, "local-used-after-loop")]
    assert "remove the `break`" in found[0].message


def test_benign_lookalikes_are_silent():
    assert lint(
        """
        import warp as wp

        N = 8


        @wp.kernel
        def dynamic_loop_sum(x: wp.array(dtype=float), loss: wp.array(dtype=float), iters: int):
            sum = float(0.0)
            for i in range(iters):
                sum += x[i]                  # additive accumulation is replayed correctly
            wp.atomic_add(loss, 0, sum)


        @wp.kernel
        def spelled_out(x: wp.array(dtype=float), out: wp.array(dtype=float), n: int):
            tid = wp.tid()
            s = float(0.0)
            decay = float(1.0)
            for i in range(n):
                t = x[i] * x[i]              # a loop-local used only inside the loop
                s = s + t
                decay *= 0.5                 # scaling by a constant needs no forward value
            out[tid] = s * 2.0


        @wp.kernel
        def damped(v0: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), damping: float, k: float,
                   out: wp.array(dtype=wp.vec3), steps: int):
            tid = wp.tid()
            v = v0[tid]
            acc = wp.vec3()
            for i in range(steps):
                v = v * damping              # a scalar kernel parameter: its adjoint is never returned
                acc += f[i]
            out[tid] = v + k * acc           # likewise: k * acc needs acc only for k's unused adjoint


        @wp.kernel
        def static_loops(x: wp.array(dtype=float), out: wp.array(dtype=float)):
            tid = wp.tid()
            prod = float(1.0)
            for i in range(4):               # unrolled: every intermediate is kept
                prod *= x[i]
            last = float(0.0)
            for j in range(0, N):            # a module constant is a compile-time constant
                last = x[j]
                prod = prod * x[j]
            out[tid] = prod + last


        @wp.func
        def loop(x: wp.array(dtype=float), weights: wp.array(dtype=float), iters: int):
            sum = float(0.0)
            norm = float(0.0)
            for i in range(iters):           # Warp's remedy: the values are returned to the caller
                w = weights[i]
                norm += w
                sum += x[i] * w
            return sum, norm


        @wp.func
        def factorial(n: int) -> int:
            result = int(1)
            for i in range(2, n + 1):
                result *= i                  # integers carry no adjoint
            return result


        def host(values, n):
            p = 1.0
            for i in range(n):
                p *= values[i]               # plain Python
            return p
        """
    ) == []


def test_accumulator_needed_through_a_local_after_the_loop():
    """``r = value - y`` is linear in ``value``, but ``r * r`` needs it: the backward pass does not have it
    (measured: AD -101.4 vs FD -92.5 on a 24-term harmonic fit)."""
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def fit(t: wp.array(dtype=float), c: wp.array(dtype=float), y: wp.array(dtype=float), loss: wp.array(dtype=float)):
            i = wp.tid()
            value = float(0.0)
            for k in range(24):
                value += c[k] * wp.cos(float(k) * t[i])
            r = value - y[i]
            wp.atomic_add(loss, 0, r * r)


        @wp.kernel
        def stored(t: wp.array(dtype=float), c: wp.array(dtype=float), out: wp.array(dtype=float)):
            i = wp.tid()
            value = float(0.0)
            for k in range(24):
                value += c[k] * wp.cos(float(k) * t[i])
            shifted = value - 1.0
            out[i] = 2.0 * shifted
        """
    )
    [f] = found
    assert f.data["kernel"] == "fit" and f.data["variable"] == "value" and f.data["update_line"] == 10
    assert f.location.line == 9
    assert "through `r`" in f.message and f.data["use_line"] == 12


def test_a_value_a_function_needs_after_its_own_loop():
    """Inside a ``@wp.func`` a value used after the loop by the function itself is as wrong as in a kernel
    (measured: ``return wp.exp(-g)`` after ``g += wp.log(1 + r[k])`` gave -0.909 for -0.530; ``return v * v``
    after ``v = w[k]`` gave 0 for 4); returning it for the caller to use is right (measured exact)."""
    found = lint(
        """
        import warp as wp


        @wp.func
        def discount(rates: wp.array(dtype=float), n: int):
            g = float(0.0)
            for k in range(n):
                g += wp.log(1.0 + rates[k])
            return wp.exp(-g)


        @wp.func
        def last_squared(w: wp.array(dtype=float), n: int):
            v = float(0.0)
            for k in range(n):
                v = w[k]
            return v * v


        @wp.func
        def last(w: wp.array(dtype=float), n: int):
            v = float(0.0)
            for k in range(n):
                v = w[k]
            return v
        """
    )
    assert [(f.location.line, f.data["update_line"], f.data["variable"], f.data["kind"]) for f in found] == [
        (8, 9, "g", "accumulator-used-after-loop"), (16, 17, "v", "local-used-after-loop")]


def test_a_loop_bound_imported_from_a_sibling_module_is_read_there(tmp_path):
    """``from config import SUBSTEPS``: Warp resolves the bound at code generation; so does the lint, from
    the file beside the linted one (24 > max_unroll: a dynamic loop; 8: unrolled, silent)."""
    kernel = textwrap.dedent("""
        import warp as wp

        from config import SUBSTEPS


        @wp.kernel
        def decay(x0: wp.array(dtype=float), rate: wp.array(dtype=float), x_out: wp.array(dtype=float)):
            i = wp.tid()
            x = x0[i]
            for s in range(SUBSTEPS):
                x = x - 0.01 * rate[i] * x * x
            x_out[i] = x
        """)
    main = tmp_path / "sim.py"
    main.write_text(kernel)
    for substeps, lines in ((24, [11]), (8, [])):
        (tmp_path / "config.py").write_text("SUBSTEPS = %d\n" % substeps)
        found = [f for f in lint_source(kernel, str(main)) if f.code == "TW303"]
        assert [f.location.line for f in found] == lines, substeps


def test_a_carried_value_updated_from_another_carried_value_nonlinearly():
    """Symplectic Euler in a dynamic loop: ``om`` is updated from ``wp.sin(th)``, ``th`` from ``om``; the
    adjoint of the ``om`` update needs each iteration's ``th`` (measured: d/d length 1.866 for 2.482). A
    factor whose own recurrence is reported is not reported again through it."""
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def swing(theta: wp.array(dtype=float), n: int, out: wp.array(dtype=float)):
            i = wp.tid()
            th = theta[i]
            om = float(0.0)
            for s in range(n):
                om = om - 9.81 * wp.sin(th) * 0.01
                th = th + om * 0.01
            out[i] = th


        @wp.kernel
        def march(sigma: wp.array(dtype=float), n: int, out: wp.array(dtype=float)):
            i = wp.tid()
            t = float(1.0)
            r = float(0.0)
            for s in range(n):
                t = t * wp.exp(-sigma[s])
                r += t * sigma[s]
            out[i] = r
        """
    )
    assert [(f.location.line, f.data["update_line"], f.data["variable"], f.data.get("through")) for f in found] == [
        (10, 11, "om", "th"), (21, 22, "t", None)]


def test_a_carried_value_updated_through_a_local_the_iteration_computed_from_it():
    """Lotka-Volterra by explicit Euler: ``dprey = a * prey - b * prey * pred`` then ``prey = prey + dt * dprey``.
    Each update is linear as written, but the local it adds holds a nonlinear function of the carried
    values (measured with Warp 1.19: d x_end / d rates 57.8 by the adjoint, 8.35 by finite differences).
    ``x += h * x * x`` written in place is the same recurrence."""
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def season(x0: wp.array(dtype=wp.vec2), rates: wp.array(dtype=wp.vec4), n: int, x_end: wp.array(dtype=wp.vec2)):
            i = wp.tid()
            a = rates[0][0]
            b = rates[0][1]
            prey = x0[i][0]
            pred = x0[i][1]
            for s in range(n):
                dprey = a * prey - b * prey * pred
                dpred = b * prey * pred - a * pred
                prey = prey + 0.25 * dprey
                pred = pred + 0.25 * dpred
            x_end[i] = wp.vec2(prey, pred)


        @wp.kernel
        def logistic(x0: wp.array(dtype=float), n: int, x_end: wp.array(dtype=float)):
            i = wp.tid()
            x = x0[i]
            for s in range(n):
                x += 0.1 * x * (1.0 - x)
            x_end[i] = x
        """
    )
    # Both carried values of one loop in one finding on its header.
    assert [(f.location.line, f.data["variables"], f.data["kind"]) for f in found] == [
        (12, ["prey", "pred"], "recurrence"), (24, ["x"], "recurrence")]
    assert [r.location.line for r in found[0].related if r.role == "update"] == [15, 16]
    assert "`prey` is updated from its own value in it (line 15)" in found[0].message


def test_a_local_computed_each_iteration_from_values_not_carried_keeps_an_accumulation_linear():
    """``w = wp.exp(-d * d)`` then ``num += w * v[k]``: the local does not depend on what the loop carries."""
    assert lint(
        """
        import warp as wp


        @wp.kernel
        def smooth(xs: wp.array(dtype=float), v: wp.array(dtype=float), n: int, out: wp.array(dtype=float)):
            i = wp.tid()
            num = float(0.0)
            for k in range(n):
                d = xs[i] - xs[k]
                w = wp.exp(-d * d)
                num += w * v[k]
            wp.atomic_add(out, 0, num)
        """
    ) == []
