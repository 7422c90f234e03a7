"""Calibrate the absorption coefficients of a three-layer glazing from the flux a
pyranometer reads behind it at four sun elevations (plate heating model)."""
import numpy as np
import warp as wp

from _optics import transmitted_flux

wp.config.quiet = True
wp.set_device("cpu")

THICKNESS = np.array([0.4, 0.6, 0.3])
COS_THETA = np.array([1.0, 0.85, 0.6, 0.4])
READINGS = np.array([310.0, 240.0, 120.0, 55.0])
FLUX_IN = 1000.0


@wp.kernel
def plate_temperature(flux: wp.array(dtype=wp.float64), absorptivity: wp.float64, h_loss: wp.float64,
                      temp: wp.array(dtype=wp.float64)):
    r = wp.tid()
    q = absorptivity * flux[r]
    temp[r] = q / h_loss


@wp.kernel
def reading_misfit(temp: wp.array(dtype=wp.float64), readings: wp.array(dtype=wp.float64), h_loss: wp.float64,
                   loss: wp.array(dtype=wp.float64)):
    r = wp.tid()
    d = (temp[r] * h_loss - readings[r]) / readings[r]
    wp.atomic_add(loss, 0, d * d)


class Glazing:
    def __init__(self):
        self.dz = wp.array(THICKNESS, dtype=wp.float64)
        self.cos = wp.array(COS_THETA, dtype=wp.float64)
        self.readings = wp.array(READINGS, dtype=wp.float64)
        self.n_rays = len(COS_THETA)

    def loss_and_grad(self, mu_np):
        mu = wp.array(mu_np, dtype=wp.float64, requires_grad=True)
        flux = wp.zeros(self.n_rays, dtype=wp.float64, requires_grad=True)
        temp = wp.zeros(self.n_rays, dtype=wp.float64, requires_grad=True)
        loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(transmitted_flux, dim=self.n_rays,
                      inputs=[mu, self.dz, len(THICKNESS), self.cos, wp.float64(FLUX_IN)], outputs=[flux])
            wp.launch(plate_temperature, dim=self.n_rays, inputs=[flux, wp.float64(0.95), wp.float64(12.0)],
                      outputs=[temp])
            wp.launch(reading_misfit, dim=self.n_rays, inputs=[temp, self.readings, wp.float64(12.0 / 0.95)],
                      outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), mu.grad.numpy().copy()


PARAMS0 = np.array([0.9, 0.5, 1.2])
FD_EPS = 1e-6


def evaluate(p):
    return Glazing().loss_and_grad(p)


def line_search_descent(mu, iters=6):
    g_model = Glazing()
    step = 1.0
    l, g = g_model.loss_and_grad(mu)
    for it in range(iters):
        while True:
            trial = np.maximum(mu - step * g, 1e-3)
            lt, gt = g_model.loss_and_grad(trial)
            if lt < l or step < 1e-4:
                break
            step *= 0.5
        mu, l, g = trial, lt, gt
        step *= 2.0
        print(f"iter {it}: misfit {l:.5f}  mu={np.round(mu, 4)}")
    return mu


if __name__ == "__main__":
    line_search_descent(PARAMS0.copy())
