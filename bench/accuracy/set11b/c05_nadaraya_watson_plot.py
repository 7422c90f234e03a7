# correct: between recording and backward the script takes a NumPy view of the training inputs the tape read, but only reads it (the centred copy is a new array).
"""Nadaraya-Watson kernel regression: tune the (log) bandwidth and a (log)
output scale on a validation set; the training inputs are also shown in a
centred frame."""
import numpy as np
import warp as wp

wp.config.quiet = True

M = 30
V = 25
rng = np.random.default_rng(21)
XT = rng.uniform(-1.0, 1.0, size=(M, 2)).astype(np.float32)
YT = (np.sin(2.0 * XT[:, 0]) + XT[:, 1] ** 2).astype(np.float32)
XV = rng.uniform(-0.9, 0.9, size=(V, 2)).astype(np.float32)
YV = (np.sin(2.0 * XV[:, 0]) + XV[:, 1] ** 2).astype(np.float32) * 1.1
PARAMS0 = [np.log(0.4), 0.0]


@wp.kernel
def nw_sums(xv: wp.array(dtype=wp.vec2), xt: wp.array(dtype=wp.vec2), yt: wp.array(dtype=float),
            hyp: wp.array(dtype=float), num: wp.array(dtype=float), den: wp.array(dtype=float)):
    q, j = wp.tid()
    h = wp.exp(hyp[0])
    d = xv[q] - xt[j]
    w = wp.exp(-0.5 * wp.dot(d, d) / (h * h))
    wp.atomic_add(num, q, w * yt[j])
    wp.atomic_add(den, q, w)


@wp.kernel
def nw_loss(num: wp.array(dtype=float), den: wp.array(dtype=float), hyp: wp.array(dtype=float),
            yv: wp.array(dtype=float), loss: wp.array(dtype=float)):
    q = wp.tid()
    pred = wp.exp(hyp[1]) * num[q] / den[q]
    r = pred - yv[q]
    wp.atomic_add(loss, 0, r * r / float(num.shape[0]))


def evaluate(p, report=False):
    hyp = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    xt = wp.array(XT, dtype=wp.vec2)
    yt = wp.array(YT, dtype=float)
    xv = wp.array(XV, dtype=wp.vec2)
    yv = wp.array(YV, dtype=float)
    num = wp.zeros(V, dtype=float, requires_grad=True)
    den = wp.zeros(V, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(nw_sums, dim=(V, M), inputs=[xv, xt, yt, hyp], outputs=[num, den])
        wp.launch(nw_loss, dim=V, inputs=[num, den, hyp, yv], outputs=[loss])
    coords = xt.numpy()
    centred = coords - coords.mean(axis=0)
    if report:
        print("training inputs, centred spread:", np.round(centred.std(axis=0), 3))
    tape.backward(loss)
    return float(loss.numpy()[0]), hyp.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(20):
        l, g = evaluate(p, report=(it == 0))
        p -= 0.5 * g
        if it % 5 == 0:
            print(f"iter {it} val mse {l:.4f} bandwidth {np.exp(p[0]):.3f} scale {np.exp(p[1]):.3f}")
