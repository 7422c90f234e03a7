# correct: Emax SGD fit that clears the parameter gradient (and the effect gradient) at the top of every iteration before recording.
"""Sigmoid Emax pharmacodynamics of a beta-blocker (heart-rate reduction).

E(C) = E0 + Emax C^h / (EC50^h + C^h) fitted with warp.optim.SGD to the
heart-rate drop observed at eight steady-state plasma concentrations.
A fresh tape records every iteration.
"""
import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

CONC = np.array([2.0, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 320.0], dtype=np.float32)  # ng/mL
EFFECT_OBS = np.array([1.1, 2.3, 4.6, 8.2, 12.9, 17.0, 19.6, 21.0], dtype=np.float32)  # bpm


@wp.kernel
def emax(conc: wp.array(dtype=float), p: wp.array(dtype=float), effect: wp.array(dtype=float)):
    i = wp.tid()
    ch = wp.pow(conc[i] / p[2], p[3])
    effect[i] = p[0] + p[1] * ch / (1.0 + ch)


@wp.kernel
def sq_error(effect: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = effect[i] - obs[i]
    wp.atomic_add(loss, 0, r * r / 8.0)


conc_d = wp.array(CONC, dtype=float)
obs_d = wp.array(EFFECT_OBS, dtype=float)
PARAMS0 = [0.5, 20.0, 30.0, 1.2]


def objective(p_np):
    p = wp.array(np.asarray(p_np, dtype=np.float32), dtype=float)
    effect = wp.zeros(len(CONC), dtype=float)
    loss = wp.zeros(1, dtype=float)
    wp.launch(emax, dim=len(CONC), inputs=[conc_d, p], outputs=[effect])
    wp.launch(sq_error, dim=len(CONC), inputs=[effect, obs_d], outputs=[loss])
    return float(loss.numpy()[0])


def train(n_iter, lr=2.0e-3):
    p = wp.array(np.asarray(PARAMS0, dtype=np.float32), dtype=float, requires_grad=True)
    effect = wp.zeros(len(CONC), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    opt = warp.optim.SGD([p], lr=lr)
    history = []
    for it in range(n_iter):
        loss.zero_()
        p.grad.zero_()
        effect.grad.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(emax, dim=len(CONC), inputs=[conc_d, p], outputs=[effect])
            wp.launch(sq_error, dim=len(CONC), inputs=[effect, obs_d], outputs=[loss])
        tape.backward(loss)
        history.append((p.numpy().astype(np.float64), p.grad.numpy().astype(np.float64), float(loss.numpy()[0])))
        opt.step([p.grad])
    return p.numpy(), history


def verify():
    _, hist = train(6)
    p_k, g_k, _ = hist[-1]
    fd = np.zeros(len(p_k))
    for j in range(len(p_k)):
        h = 1e-3 * max(1.0, abs(p_k[j]))
        pp, pm = p_k.copy(), p_k.copy()
        pp[j] += h
        pm[j] -= h
        fd[j] = (objective(pp) - objective(pm)) / (2.0 * h)
    return g_k, fd


if __name__ == "__main__":
    p, hist = train(40)
    print(f"loss {hist[0][2]:.3f} -> {hist[-1][2]:.3f}  E0={p[0]:.2f} Emax={p[1]:.2f} EC50={p[2]:.1f} h={p[3]:.2f}")
