"""TW302: a component of a local vector/matrix assigned more than once."""

import textwrap

from tapewatch.lint import lint_source


def lint(src, code="TW302"):
    return [f for f in lint_source(textwrap.dedent(src), "sim.py") if f.code == code]


def test_same_index_assigned_twice():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def build(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
            tid = wp.tid()
            v = wp.vec3()
            v[0] = a[tid]
            v[1] = b[tid]
            v[0] = a[tid] * b[tid]
            out[tid] = v
        """
    )
    assert len(found) == 1
    f = found[0]
    assert (f.location.line, f.location.column, f.location.end_column) == (11, 5, 9)
    assert f.data == {"kernel": "build", "variable": "v", "component": "v[0]", "first_line": 9, "source": "lint"}
    assert f.related and f.related[0].location.line == 9


def test_attribute_and_index_name_the_same_component():
    found = lint(
        """
        import warp as wp


        @wp.func
        def offset(p: wp.vec3, h: float):
            q = wp.vec3f()
            q.x = p[0]
            q.y = p[1]
            q.z = p[2]
            q[2] = p[2] + h
            return q
        """
    )
    assert [(f.location.line, f.data["component"]) for f in found] == [(11, "q[2]")]


def test_matrix_element_then_whole_row():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def assemble(k: wp.array(dtype=float), out: wp.array(dtype=wp.mat33)):
            tid = wp.tid()
            m = wp.mat33()
            m[0, 1] = k[tid]
            m[0] = wp.vec3(1.0, 2.0, 3.0)
            out[tid] = m
        """
    )
    assert [(f.location.line, f.location.column) for f in found] == [(10, 5)]


