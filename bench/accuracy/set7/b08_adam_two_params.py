"""Fit a logistic demand curve (slope w, offset b) to sales data with warp.optim.Adam."""
import numpy as np
import warp as wp
from warp.optim import Adam

M = 64
rng = np.random.default_rng(3)
PRICE = rng.uniform(0.0, 4.0, M).astype(np.float32)
SOLD = (1.0 / (1.0 + np.exp(1.7 * PRICE - 3.0)) + 0.02 * rng.normal(size=M)).astype(np.float32)


@wp.kernel
def demand_loss(price: wp.array(dtype=float), sold: wp.array(dtype=float), w: wp.array(dtype=float),
                b: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    pred = 1.0 / (1.0 + wp.exp(w[0] * price[i] - b[0]))
    r = pred - sold[i]
    wp.atomic_add(loss, 0, r * r / float(M))


class DemandModel:
    def __init__(self, w0, b0):
        self.w = wp.array([w0], dtype=float, requires_grad=True)
        self.b = wp.array([b0], dtype=float, requires_grad=True)
        self.price = wp.array(PRICE)
        self.sold = wp.array(SOLD)
        self.opt = Adam([self.w, self.b], lr=0.05)
        self.history = []

    def loss_tape(self):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(demand_loss, dim=M, inputs=[self.price, self.sold, self.w, self.b], outputs=[loss])
        return loss, tape

    def zero_grad(self):
        self.w.grad.zero_()  # expect: missing_zero

    def train(self, iters):
        for it in range(iters):
            loss, tape = self.loss_tape()
            tape.backward(loss)
            self.history.append((self.w.numpy()[0], self.b.numpy()[0], self.w.grad.numpy()[0], self.b.grad.numpy()[0]))
            self.opt.step([self.w.grad, self.b.grad])
            self.zero_grad()
        return float(loss.numpy()[0])


def loss_at(w, b):
    m = DemandModel(w, b)
    return float(m.loss_tape()[0].numpy()[0])


def verify():
    m = DemandModel(0.5, 0.5)
    m.train(6)
    ad, fd = [], []
    for w, b, gw, gb in m.history:
        h = 1e-3
        ad += [gw, gb]
        fd += [(loss_at(w + h, b) - loss_at(w - h, b)) / (2 * h), (loss_at(w, b + h) - loss_at(w, b - h)) / (2 * h)]
    return np.array(ad), np.array(fd)


def main():
    m = DemandModel(0.5, 0.5)
    print("final loss", m.train(30), "w", m.w.numpy(), "b", m.b.numpy())


if __name__ == "__main__":
    main()
