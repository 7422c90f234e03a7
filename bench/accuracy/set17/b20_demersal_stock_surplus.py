"""Demersal fish stock assessment: fit intrinsic growth r, carrying capacity K
and survey catchability q (per 1000 t) of a Schaefer surplus-production model (helper
_stock.py) to trawl-survey indices of three stocks with log-normal errors."""
import numpy as np
import warp as wp

from _stock import project

wp.config.quiet = True
wp.set_device("cpu")

N_STOCK = 3
N_YEAR = 25
yr = np.arange(N_YEAR)
CATCH_NP = np.stack([80 + 40 * np.sin(yr / 5.0), 60 + 2.0 * yr, 120 - 3.0 * yr]).astype(np.float32)
CATCH = wp.array(CATCH_NP, dtype=float)
B0 = wp.array(np.array([900.0, 700.0, 1000.0], dtype=np.float32), dtype=float)


def survey(p_np):
    idx = wp.zeros((N_STOCK, N_YEAR), dtype=float)
    project(wp.array(np.asarray(p_np, dtype=np.float32), dtype=float), B0, CATCH, idx)
    return idx.numpy().astype(np.float64)


OBS = survey([0.42, 1100.0, 2.1]) * np.exp(0.05 * np.sin(np.arange(N_STOCK * N_YEAR) * 2.3)).reshape(N_STOCK, N_YEAR)
PARAMS0 = np.array([0.38, 1000.0, 2.0])
FD_EPS = np.array([1e-4, 0.1, 1e-3])


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    idx = wp.zeros((N_STOCK, N_YEAR), dtype=float, requires_grad=True)
    b0 = wp.clone(B0, requires_grad=True)
    tape = wp.Tape()
    with tape:
        project(p_w, b0, CATCH, idx)
    lr = np.log(idx.numpy().astype(np.float64)) - np.log(OBS)
    tape.backward(grads={idx: wp.array((lr / idx.numpy()).astype(np.float32), dtype=float)})
    return 0.5 * float(np.sum(lr * lr)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"survey log misfit {L:.5f}; grad [r, K, q] = {g}")