def test_component_already_set_by_constructor():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def lift(x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
            tid = wp.tid()
            p = wp.vec3(x[tid], y[tid], 0.0)
            p[2] = x[tid] * y[tid]      # fine: the constructor gave it a constant
            p[1] = y[tid] * 2.0         # y[tid] already flowed into p[1]
            out[tid] = p
        """
    )
    assert [(f.location.line, f.data["component"]) for f in found] == [(10, "p[1]")]
    assert "constructor" in found[0].message


def test_reassignment_after_plus_equals():
    found = lint(
        """
        import warp as wp


        @wp.kernel
        def k(a: wp.array(dtype=float), out: wp.array(dtype=wp.vec2)):
            tid = wp.tid()
            v = wp.vec2()
            v[0] += a[tid]
            v[0] = 1.0
            out[tid] = v
        """
    )
    assert [f.location.line for f in found] == [10]


def test_benign_lookalikes_are_silent():
    assert lint(
        """
        import warp as wp

        vec5 = wp.types.vector(length=5, dtype=float)
        vec3b = wp.types.vector(length=3, dtype=wp.bool)


        @wp.kernel
        def ok(a: wp.array(dtype=float), flag: wp.array(dtype=int), out: wp.array(dtype=wp.vec3)):
            tid = wp.tid()
            v = wp.vec3(0.0)            # constant initialisation
            v[0] = a[tid]
            v[1] = 2.0 * a[tid]
            v[2] = 3.0
            v[0] += a[tid]              # accumulation after the one assignment is safe
            v[1] -= 1.0

            w = wp.vec3()
            if flag[tid] > 0:           # exclusive branches: one assignment per path
                w[0] = a[tid]
            else:
                w[0] = -a[tid]

            u = wp.vec3()
            u[0] = a[tid]
            u = wp.vec3()               # a new vector
            u[0] = 2.0 * a[tid]

            f = vec5()
            for i in range(5):
                f[i] = a[tid] * float(i)

            flags = vec3b(True, False, True)   # constant (bool) initialisation
            flags[0] = False

            arr_like = out[tid]
            out[tid] = v + w + u + arr_like


        def host(points):
            v = [0.0, 0.0, 0.0]
            v[0] = 1.0
            v[0] = 2.0                  # Python list outside a kernel
            return v
        """
    ) == []


def test_silent_when_component_overwrites_enabled():
    assert lint(
        """
        import warp as wp

        wp.config.enable_vector_component_overwrites = True


        @wp.kernel
        def k(a: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
            tid = wp.tid()
            v = wp.vec3()
            v[0] = a[tid]
            v[0] = 2.0 * a[tid]
            out[tid] = v
        """
    ) == []


def test_a_func_parameter_component_assigned():
    """Its adjoint flows back to the caller's argument: measured on Warp 1.19, ``p.z = wp.max(p.z, 2.0)``
    gives d/dz = 1 where the true derivative is 0."""
    found = lint(
        """
        import warp as wp

        vec5 = wp.types.vector(length=5, dtype=float)


        @wp.func
        def project(pc: wp.vec3, near: float):
            pc.z = wp.max(pc.z, near)
            return pc.x / pc.z


        @wp.func
        def spread(m: wp.mat22, v: vec5, s: float):
            m[0, 1] += s
            v[4] = s
            return m[0, 0] + v[4]


        @wp.kernel
        def camera(p: wp.vec3, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
            i = wp.tid()
            p.z = x[i].z
            out[i] = project(x[i], 0.1) + p.z
        """
    )
    assert [(f.location.line, f.data["variable"]) for f in found] == [(9, "pc"), (16, "v")]
    assert "of parameter `pc` is assigned again (it is a parameter" in found[0].message


def test_a_vector_computed_from_a_vector_parameter_then_a_component_reassigned():
    """``f = k * pen`` gives every component of ``f`` a value (a gradient flows through each); setting
    ``f[2]`` again from itself loses the gradient of the first value, as after a constructor."""
    found = lint(
        """
        import warp as wp


        @wp.func
        def pad_force(pen: wp.vec3, k: float, normal_scale: float):
            f = (1000.0 * k) * pen
            f[2] = f[2] * normal_scale
            return f
        """
    )
    assert [(f.location.line, f.data["variable"]) for f in found] == [(8, "f")]


def test_a_computed_vector_rebuilt_instead_of_reassigned_is_quiet():
    assert lint(
        """
        import warp as wp


        @wp.func
        def pad_force(pen: wp.vec3, k: float, normal_scale: float):
            f = (1000.0 * k) * pen
            g = -f / k + pen
            return wp.vec3(g[0], g[1], f[2] * normal_scale)
        """
    ) == []


def test_a_vector_loaded_from_an_array_assigned_twice():
    """``vel = v[i]`` then ``vel[1] = ...`` twice: the second assignment is wrong whatever ``v`` is
    (measured: d(damping) -0.96 for 1.44); one assignment is wrong only when ``v`` needs a gradient,
    which the source does not say, so it stays silent."""
    src = textwrap.dedent("""
        import warp as wp


        @wp.kernel
        def bounce(v: wp.array(dtype=wp.vec3), d: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
            i = wp.tid()
            vel = v[i]
            vel[1] = vel[1] * d[i]
            if vel[1] < 0.0:
                vel[1] = -0.6 * vel[1]
            out[i] = vel


        @wp.kernel
        def damp(v: wp.array(dtype=wp.vec3), d: wp.array(dtype=float), out: wp.array(dtype=wp.vec3)):
            i = wp.tid()
            vel = v[i]
            vel[1] = vel[1] * d[i]
            out[i] = vel
        """)
    found = [f for f in lint_source(src, "sim.py") if f.code == "TW302"]
    assert [(f.location.line, f.data.get("variable", "vel")) for f in found] == [(11, "vel")]


def test_a_vector_computed_from_a_global_minus_a_parameter_is_filled():
    """``rel = WIND - v`` (WIND a module constant): Warp has no vector minus scalar, so ``rel`` is a vector
    with every component set, and ``f = cd * |rel| * rel`` too; ``f[1] = f[1] + lift`` reassigns a
    component (measured on Warp 1.19: relative gradient error 0.09 against finite differences).  Building
    a new vector from its components is silent."""
    found = lint(
        """
        import warp as wp

        WIND = wp.constant(wp.vec3(6.0, 0.0, 0.0))


        @wp.func
        def aero(v: wp.vec3, cd: float, cl: float):
            rel = WIND - v
            f = cd * wp.length(rel) * rel
            f[1] = f[1] + cl * wp.dot(rel, rel)
            return f


        @wp.func
        def aero_fresh(v: wp.vec3, cd: float, cl: float):
            rel = WIND - v
            f = cd * wp.length(rel) * rel
            return wp.vec3(f[0], f[1] + cl * wp.dot(rel, rel), f[2])
        """
    )
    assert [f.location.line for f in found] == [11]


def test_a_matrix_product_fills_every_component():
    """``P = F * P * wp.transpose(F)`` (a covariance prediction) gives every component a value: adding
    process noise with ``P[1, 1] = P[1, 1] + q`` reassigns one (measured on Warp 1.19 in a Kalman
    filter's likelihood: AD and FD disagree; ``P = P + wp.mat22(0.0, 0.0, 0.0, q)`` agrees).  So does a
    product of loaded matrices and a matrix times a vector; adding a new matrix is silent."""
    found = lint(
        """
        import warp as wp

        DT = 0.1


        @wp.func
        def predict(P: wp.mat22, q: float):
            F = wp.mat22(1.0, DT, 0.0, 1.0)
            P = F * P * wp.transpose(F)
            P[1, 1] = P[1, 1] + q
            return P


        @wp.func
        def predict_fresh(P: wp.mat22, q: float):
            F = wp.mat22(1.0, DT, 0.0, 1.0)
            P = F * P * wp.transpose(F)
            return P + wp.mat22(0.0, 0.0, 0.0, q)


        @wp.kernel
        def square(A: wp.array(dtype=wp.mat22), x: wp.array(dtype=wp.vec2), out: wp.array(dtype=wp.vec2)):
            i = wp.tid()
            M = A[i] * A[i]
            M[0, 1] = 2.0 * M[0, 1]
            y = M * x[i]
            y[0] = y[0] + 1.0
            out[i] = y
        """
    )
    assert [f.location.line for f in found] == [11, 26, 28]


def test_a_sum_of_built_vectors_fills_every_component():
    """``pc = wp.quat_rotate(q, p) + wp.vec3(t[0], t[1], t[2])`` (a camera transform) gives every
    component a value: clamping the depth with ``pc[2] = wp.max(pc[2], NEAR)`` reassigns one (measured on
    Warp 1.19 in a pose fit: AD and FD disagree; ``z = wp.max(pc[2], NEAR)`` agrees)."""
    found = lint(
        """
        import warp as wp

        NEAR = 0.1


        @wp.func
        def view_point(pose: wp.array(dtype=float), p: wp.vec3):
            q = wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), pose[0])
            pc = wp.quat_rotate(q, p) + wp.vec3(pose[1], pose[2], pose[3])
            pc[2] = wp.max(pc[2], NEAR)
            return pc


        @wp.func
        def view_depth(pose: wp.array(dtype=float), p: wp.vec3):
            q = wp.quat_from_axis_angle(wp.vec3(0.0, 1.0, 0.0), pose[0])
            pc = wp.quat_rotate(q, p) + wp.vec3(pose[1], pose[2], pose[3])
            return wp.max(pc[2], NEAR)
        """
    )
    assert [f.location.line for f in found] == [11]


def test_a_scaled_vector_of_a_user_type_fills_every_component():
    """``c = color4(r[i], g[i], b[i], 1.0) * w[i]`` (a vector type the file declares) gives every component a
    value, as a ``wp.vec4`` would: ``c[3] = ...`` after it reassigns one."""
    found = lint(
        """
        import warp as wp

        color4 = wp.types.vector(length=4, dtype=wp.float32)


        @wp.func
        def shade(r: float, g: float, b: float, w: float):
            c = color4(r, g, b, 1.0) * w
            c[3] = wp.min(c[3], 1.0)
            return c


        @wp.func
        def shade_clamped(r: float, g: float, b: float, w: float):
            c = color4(r, g, b, 1.0) * w
            return color4(c[0], c[1], c[2], wp.min(c[3], 1.0))
        """
    )
    assert [f.location.line for f in found] == [10]


def test_a_vector_a_builtin_computed_fills_every_component():
    """``vb = wp.quat_rotate_inv(q, v[i])`` gives every component a value (measured on Warp 1.19 in a
    drifting-car fit: ``vb[1] = vb[1] * GRIP`` after it gives d/d yaw -4444 against FD -2.36); building
    a new vector from its components is fine."""
    found = lint(
        """
        import warp as wp

        GRIP = 0.6


        @wp.func
        def body_slip(q: wp.quat, v: wp.vec3):
            vb = wp.quat_rotate_inv(q, v)
            vb[1] = vb[1] * GRIP
            return vb


        @wp.func
        def body_slip_rebuilt(q: wp.quat, v: wp.vec3):
            vb = wp.quat_rotate_inv(q, v)
            return wp.vec3(vb[0], vb[1] * GRIP, vb[2])
        """
    )
    assert [f.location.line for f in found] == [10]
