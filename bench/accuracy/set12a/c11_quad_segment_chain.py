# correct: quadrotor hover rollout checkpointed into three taped segments; each earlier segment is seeded with both the position and the velocity adjoints of its checkpoint
import numpy as np
import warp as wp

from _quad import quad_step, target_cost

SEG = 20
NSEG = 3
N = 4
TARGET = (0.3, 0.1, 1.0)


def simulate(pos, vel, ctrl, steps):
    for _ in range(steps):
        p_new, v_new = wp.empty_like(pos), wp.empty_like(vel)
        wp.launch(quad_step, dim=N, inputs=[pos, vel, ctrl], outputs=[p_new, v_new])
        pos, vel = p_new, v_new
    return pos, vel


PARAMS0 = np.array([2.6, 0.06, 0.12])


def evaluate(p):
    ctrl = wp.array([wp.vec4(p[0], p[1], p[2], 0.0)], dtype=wp.vec4, requires_grad=True)
    start = np.zeros((N, 3))
    start[:, 2] = np.linspace(0.2, 0.5, N)
    pos = wp.array(start, dtype=wp.vec3, requires_grad=True)
    vel = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    segments = []
    for s in range(NSEG):
        tape = wp.Tape()
        with tape:
            p_out, v_out = simulate(pos, vel, ctrl, SEG)
        segments.append((tape, pos, vel, p_out, v_out))
        pos, vel = wp.clone(p_out), wp.clone(v_out)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    final = wp.Tape()
    with final:
        wp.launch(target_cost, dim=N, inputs=[pos, wp.vec3(*TARGET)], outputs=[cost])
    final.backward(cost)
    seed_p, seed_v = pos.grad, vel.grad
    for tape, p_in, v_in, p_out, v_out in reversed(segments):
        tape.backward(grads={p_out: seed_p, v_out: seed_v})
        seed_p, seed_v = p_in.grad, v_in.grad
    return float(cost.numpy()[0]), ctrl.grad.numpy()[0, :3].copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("hover cost", loss, "grad", g)
