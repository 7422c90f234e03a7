# correct: quad rotor-thrust schedule whose only enable_backward=False module draws rotor hubs for the viewer; it reads the pose but nothing in the loss depends on its output
import numpy as np
import warp as wp

from _rotor_render import rotor_hubs

DT = wp.constant(0.02)
T = 30
INERTIA = wp.constant(wp.vec3(0.004, 0.004, 0.007))
ARM = wp.constant(0.12)
KM = wp.constant(0.016)


@wp.kernel
def mix(rotors: wp.array2d(dtype=float), t: int, wrench: wp.array(dtype=wp.vec4)):
    f = wp.vec4(rotors[t, 0], rotors[t, 1], rotors[t, 2], rotors[t, 3])
    wrench[0] = wp.vec4(f[0] + f[1] + f[2] + f[3], ARM * (f[1] - f[3]), ARM * (f[2] - f[0]), KM * (f[0] - f[1] + f[2] - f[3]))


@wp.kernel
def rigid_step(x: wp.array(dtype=wp.transform), v: wp.array(dtype=wp.spatial_vector), wrench: wp.array(dtype=wp.vec4),
               x_out: wp.array(dtype=wp.transform), v_out: wp.array(dtype=wp.spatial_vector)):
    w = wrench[0]
    p = wp.transform_get_translation(x[0])
    q = wp.transform_get_rotation(x[0])
    om = wp.spatial_top(v[0])
    lin = wp.spatial_bottom(v[0])
    om1 = om + DT * wp.cw_div(wp.vec3(w[1], w[2], w[3]) - wp.cross(om, wp.cw_mul(INERTIA, om)), INERTIA)
    q1 = wp.normalize(q + 0.5 * DT * wp.quat(om1[0], om1[1], om1[2], 0.0) * q)
    lin1 = lin + DT * (wp.quat_rotate(q1, wp.vec3(0.0, 0.0, w[0] / 0.5)) + wp.vec3(0.0, 0.0, -9.81))
    x_out[0] = wp.transform(p + DT * lin1, q1)
    v_out[0] = wp.spatial_vector(om1, lin1)


@wp.kernel
def waypoint_cost(x: wp.array(dtype=wp.transform), goal: wp.vec3, cost: wp.array(dtype=float)):
    d = wp.transform_get_translation(x[0]) - goal
    wp.atomic_add(cost, 0, wp.dot(d, d))


PARAMS0 = np.array([1.24, 1.25, 1.26, 1.25])


def evaluate(p):
    rotors = wp.array(np.tile(p, (T, 1)), dtype=float, requires_grad=True)
    x = wp.array([wp.transform_identity()], dtype=wp.transform, requires_grad=True)
    v = wp.zeros(1, dtype=wp.spatial_vector, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    hubs = wp.zeros((T, 4), dtype=wp.vec3)
    tape = wp.Tape()
    with tape:
        for t in range(T):
            wrench = wp.zeros(1, dtype=wp.vec4, requires_grad=True)
            wp.launch(mix, dim=1, inputs=[rotors, t], outputs=[wrench])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(rigid_step, dim=1, inputs=[x, v, wrench], outputs=[x1, v1])
            x, v = x1, v1
            wp.launch(rotor_hubs, dim=4, inputs=[x, t], outputs=[hubs])
        wp.launch(waypoint_cost, dim=1, inputs=[x, wp.vec3(0.1, -0.1, 0.4)], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), rotors.grad.numpy().sum(axis=0)


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("waypoint cost", loss, "grad", g)
