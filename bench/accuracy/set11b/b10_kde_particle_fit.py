"""Move 12 particles so that their kernel density estimate matches a
bimodal reference density (hand-written gradient descent)."""
import numpy as np
import warp as wp

from _kde import G, BANDWIDTH, DensityFit, density_misfit, reference_density, splat

wp.config.quiet = True

POS0 = np.linspace(0.15, 0.85, 12)
LR = 0.02
ITERS = 3


def objective(pos):
    grid = wp.zeros(G, dtype=float)
    loss = wp.zeros(1, dtype=float)
    p = wp.array(pos.astype(np.float32), dtype=float)
    wp.launch(splat, dim=(len(pos), G), inputs=[p, 1.0 / len(pos), BANDWIDTH], outputs=[grid])
    wp.launch(density_misfit, dim=G, inputs=[grid, wp.array(reference_density(), dtype=float)], outputs=[loss])
    return float(loss.numpy()[0])


def run(iters, log=False):
    fit = DensityFit(POS0)
    for it in range(iters):
        at = fit.pos.numpy().astype(np.float64)
        loss, g = fit.loss_and_grad()
        fit.pos.assign(fit.pos.numpy() - LR * g)
        if log:
            print(f"iter {it} density misfit {loss:.5f}")
    return at, g


def verify():
    at, ad = run(ITERS)
    h = 1.0e-3
    fd = np.array([(objective(at + h * e) - objective(at - h * e)) / (2 * h) for e in np.eye(at.size)])
    return ad, fd


if __name__ == "__main__":
    run(10, log=True)
