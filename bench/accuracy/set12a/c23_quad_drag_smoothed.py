# correct: vertical quadrotor takeoff with lateral rotor drag whose lateral speed is sqrt(|v_xy|^2 + 1e-8), finite and differentiable at v_xy = 0
import numpy as np
import warp as wp

DT = wp.constant(0.02)
STEPS = 50
CD = wp.constant(0.12)


@wp.struct
class Body:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)
    att: wp.array(dtype=wp.quat)


@wp.func
def aero_drag(v: wp.vec3):
    lat = wp.vec3(v[0], v[1], 0.0)
    speed = wp.sqrt(wp.dot(lat, lat) + 1.0e-8)
    return -CD * speed * lat - 0.02 * v


@wp.kernel
def fly(b: Body, ctrl: wp.array(dtype=wp.vec4), out: Body):
    i = wp.tid()
    u = ctrl[0]
    q = b.att[i] * wp.quat_rpy(DT * u[1], DT * u[2], DT * u[3])
    q = wp.normalize(q)
    f = wp.quat_rotate(q, wp.vec3(0.0, 0.0, u[0])) + wp.vec3(0.0, 0.0, -9.81) + aero_drag(b.vel[i])
    v = b.vel[i] + DT * f
    out.vel[i] = v
    out.pos[i] = b.pos[i] + DT * v
    out.att[i] = q


@wp.kernel
def goal_cost(b: Body, goal: wp.vec3, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = b.pos[i] - goal
    wp.atomic_add(cost, 0, wp.dot(d, d))


def make_body(n):
    b = Body()
    b.pos = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    b.vel = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    b.att = wp.array([wp.quat_identity()] * n, dtype=wp.quat, requires_grad=True)
    return b


PARAMS0 = np.array([10.5, 0.0, 0.0])


def evaluate(p):
    ctrl = wp.array([wp.vec4(p[0], p[1], p[2], 0.0)], dtype=wp.vec4, requires_grad=True)
    b = make_body(2)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            nb = make_body(2)
            wp.launch(fly, dim=2, inputs=[b, ctrl], outputs=[nb])
            b = nb
        wp.launch(goal_cost, dim=2, inputs=[b, wp.vec3(0.3, 0.5, 1.5)], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), ctrl.grad.numpy()[0, :3].copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("goal cost", loss, "grad", g)
