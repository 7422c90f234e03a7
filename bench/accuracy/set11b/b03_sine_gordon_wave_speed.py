"""Estimate the wave speed and the pendulum-chain coupling of a sine-Gordon
field u_tt = c^2 u_xx - g sin(u) from a snapshot at the final time.
State per node: (u, u_t), symplectic Euler, periodic domain."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 48
STEPS = 40
DT = 0.02
L = 6.0
PARAMS0 = [1.1, 0.8]      # c, g
TRUE_PARAMS = [1.0, 1.2]


@wp.kernel
def sg_step(state: wp.array(dtype=wp.vec2), prm: wp.array(dtype=float), dx: float, dt: float,
            out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    n = state.shape[0]
    s = state[i]
    ul = state[(i + n - 1) % n][0]
    ur = state[(i + 1) % n][0]
    c = prm[0]
    acc = c * c * (ul - 2.0 * s[0] + ur) / (dx * dx) - prm[1] * wp.sin(s[0])
    v = s[1] + dt * acc
    out[i] = wp.vec2(s[0] + dt * v, v)


@wp.kernel
def snapshot_loss(state: wp.array(dtype=wp.vec2), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = state[i][0] - obs[i]
    wp.atomic_add(loss, 0, d * d)


def kink_initial():
    x = (np.arange(N) + 0.5) / N * L - 0.5 * L
    u = 2.0 * np.exp(-x * x) * np.cos(1.5 * x)
    v = 0.8 * np.exp(-((x - 1.0) ** 2))
    return np.stack([u, v], axis=1).astype(np.float32)


def rollout(prm, state):
    dx = L / N
    for _ in range(STEPS):
        nxt = wp.empty_like(state)
        wp.launch(sg_step, dim=N, inputs=[state, prm, dx, DT], outputs=[nxt])
        wp.copy(state, nxt)  # expect: overwrite
    return state


def observe(p):
    st = wp.array(kink_initial(), dtype=wp.vec2)
    return rollout(wp.array(p, dtype=float), st).numpy()[:, 0].copy()


OBS = observe(TRUE_PARAMS)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    state = wp.array(kink_initial(), dtype=wp.vec2, requires_grad=True)
    obs = wp.array(OBS, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        final = rollout(prm, state)
        wp.launch(snapshot_loss, dim=N, inputs=[final, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = evaluate(p)
        p -= 0.02 * g
        print(f"iter {it} loss {l:.5f} c {p[0]:.4f} g {p[1]:.4f}")
