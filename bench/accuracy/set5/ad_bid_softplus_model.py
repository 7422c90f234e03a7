"""Fit a softplus bid-response model; some auction features are huge (raw impression counts)."""
import numpy as np
import warp as wp

NS = 6
NF = 3


@wp.kernel
def softplus_response(feat: wp.array2d(dtype=wp.float32), w: wp.array(dtype=wp.float32), pred: wp.array(dtype=wp.float32)):
    i = wp.tid()
    z = feat[i, 0] * w[0] + feat[i, 1] * w[1] + feat[i, 2] * w[2]
    pred[i] = wp.where(z > 20.0, z, wp.log(1.0 + wp.exp(z)))  # expect: nonfinite


@wp.kernel
def weighted_error(pred: wp.array(dtype=wp.float32), obs: wp.array(dtype=wp.float32), wt: wp.array(dtype=wp.float32),
                   loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = pred[i] - obs[i]
    wp.atomic_add(loss, 0, wt[i] * d * d)


FEAT = np.array([[1.0, 0.5, 0.2], [0.3, 1.2, -0.4], [2.0, -0.5, 0.1], [0.1, 0.2, 900.0], [-1.0, 0.8, 0.3], [0.6, 0.6, 0.6]],
                dtype=np.float32)
OBS = np.array([1.1, 0.9, 1.6, 900.0, 0.4, 1.0], dtype=np.float32)
WT = np.array([1.0, 1.0, 1.0, 1e-6, 1.0, 1.0], dtype=np.float32)


def model_error(w):
    pred = wp.zeros(NS, dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(softplus_response, dim=NS, inputs=[wp.array(FEAT, dtype=wp.float32), w], outputs=[pred])
    wp.launch(weighted_error, dim=NS, inputs=[pred, wp.array(OBS, dtype=wp.float32), wp.array(WT, dtype=wp.float32)],
              outputs=[loss])
    return loss


def fit(iters=40, lr=0.05):
    w = wp.array(np.array([0.5, 0.5, 1.0], dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = model_error(w)
        tape.backward(loss)
        g = w.grad.numpy().copy()
        history.append((w.numpy().copy(), g))
        w.assign(w.numpy() - lr * g)
        tape.zero()
    print("w", w.numpy(), "loss", loss.numpy()[0])
    return history


if __name__ == "__main__":
    fit()
