# correct: some arrays on the forward path lack requires_grad, but they are input-normalisation statistics computed outside the tape from data, not functions of the parameters
"""Coordinate network for a 2-D signed distance field (two circles), with
parameters in a wp.struct and inputs standardised by dataset statistics.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

HID = 8
BATCH = 64


@wp.struct
class SDFNet:
    W1: wp.array(dtype=wp.vec2)
    b1: wp.array(dtype=float)
    w2: wp.array(dtype=float)
    b2: wp.array(dtype=float)


@wp.kernel
def standardise(x: wp.array(dtype=wp.vec2), mean: wp.array(dtype=wp.vec2), inv_std: wp.array(dtype=wp.vec2), xs: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    xs[i] = wp.cw_mul(x[i] - mean[0], inv_std[0])


@wp.kernel
def hidden_layer(xs: wp.array(dtype=wp.vec2), net: SDFNet, h: wp.array2d(dtype=float)):
    i, j = wp.tid()
    h[i, j] = wp.tanh(wp.dot(net.W1[j], xs[i]) + net.b1[j])


@wp.kernel
def sdf_regression(h: wp.array2d(dtype=float), net: SDFNet, d_true: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = net.b2[0]
    for j in range(HID):
        d += net.w2[j] * h[i, j]
    r = d - d_true[i]
    wp.atomic_add(loss, 0, r * r / float(BATCH))


def sdf_two_circles(x):
    return np.minimum(np.linalg.norm(x - [0.3, 0.2], axis=1) - 0.4, np.linalg.norm(x - [-0.4, -0.3], axis=1) - 0.3)


def dataset(seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (BATCH, 2)).astype(np.float32) * np.array([1.0, 0.6], np.float32) + np.array([0.1, 0.0], np.float32)
    return x, sdf_two_circles(x).astype(np.float32)


X_NP, D_NP = dataset(0)
X = wp.array(X_NP, dtype=wp.vec2)
D_TRUE = wp.array(D_NP, dtype=float)
# dataset statistics (constants, computed once from the data)
MEAN = wp.array([X_NP.mean(0)], dtype=wp.vec2)
INV_STD = wp.array([1.0 / X_NP.std(0)], dtype=wp.vec2)


def make_net(p):
    p = np.asarray(p, np.float32)
    net = SDFNet()
    net.W1 = wp.array(p[: 2 * HID].reshape(HID, 2), dtype=wp.vec2, requires_grad=True)
    net.b1 = wp.array(p[2 * HID: 3 * HID], dtype=float, requires_grad=True)
    net.w2 = wp.array(p[3 * HID: 4 * HID], dtype=float, requires_grad=True)
    net.b2 = wp.array(p[4 * HID:], dtype=float, requires_grad=True)
    return net


PARAMS0 = np.random.default_rng(5).normal(0, 0.6, 4 * HID + 1)


def evaluate(p):
    net = make_net(p)
    xs = wp.zeros(BATCH, dtype=wp.vec2)  # standardised inputs: data only
    h = wp.zeros((BATCH, HID), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(standardise, dim=BATCH, inputs=[X, MEAN, INV_STD], outputs=[xs])
        wp.launch(hidden_layer, dim=(BATCH, HID), inputs=[xs, net], outputs=[h])
        wp.launch(sdf_regression, dim=BATCH, inputs=[h, net, D_TRUE], outputs=[loss])
    tape.backward(loss)
    g = np.concatenate([net.W1.grad.numpy().ravel(), net.b1.grad.numpy(), net.w2.grad.numpy(), net.b2.grad.numpy()])
    return float(loss.numpy()[0]), g.astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(200):
        loss, g = evaluate(p)
        p -= 0.2 * g
        if it % 50 == 0:
            print(f"iter {it:3d} sdf mse {loss:.5f}")
