"""Particle helpers shared by the sedimentation scripts."""
import warp as wp


@wp.func
def drag_accel(v: wp.vec3, c: float):
    # quadratic drag
    return -c * wp.length(v) * v


@wp.func
def apply_drag(v: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3), i: int, c: float, dt: float):
    a = drag_accel(v[i], c)
    v_out[i] = v[i] + a * dt
