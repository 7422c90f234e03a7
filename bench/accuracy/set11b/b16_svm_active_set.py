"""Linear support-vector classifier with a squared hinge loss: only the
margin violators are gathered into a compact list, which the loss sums."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 40
rng = np.random.default_rng(5)
LABELS = np.where(np.arange(N) % 2 == 0, 1.0, -1.0).astype(np.float32)
FEATS = (rng.normal(size=(N, 2)) + 0.9 * LABELS[:, None] * np.array([1.0, 0.6])).astype(np.float32)
PARAMS0 = [0.4, 0.2, 0.1]   # w0, w1, b
REG = 0.05


@wp.kernel
def gather_violators(x: wp.array(dtype=wp.vec2), y: wp.array(dtype=float), wb: wp.array(dtype=float),
                     count: wp.array(dtype=wp.int32), viol: wp.array(dtype=float)):
    i = wp.tid()
    score = wb[0] * x[i][0] + wb[1] * x[i][1] + wb[2]
    m = 1.0 - y[i] * score
    if m > 0.0:
        slot = wp.atomic_add(count, 0, 1)  # expect: atomic_replay
        viol[slot] = m * m


@wp.kernel
def svm_objective(viol: wp.array(dtype=float), wb: wp.array(dtype=float), inv_n: float, reg: float,
                  loss: wp.array(dtype=float)):
    k = wp.tid()
    wp.atomic_add(loss, 0, inv_n * viol[k])
    if k == 0:
        wp.atomic_add(loss, 0, reg * (wb[0] * wb[0] + wb[1] * wb[1]))


def evaluate(p):
    wb = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(FEATS, dtype=wp.vec2)
    y = wp.array(LABELS, dtype=float)
    count = wp.zeros(1, dtype=wp.int32)
    viol = wp.zeros(N, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(gather_violators, dim=N, inputs=[x, y, wb], outputs=[count, viol])
        wp.launch(svm_objective, dim=N, inputs=[viol, wb, 1.0 / N, REG], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), wb.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.3 * g
        if it % 10 == 0:
            print(f"iter {it} hinge^2 objective {l:.4f} w {np.round(p, 3)}")
