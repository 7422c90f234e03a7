"""Tune the PD gains shared by a swarm of eight point-mass drones so that each reaches
its assigned slot in a formation. Reports the mean per-drone cost."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N = 8
STEPS = 60
DT = 0.02


def make_step_kernel(max_accel):
    @wp.kernel
    def pd_step(x: wp.array(dtype=wp.vec2d), v: wp.array(dtype=wp.vec2d), goal: wp.array(dtype=wp.vec2d),
                gains: wp.array(dtype=wp.float64), dt: wp.float64,
                x_out: wp.array(dtype=wp.vec2d), v_out: wp.array(dtype=wp.vec2d)):
        i = wp.tid()
        u = gains[0] * (goal[i] - x[i]) - gains[1] * v[i]
        # smooth actuator saturation
        s = wp.float64(max_accel)
        u = s * u / wp.sqrt(s * s + wp.dot(u, u))
        vn = v[i] + dt * u
        v_out[i] = vn
        x_out[i] = x[i] + dt * vn

    return pd_step


@wp.kernel
def slot_cost(x: wp.array(dtype=wp.vec2d), v: wp.array(dtype=wp.vec2d), goal: wp.array(dtype=wp.vec2d),
              cost: wp.array(dtype=wp.float64)):
    i = wp.tid()
    d = x[i] - goal[i]
    cost[i] = wp.dot(d, d) + wp.float64(0.1) * wp.dot(v[i], v[i])


step_kernel = make_step_kernel(4.0)


def formation():
    ang = np.linspace(0, 2 * np.pi, N, endpoint=False)
    start = np.stack([np.cos(3 * ang) * 0.3, np.sin(ang) * 0.2], axis=1)
    goal = np.stack([np.cos(ang), np.sin(ang)], axis=1) * 1.2
    return start, goal


def rollout_and_grad(p):
    start, goal_np = formation()
    goal = wp.array(goal_np, dtype=wp.vec2d)
    gains = wp.array(p, dtype=wp.float64, requires_grad=True)
    xs = [wp.array(start, dtype=wp.vec2d, requires_grad=True)] + \
         [wp.zeros(N, dtype=wp.vec2d, requires_grad=True) for _ in range(STEPS)]
    vs = [wp.zeros(N, dtype=wp.vec2d, requires_grad=True) for _ in range(STEPS + 1)]
    cost = wp.zeros(N, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(STEPS):
            wp.launch(step_kernel, dim=N, inputs=[xs[k], vs[k], goal, gains, wp.float64(DT)],
                      outputs=[xs[k + 1], vs[k + 1]])
        wp.launch(slot_cost, dim=N, inputs=[xs[-1], vs[-1], goal], outputs=[cost])
    tape.backward(grads={cost: wp.ones(N, dtype=wp.float64)})  # expect: seeding
    mean_cost = float(cost.numpy().mean())
    return mean_cost, gains.grad.numpy().copy()


PARAMS0 = np.array([2.0, 1.0])
FD_EPS = 1e-6


def evaluate(p):
    return rollout_and_grad(p)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(6):
        c, g = rollout_and_grad(p)
        p = p - 0.3 * g
        print(f"iter {it}: mean cost {c:.5f}  kp={p[0]:.4f} kd={p[1]:.4f}")
