"""Resting pose of a box on a soft floor: gradient of the potential energy w.r.t. (height, roll, pitch)."""

import numpy as np
import warp as wp

HALF = wp.constant(wp.vec3(0.2, 0.1, 0.15))
SHARPNESS = 1000.0  # 1/m: width of the soft contact layer
STIFFNESS = 400.0
MASS = 2.0
PARAMS0 = np.array([0.04, 0.35, -0.2])


@wp.func
def softplus(s: float):
    return wp.where(s > 20.0, s, wp.log(1.0 + wp.exp(s)))  # expect: nonfinite


@wp.kernel
def pose_from_params(p: wp.array(dtype=float), pose: wp.array(dtype=wp.transform)):
    q = wp.quat_from_axis_angle(wp.vec3(1.0, 0.0, 0.0), p[1]) * wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), p[2])
    pose[0] = wp.transform(wp.vec3(0.0, p[0], 0.0), q)


@wp.kernel
def contact_energy(pose: wp.array(dtype=wp.transform), sharpness: float, stiffness: float, energy: wp.array(dtype=float)):
    c = wp.tid()
    sx = float(2 * (c & 1) - 1)
    sy = float(2 * ((c >> 1) & 1) - 1)
    sz = float(2 * ((c >> 2) & 1) - 1)
    corner = wp.cw_mul(HALF, wp.vec3(sx, sy, sz))
    y = wp.transform_point(pose[0], corner)[1]
    wp.atomic_add(energy, 0, stiffness * softplus(-sharpness * y) / (sharpness * sharpness))


@wp.kernel
def gravity_energy(pose: wp.array(dtype=wp.transform), mass: float, energy: wp.array(dtype=float)):
    wp.atomic_add(energy, 0, mass * 9.81 * wp.transform_get_translation(pose[0])[1])


def evaluate(p):
    params = wp.array(p.astype(np.float32), dtype=float, requires_grad=True)
    pose = wp.zeros(1, dtype=wp.transform, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(pose_from_params, dim=1, inputs=[params], outputs=[pose])
        wp.launch(contact_energy, dim=8, inputs=[pose, SHARPNESS, STIFFNESS], outputs=[energy])
        wp.launch(gravity_energy, dim=1, inputs=[pose, MASS], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    e, g = evaluate(PARAMS0)
    print(f"potential energy {e:.5f}  d/d(height, roll, pitch) {g}")
