# correct: one tape per flight segment with gradients summed; every segment restarts from its own logged state, so the objective is a sum of independent segment losses
import numpy as np
import warp as wp

DT = 0.1
SEG_LEN = 8
N_SEGS = 4


@wp.kernel
def glide_step(
    s: wp.array(dtype=wp.vec2),  # (speed, flight-path angle)
    coef: wp.array(dtype=float),  # drag, lift slope
    s_out: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    v = s[i][0]
    gam = s[i][1]
    vdot = -coef[0] * v * v - 9.81 * wp.sin(gam)
    gdot = coef[1] * v - 9.81 * wp.cos(gam) / v
    s_out[i] = wp.vec2(v + DT * vdot, gam + DT * gdot)


@wp.kernel
def log_cost(s: wp.array(dtype=wp.vec2), logged: wp.array(dtype=wp.vec2), cost: wp.array(dtype=float)):
    i = wp.tid()
    d = s[i] - logged[i]
    wp.atomic_add(cost, 0, d[0] * d[0] + 10.0 * d[1] * d[1])


rng = np.random.default_rng(3)
n_gliders = 2
starts_np = np.stack([rng.uniform(9.0, 12.0, (N_SEGS, n_gliders)), rng.uniform(-0.1, 0.1, (N_SEGS, n_gliders))], axis=2).astype(np.float32)
logged_np = (starts_np[:, None, :, :] + 0.05 * rng.normal(size=(N_SEGS, SEG_LEN, n_gliders, 2))).astype(np.float32)

coef = wp.array([0.02, 0.9], dtype=float, requires_grad=True)
start = wp.zeros(n_gliders, dtype=wp.vec2, requires_grad=True)

total_cost = 0.0
total_grad = np.zeros(2)
for seg in range(N_SEGS):
    wp.copy(start, wp.array(starts_np[seg], dtype=wp.vec2))
    states = [start] + [wp.zeros(n_gliders, dtype=wp.vec2, requires_grad=True) for _ in range(SEG_LEN)]
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(SEG_LEN):
            wp.launch(glide_step, dim=n_gliders, inputs=[states[k], coef], outputs=[states[k + 1]])
            wp.launch(log_cost, dim=n_gliders, inputs=[states[k + 1], wp.array(logged_np[seg, k], dtype=wp.vec2)], outputs=[cost])
    tape.backward(cost)
    total_cost += float(cost.numpy()[0])
    total_grad += coef.grad.numpy()
    tape.zero()

print("cost", total_cost, "grad", total_grad)
