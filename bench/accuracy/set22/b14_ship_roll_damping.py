"""Ship roll in beam seas: fit the roll damping and the nonlinear righting-arm coefficient from an inclinometer record."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SHIP = 8
N_STEP = 12
DT = 0.25
RING = 3  # expect: ring_buffer
rng = np.random.default_rng(55)
WAVE_AMP = rng.uniform(0.05, 0.15, N_SHIP).astype(np.float32)
WAVE_W = rng.uniform(0.6, 1.2, N_SHIP).astype(np.float32)


@wp.kernel
def roll_step(p: wp.array(dtype=float), amp: wp.array(dtype=float), omega: wp.array(dtype=float), t: float,
              s: wp.array(dtype=wp.vec2), s_next: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    phi = s[i][0]
    rate = s[i][1]
    righting = 1.2 * wp.sin(phi) * (1.0 + p[1] * phi * phi)
    acc = amp[i] * wp.sin(omega[i] * t) - p[0] * rate - righting
    rate_new = rate + DT * acc
    s_next[i] = wp.vec2(phi + DT * rate_new, rate_new)


@wp.kernel
def incl_err(s: wp.array(dtype=wp.vec2), obs: wp.array(dtype=float), k: int, loss: wp.array(dtype=float)):
    i = wp.tid()
    r = (s[i][0] - obs[k * N_SHIP + i]) * 10.0
    wp.atomic_add(loss, 0, r * r)


def _simulate_np(c=0.35, k3=0.8):
    phi, rate = np.full(N_SHIP, 0.2), np.zeros(N_SHIP)
    out = []
    for k in range(N_STEP):
        acc = WAVE_AMP * np.sin(WAVE_W * k * DT) - c * rate - 1.2 * np.sin(phi) * (1 + k3 * phi * phi)
        rate = rate + DT * acc
        phi = phi + DT * rate
        out.append(phi.copy())
    return np.array(out, dtype=np.float32).ravel()


OBS = wp.array(_simulate_np(), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    amp, omega = wp.array(WAVE_AMP, dtype=float), wp.array(WAVE_W, dtype=float)
    ring = [wp.zeros(N_SHIP, dtype=wp.vec2, requires_grad=True) for _ in range(RING)]
    ring[0].assign(np.tile(np.array([0.2, 0.0], np.float32), (N_SHIP, 1)))
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(N_STEP):
            cur, nxt = ring[k % RING], ring[(k + 1) % RING]
            wp.launch(roll_step, dim=N_SHIP, inputs=[params, amp, omega, float(k) * DT, cur], outputs=[nxt])
            wp.launch(incl_err, dim=N_SHIP, inputs=[nxt, OBS, k], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [0.25, 0.5]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.01 * g
    print("roll fit loss %.5f params %s" % (l, p))
