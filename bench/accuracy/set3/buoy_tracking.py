"""Identify the mooring stiffness and damping of a buoy from a long heave record, processed in windows."""
import numpy as np
import warp as wp

DT = 0.05
WINDOW = 10
N_WINDOWS = 4


@wp.kernel
def heave_step(
    z: wp.array(dtype=float),
    w: wp.array(dtype=float),
    params: wp.array(dtype=float),
    t: float,
    z_out: wp.array(dtype=float),
    w_out: wp.array(dtype=float),
):
    i = wp.tid()
    k = params[0]
    c = params[1]
    wave = 0.5 * wp.sin(1.3 * t + float(i))
    acc = -k * z[i] - 0.3 * z[i] * z[i] * z[i] - c * w[i] + wave
    wn = w[i] + DT * acc
    w_out[i] = wn
    z_out[i] = z[i] + DT * wn


@wp.kernel
def track_cost(z: wp.array(dtype=float), obs: wp.array(dtype=float), cost: wp.array(dtype=float)):
    i = wp.tid()
    d = z[i] - obs[i]
    wp.atomic_add(cost, 0, d * d)


n_buoys = 3
T = WINDOW * N_WINDOWS
rng = np.random.default_rng(6)
obs_np = (0.3 * np.sin(0.9 * DT * np.arange(1, T + 1))[:, None] + 0.05 * rng.normal(size=(T, n_buoys))).astype(np.float32)
obs = [wp.array(obs_np[t], dtype=float) for t in range(T)]

params = wp.array([2.0, 0.4], dtype=float, requires_grad=True)
z_carry = wp.array([0.1, -0.2, 0.05], dtype=float)
w_carry = wp.zeros(n_buoys, dtype=float)

total_cost = 0.0
total_grad = np.zeros(2)
for win in range(N_WINDOWS):
    zs = [wp.clone(z_carry, requires_grad=True)] + [wp.zeros(n_buoys, dtype=float, requires_grad=True) for _ in range(WINDOW)]
    ws = [wp.clone(w_carry, requires_grad=True)] + [wp.zeros(n_buoys, dtype=float, requires_grad=True) for _ in range(WINDOW)]
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()  # expect: truncation
    with tape:
        for s in range(WINDOW):
            t = win * WINDOW + s
            wp.launch(heave_step, dim=n_buoys, inputs=[zs[s], ws[s], params, t * DT], outputs=[zs[s + 1], ws[s + 1]])
            wp.launch(track_cost, dim=n_buoys, inputs=[zs[s + 1], obs[t]], outputs=[cost])
    tape.backward(cost)
    total_cost += float(cost.numpy()[0])
    total_grad += params.grad.numpy()
    tape.zero()
    wp.copy(z_carry, zs[-1])
    wp.copy(w_carry, ws[-1])

print(f"tracking cost over {T} steps: {total_cost:.6f}")
print("d cost / d [k, c] =", total_grad)
