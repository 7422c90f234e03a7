# correct: b10 (atomic_replay): the bubble survival reads the previous step's head height, not the array the launch accumulates into.
"""Lager head retention in a foam column: each time step, rising bubbles of
each glass add their gas to the head, with a survival probability that drops
with the current head height (drainage), and the existing head collapses at a
first-order rate. The drainage coefficient and the collapse rate are fitted to
head heights read from video of four glasses.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_GLASS = 4
N_BUB = 24
N_STEP = 10
DT = 0.5
rng = np.random.default_rng(11)
BUB_GLASS = np.repeat(np.arange(N_GLASS), N_BUB // N_GLASS).astype(np.int32)
BUB_VOL = rng.uniform(0.05, 0.15, N_BUB)
HEAD_OBS = np.array([[0.35, 0.6, 0.8, 0.95, 1.05, 1.12, 1.17, 1.2, 1.22, 1.23]] * N_GLASS) * np.array([[1.0], [0.9], [1.1], [0.95]])
PARAMS0 = np.array([0.6, 0.15])


@wp.kernel
def collapse(head: wp.array(dtype=float), p: wp.array(dtype=float), head_next: wp.array(dtype=float)):
    g = wp.tid()
    head_next[g] = head[g] * wp.exp(-p[1] * DT)


@wp.kernel
def bubble_rise(glass: wp.array(dtype=wp.int32), vol: wp.array(dtype=float), head: wp.array(dtype=float),
                p: wp.array(dtype=float), head_next: wp.array(dtype=float)):
    b = wp.tid()
    g = glass[b]
    h = head[g]
    survive = wp.exp(-p[0] * h)
    wp.atomic_add(head_next, g, vol[b] * survive)


@wp.kernel
def head_loss(head: wp.array(dtype=float), obs: wp.array(dtype=float), t: int, loss: wp.array(dtype=float)):
    g = wp.tid()
    r = head[g] - obs[g * N_STEP + t]
    wp.atomic_add(loss, 0, r * r)


def evaluate(p_np):
    p = wp.array(p_np, dtype=float, requires_grad=True)
    glass = wp.array(BUB_GLASS, dtype=wp.int32)
    vol = wp.array(BUB_VOL, dtype=float)
    obs = wp.array(HEAD_OBS.ravel(), dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    heads = [wp.zeros(N_GLASS, dtype=float, requires_grad=True) for _ in range(N_STEP + 1)]
    tape = wp.Tape()
    with tape:
        for t in range(N_STEP):
            wp.launch(collapse, dim=N_GLASS, inputs=[heads[t], p], outputs=[heads[t + 1]])
            wp.launch(bubble_rise, dim=N_BUB, inputs=[glass, vol, heads[t], p], outputs=[heads[t + 1]])
            wp.launch(head_loss, dim=N_GLASS, inputs=[heads[t + 1], obs, t], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), p.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        val, g = evaluate(p)
        p -= 0.005 * g
    print(f"head misfit {val:.5f}  drainage {p[0]:.3f}/cm  collapse {p[1]:.3f}/s")
