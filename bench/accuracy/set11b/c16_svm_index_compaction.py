# correct: violators are compacted with the return value of wp.atomic_add, but in an integer-only launch kept off the tape; the taped loss recomputes every margin from the compacted indices.
"""Linear SVM with squared hinge loss on a 2-D data set: the margin violators
are first gathered into an index list, then only they enter the loss."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 50
rng = np.random.default_rng(15)
LABELS = np.where(np.arange(N) % 3 == 0, 1.0, -1.0).astype(np.float32)
FEATS = (rng.normal(size=(N, 2)) + 1.0 * LABELS[:, None] * np.array([0.8, -0.7])).astype(np.float32)
PARAMS0 = [0.3, -0.2, 0.05]
REG = 0.05


@wp.kernel
def find_violators(x: wp.array(dtype=wp.vec2), y: wp.array(dtype=float), wb: wp.array(dtype=float),
                   count: wp.array(dtype=wp.int32), active: wp.array(dtype=wp.int32)):
    i = wp.tid()
    score = wb[0] * x[i][0] + wb[1] * x[i][1] + wb[2]
    if 1.0 - y[i] * score > 0.0:
        slot = wp.atomic_add(count, 0, 1)
        active[slot] = i


@wp.kernel
def hinge_sq(x: wp.array(dtype=wp.vec2), y: wp.array(dtype=float), wb: wp.array(dtype=float),
             active: wp.array(dtype=wp.int32), n_active: int, inv_n: float, loss: wp.array(dtype=float)):
    k = wp.tid()
    if k < n_active:
        i = active[k]
        score = wb[0] * x[i][0] + wb[1] * x[i][1] + wb[2]
        m = 1.0 - y[i] * score
        wp.atomic_add(loss, 0, inv_n * m * m)
    if k == 0:
        wp.atomic_add(loss, 0, REG * (wb[0] * wb[0] + wb[1] * wb[1]))


def evaluate(p):
    wb = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(FEATS, dtype=wp.vec2)
    y = wp.array(LABELS, dtype=float)
    count = wp.zeros(1, dtype=wp.int32)
    active = wp.zeros(N, dtype=wp.int32)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(find_violators, dim=N, inputs=[x, y, wb], outputs=[count, active], record_tape=False)
        n_active = int(count.numpy()[0])
        wp.launch(hinge_sq, dim=N, inputs=[x, y, wb, active, n_active, 1.0 / N], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), wb.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.3 * g
        if it % 10 == 0:
            print(f"iter {it} objective {l:.4f} w {np.round(p, 3)}")
