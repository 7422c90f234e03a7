# correct: b21 near-miss: the portions placed before each plate are summed in a static loop; the atomic add's return value is unused.
"""Conveyor-belt sushi bar: plates are placed in turn; each plate's freshness depends on how much was placed before it."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PLATE = 16
rng = np.random.default_rng(31)
SIZE = rng.uniform(0.5, 1.5, N_PLATE).astype(np.float32)
PARAMS0 = [1.2, 0.05]  # portion scale, staleness per placed portion


@wp.kernel
def place(p: wp.array(dtype=float), size: wp.array(dtype=float), belt: wp.array(dtype=float),
          fresh: wp.array(dtype=float)):
    i = wp.tid()
    portion = p[0] * size[i]
    wp.atomic_add(belt, 0, portion)
    before = float(0.0)
    for j in range(N_PLATE):
        if j < i:
            before += p[0] * size[j]
    fresh[i] = portion * wp.exp(-p[1] * before)


@wp.kernel
def score(fresh: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = fresh[i] - 0.8
    wp.atomic_add(loss, 0, e * e)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    belt = wp.zeros(1, dtype=float, requires_grad=True)
    fresh = wp.zeros(N_PLATE, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(place, dim=N_PLATE, inputs=[params, wp.array(SIZE, dtype=float), belt], outputs=[fresh])
        wp.launch(score, dim=N_PLATE, inputs=[fresh], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(10):
        loss, g = evaluate(p)
        if not np.all(np.isfinite(g)):
            break
        p = p - 0.01 * g / (1.0 + np.linalg.norm(g))
    print("sushi freshness loss", loss, "params", p)
