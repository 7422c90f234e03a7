# correct: the state between fairing iterations is copied inside the tape with wp.clone (a differentiable copy); the .numpy() frames only feed a log.
"""Curve-shortening flow on a closed outline with a length-preserving
inflation term: fit the flow step and the inflation so that four iterations
bring a noisy scan to the design outline. Frames are kept for a plot."""
import numpy as np
import warp as wp

N = 24
ITERS = 4


@wp.kernel
def flow_step(x: wp.array(dtype=wp.vec2), params: wp.array(dtype=float), out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    prev = x[(i + N - 1) % N]
    nxt = x[(i + 1) % N]
    t = wp.normalize(nxt - prev)
    nrm = wp.vec2(t[1], -t[0])
    lap = 0.5 * (prev + nxt) - x[i]
    out[i] = x[i] + params[0] * lap + params[1] * nrm * wp.length(nxt - prev)


@wp.kernel
def outline_error(x: wp.array(dtype=wp.vec2), design: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - design[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def curves():
    th = np.linspace(0, 2 * np.pi, N, endpoint=False)
    design = np.stack([np.cos(th), 0.8 * np.sin(th)], 1)
    noisy = design * 0.95 + 0.05 * np.random.default_rng(6).standard_normal((N, 2))
    return design.astype(np.float32), noisy.astype(np.float32)


DESIGN, SCAN = curves()
PARAMS0 = [0.3, 0.02]


def evaluate(p, frames=None):
    frames = [] if frames is None else frames
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    state = wp.array(SCAN, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for it in range(ITERS):
            nxt = wp.empty_like(state)
            wp.launch(flow_step, dim=N, inputs=[state, params], outputs=[nxt])
            state = wp.clone(nxt)
            frames.append(state.numpy().copy())
        wp.launch(outline_error, dim=N, inputs=[state, wp.array(DESIGN, dtype=wp.vec2)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    frames = []
    for it in range(30):
        frames.clear()
        l, g = evaluate(p, frames)
        p -= 0.01 * g
    print(f"outline error {l:.4f} step {p[0]:.3f} inflation {p[1]:.4f} frames {len(frames)}")
