"""Three-layer MLP regression; activations go through one preallocated scratch buffer."""
import numpy as np
import warp as wp

from _nn_layers import dense, tanh_act, mse

B, D_IN, H, D_OUT = 16, 3, 8, 2
rng = np.random.default_rng(0)
X = rng.normal(size=(B, D_IN)).astype(np.float32)
Y = np.stack([np.sin(X[:, 0]), X[:, 1] * X[:, 2]], axis=1).astype(np.float32)
W1_0 = (0.5 * rng.normal(size=(H, D_IN))).astype(np.float32)
W2_0 = (0.5 * rng.normal(size=(H, H))).astype(np.float32)
W3_0 = (0.5 * rng.normal(size=(D_OUT, H))).astype(np.float32)
PARAMS0 = W2_0  # the hidden-to-hidden weights are what we check


class MLP:
    def __init__(self, W2):
        self.W1 = wp.array(W1_0, dtype=float, requires_grad=True)
        self.W2 = wp.array(W2, dtype=float, requires_grad=True)
        self.W3 = wp.array(W3_0, dtype=float, requires_grad=True)
        self.b1 = wp.zeros(H, dtype=float, requires_grad=True)
        self.b2 = wp.zeros(H, dtype=float, requires_grad=True)
        self.b3 = wp.zeros(D_OUT, dtype=float, requires_grad=True)
        # pre-activations get their own buffers, activations share one scratch
        self.h1 = wp.zeros((B, H), dtype=float, requires_grad=True)
        self.h2 = wp.zeros((B, H), dtype=float, requires_grad=True)
        self.act = wp.zeros((B, H), dtype=float, requires_grad=True)
        self.out = wp.zeros((B, D_OUT), dtype=float, requires_grad=True)

    def forward(self, x):
        wp.launch(dense, dim=(B, H), inputs=[self.W1, x, self.b1], outputs=[self.h1])
        wp.launch(tanh_act, dim=(B, H), inputs=[self.h1], outputs=[self.act])
        wp.launch(dense, dim=(B, H), inputs=[self.W2, self.act, self.b2], outputs=[self.h2])
        wp.launch(tanh_act, dim=(B, H), inputs=[self.h2], outputs=[self.act])  # expect: overwrite
        wp.launch(dense, dim=(B, D_OUT), inputs=[self.W3, self.act, self.b3], outputs=[self.out])
        return self.out


def evaluate(W2):
    net = MLP(W2)
    x = wp.array(X, dtype=float)
    y = wp.array(Y, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        pred = net.forward(x)
        wp.launch(mse, dim=(B, D_OUT), inputs=[pred, y, 1.0 / (B * D_OUT)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), net.W2.grad.numpy().copy()


def main():
    l, g = evaluate(W2_0)
    print("mse", l, "|dW2|", np.linalg.norm(g))


if __name__ == "__main__":
    main()
