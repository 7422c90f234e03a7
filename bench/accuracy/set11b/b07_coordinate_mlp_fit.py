"""A tiny coordinate network (1 -> 4 -> 1, tanh) fitted to a 1-D signal,
written with plain Warp arrays: one kernel per layer."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 64
HID = 4
# parameters: first-layer weights (4), first-layer biases (4), output weights (4)
PARAMS0 = [1.2, -0.8, 2.0, 0.5, 0.1, -0.3, 0.4, 0.0, 0.7, -0.5, 0.3, 0.9]

XS = np.linspace(-1.0, 1.0, N).astype(np.float32)
YS = (np.sin(3.0 * XS) + 0.3 * XS * XS).astype(np.float32)


@wp.kernel
def layer1(x: wp.array(dtype=float), w1: wp.array(dtype=float), b1: wp.array(dtype=float),
           h: wp.array2d(dtype=float)):
    i, k = wp.tid()
    h[i, k] = wp.tanh(w1[k] * x[i] + b1[k])


@wp.kernel
def layer2(h: wp.array2d(dtype=float), w2: wp.array(dtype=float), y: wp.array(dtype=float)):
    i, k = wp.tid()
    wp.atomic_add(y, i, w2[k] * h[i, k])


@wp.kernel
def mse(y: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = y[i] - target[i]
    wp.atomic_add(loss, 0, d * d / float(y.shape[0]))


class Field:
    def __init__(self, p):
        p = np.asarray(p, dtype=np.float32)
        self.w1 = wp.array(p[0:HID], dtype=float, requires_grad=True)
        self.b1 = wp.array(p[HID:2 * HID], dtype=float, requires_grad=True)
        self.w2 = wp.array(p[2 * HID:3 * HID], dtype=float, requires_grad=True)

    def params(self):
        return [self.w1, self.b1, self.w2]

    def __call__(self, x):
        h = wp.zeros((x.shape[0], HID), dtype=float)  # expect: requires_grad
        y = wp.zeros(x.shape[0], dtype=float, requires_grad=True)
        wp.launch(layer1, dim=(x.shape[0], HID), inputs=[x, self.w1, self.b1], outputs=[h])
        wp.launch(layer2, dim=(x.shape[0], HID), inputs=[h, self.w2], outputs=[y])
        return y


def evaluate(p):
    net = Field(p)
    x = wp.array(XS, dtype=float)
    target = wp.array(YS, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        y = net(x)
        wp.launch(mse, dim=N, inputs=[y, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([a.grad.numpy() for a in net.params()])


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(200):
        l, g = evaluate(p)
        p -= 0.1 * g
        if it % 50 == 0:
            print(f"iter {it:3d} mse {l:.5f}")
