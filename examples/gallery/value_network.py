"""Tiny value network (one softplus hidden layer) regressed onto returns from a replay batch."""

import numpy as np
import warp as wp

STATE_DIM = 4
HIDDEN = 8


@wp.kernel
def hidden_layer(
    states: wp.array2d(dtype=float),
    w1: wp.array2d(dtype=float),
    b1: wp.array(dtype=float),
    hidden: wp.array2d(dtype=float),
):
    n, k = wp.tid()
    z = b1[k]
    for j in range(STATE_DIM):
        z += w1[k, j] * states[n, j]
    hidden[n, k] = wp.where(z > 30.0, z, wp.log(1.0 + wp.exp(z)))  # expect: TW403


@wp.kernel
def value_head(
    hidden: wp.array2d(dtype=float),
    w2: wp.array(dtype=float),
    b2: wp.array(dtype=float),
    returns: wp.array(dtype=float),
    loss: wp.array(dtype=float),
):
    n = wp.tid()
    v = b2[0]
    for k in range(HIDDEN):
        v += w2[k] * hidden[n, k]
    err = v - returns[n]
    wp.atomic_add(loss, 0, 0.5 * err * err)


class ValueNetwork:
    def __init__(self, seed=0):
        rng = np.random.default_rng(seed)
        self.w1 = wp.array(rng.normal(0.0, 0.5, (HIDDEN, STATE_DIM)).astype(np.float32), dtype=float, requires_grad=True)
        self.b1 = wp.array(np.zeros(HIDDEN, dtype=np.float32), dtype=float, requires_grad=True)
        self.w2 = wp.array(rng.normal(0.0, 0.3, HIDDEN).astype(np.float32), dtype=float, requires_grad=True)
        self.b2 = wp.array(np.zeros(1, dtype=np.float32), dtype=float, requires_grad=True)

    def parameters(self):
        return [self.w1, self.b1, self.w2, self.b2]

    def loss(self, states, returns, loss):
        batch = states.shape[0]
        hidden = wp.zeros((batch, HIDDEN), dtype=float, requires_grad=True)
        wp.launch(hidden_layer, dim=(batch, HIDDEN), inputs=[states, self.w1, self.b1], outputs=[hidden])  # note: TW407
        wp.launch(value_head, dim=batch, inputs=[hidden, self.w2, self.b2, returns], outputs=[loss])


def replay_batch(rng, batch=64):
    states = rng.normal(0.0, 1.0, (batch, STATE_DIM)).astype(np.float32)
    # raw (unnormalised) cart velocity readings occasionally spike
    states[::16, 1] *= 250.0
    returns = (np.tanh(states[:, 0]) + 0.1 * states[:, 2]).astype(np.float32)
    return states, returns


def main():
    rng = np.random.default_rng(7)
    net = ValueNetwork()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    lr = 1e-3
    for it in range(20):
        s_np, r_np = replay_batch(rng)
        states = wp.array(s_np, dtype=float)
        returns = wp.array(r_np, dtype=float)
        loss.zero_()
        tape = wp.Tape()
        with tape:
            net.loss(states, returns, loss)
        tape.backward(loss)
        grad_norm = np.sqrt(sum(float(np.sum(p.grad.numpy() ** 2)) for p in net.parameters()))
        if it % 5 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.4f} |grad| {grad_norm:.4f}")
        for p in net.parameters():
            p.assign(p.numpy() - lr * p.grad.numpy())
        tape.zero()

    print("final w2", np.round(net.w2.numpy(), 3))


if __name__ == "__main__":
    main()
