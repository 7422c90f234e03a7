# correct: wp.copy runs on the tape inside the time loop, but its destinations are the frame buffers, fresh arrays no launch has read before the copy.
"""Nonlinear string u_tt = c^2 u_xx - k u^3 (fixed ends): fit the wave speed
and the cubic stiffness to four recorded frames of the string."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 40
STEPS = 40
FRAME_EVERY = 10
DT = 0.01
DX = 1.0 / (N + 1)
PARAMS0 = [0.9, 3.0]
TRUE_PARAMS = [1.0, 5.0]


@wp.kernel
def string_step(state: wp.array(dtype=wp.vec2), prm: wp.array(dtype=float), out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    n = state.shape[0]
    u = state[i][0]
    ul = float(0.0)
    ur = float(0.0)
    if i > 0:
        ul = state[i - 1][0]
    if i < n - 1:
        ur = state[i + 1][0]
    acc = prm[0] * prm[0] * (ul - 2.0 * u + ur) / (DX * DX) - prm[1] * u * u * u
    v = state[i][1] + DT * acc
    out[i] = wp.vec2(u + DT * v, v)


@wp.kernel
def frame_loss(frame: wp.array(dtype=wp.vec2), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = frame[i][0] - obs[i]
    wp.atomic_add(loss, 0, d * d)


def pluck():
    x = (np.arange(N) + 1) * DX
    u = np.where(x < 0.3, x / 0.3, (1.0 - x) / 0.7) * 0.8
    return np.stack([u, np.zeros(N)], axis=1).astype(np.float32)


def record(prm, requires_grad=False):
    state = wp.array(pluck(), dtype=wp.vec2, requires_grad=requires_grad)
    frames = []
    for s in range(STEPS):
        nxt = wp.zeros_like(state)
        wp.launch(string_step, dim=N, inputs=[state, prm], outputs=[nxt])
        state = nxt
        if (s + 1) % FRAME_EVERY == 0:
            frame = wp.empty_like(state)
            wp.copy(frame, state)
            frames.append(frame)
    return frames


OBS = [f.numpy()[:, 0].copy() for f in record(wp.array(TRUE_PARAMS, dtype=float))]


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    obs = [wp.array(o, dtype=float) for o in OBS]
    tape = wp.Tape()
    with tape:
        frames = record(prm, requires_grad=True)
        for f, o in zip(frames, obs):
            wp.launch(frame_loss, dim=N, inputs=[f, o], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(8):
        l, g = evaluate(p)
        p -= 0.01 * g / max(1.0, np.linalg.norm(g))
        print(f"iter {it} loss {l:.5f} c {p[0]:.3f} k {p[1]:.3f}")
