"""Taubin (lambda|mu) fairing of a noisy closed curve: tune the two step factors so
that three fairing iterations bring the scanned outline back to the design
curve. A frame of the curve is stored after every iteration."""
import numpy as np
import warp as wp

N = 24
ITERS = 3


@wp.kernel
def laplacian_step(x: wp.array(dtype=wp.vec2), factors: wp.array(dtype=float), which: int,
                   out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    prev = x[(i + N - 1) % N]
    nxt = x[(i + 1) % N]
    w0 = 1.0 / wp.length(prev - x[i])
    w1 = 1.0 / wp.length(nxt - x[i])
    lap = (w0 * (prev - x[i]) + w1 * (nxt - x[i])) / (w0 + w1)
    out[i] = x[i] + factors[which] * lap


@wp.kernel
def outline_error(x: wp.array(dtype=wp.vec2), design: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - design[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def curves():
    th = np.linspace(0, 2 * np.pi, N, endpoint=False)
    design = np.stack([np.cos(th), 0.7 * np.sin(th)], 1)
    rng = np.random.default_rng(4)
    noisy = design + 0.06 * rng.standard_normal((N, 2))
    return design.astype(np.float32), noisy.astype(np.float32)


DESIGN, SCAN = curves()
PARAMS0 = [0.4, -0.4]


def evaluate(p, frames=None):
    frames = [] if frames is None else frames
    factors = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    design = wp.array(DESIGN, dtype=wp.vec2)
    state = wp.array(SCAN, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for it in range(ITERS):
            a = wp.empty_like(state)
            b = wp.empty_like(state)
            wp.launch(laplacian_step, dim=N, inputs=[state, factors, 0], outputs=[a])
            wp.launch(laplacian_step, dim=N, inputs=[a, factors, 1], outputs=[b])
            frames.append(b.numpy().copy())
            state = wp.array(frames[-1], dtype=wp.vec2, requires_grad=True)  # expect: truncation
        wp.launch(outline_error, dim=N, inputs=[state, design], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), factors.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.2 * g
    print(f"outline error {l:.4f} lambda {p[0]:.3f} mu {p[1]:.3f}")
