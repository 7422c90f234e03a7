# correct: Small value network with ELU activations, written as kernels; gradient of the TD loss w.r.t. the first layer.
"""Small value network with ELU activations, written as kernels; gradient of the TD loss w.r.t. the first layer."""
import numpy as np
import warp as wp

B, D, H = 32, 4, 16
rng = np.random.default_rng(2)
OBS = rng.uniform(-1.0, 1.0, (B, D)).astype(np.float32)
TARGET = (np.sin(OBS[:, 0]) + 0.5 * OBS[:, 1] * OBS[:, 2]).astype(np.float32)
W1_0 = (0.7 * rng.normal(size=(H, D))).astype(np.float32)
W2_0 = (0.3 * rng.normal(size=H)).astype(np.float32)


@wp.func
def elu(x: float):
    return wp.where(x > 0.0, x, wp.exp(x) - 1.0)


@wp.kernel
def hidden(obs: wp.array2d(dtype=float), W1: wp.array2d(dtype=float), h: wp.array2d(dtype=float)):
    n, j = wp.tid()
    acc = float(0.0)
    for k in range(D):
        acc += W1[j, k] * obs[n, k]
    h[n, j] = elu(acc)


@wp.kernel
def value_td_loss(h: wp.array2d(dtype=float), W2: wp.array(dtype=float), target: wp.array(dtype=float),
                  loss: wp.array(dtype=float)):
    n = wp.tid()
    v = float(0.0)
    for j in range(H):
        v += W2[j] * h[n, j]
    d = v - target[n]
    wp.atomic_add(loss, 0, d * d / float(B))


def evaluate(W1_np):
    W1 = wp.array(W1_np, dtype=float, requires_grad=True)
    W2 = wp.array(W2_0, dtype=float, requires_grad=True)
    h = wp.zeros((B, H), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(hidden, dim=(B, H), inputs=[wp.array(OBS), W1], outputs=[h])
        wp.launch(value_td_loss, dim=B, inputs=[h, W2, wp.array(TARGET)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), W1.grad.numpy().copy()


PARAMS0 = W1_0

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("td loss", l, "|grad W1|", np.linalg.norm(g))
