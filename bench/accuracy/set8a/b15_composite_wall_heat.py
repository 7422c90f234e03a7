"""Transient conduction through a three-layer composite wall with a convective cold face.

Infers the layer conductivities (kept in log space) and the film coefficient from the
cold-face temperature history."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

CELLS = 12
LAYERS = 3
STEPS = 150
DT = 0.002
DX = 1.0 / CELLS
SAMPLES = (50, 100, 150)
MEASURED = np.array([0.0205, 0.1090, 0.1872])


@wp.kernel
def layer_conductivity(log_k: wp.array(dtype=wp.float64), cells_per_layer: int, k: wp.array(dtype=wp.float64)):
    i = wp.tid()
    k[i] = wp.exp(log_k[i // cells_per_layer])


@wp.kernel
def diffuse(T: wp.array(dtype=wp.float64), k: wp.array(dtype=wp.float64), theta: wp.array(dtype=wp.float64),
            dt: wp.float64, dx: wp.float64, T_out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    n = T.shape[0]
    if i == 0:
        T_out[i] = wp.float64(1.0)  # hot face held fixed
        return
    # harmonic-mean face conductivities
    kw = wp.float64(2.0) * k[i] * k[i - 1] / (k[i] + k[i - 1])
    flux_w = kw * (T[i - 1] - T[i]) / dx
    flux_e = wp.float64(0.0)
    if i < n - 1:
        ke = wp.float64(2.0) * k[i] * k[i + 1] / (k[i] + k[i + 1])
        flux_e = ke * (T[i] - T[i + 1]) / dx
    else:
        flux_e = theta[LAYERS] * T[i]  # film coefficient, ambient at 0
    T_out[i] = T[i] + dt * (flux_w - flux_e) / dx


@wp.kernel
def face_misfit(T: wp.array(dtype=wp.float64), measured: wp.float64, loss: wp.array(dtype=wp.float64)):
    r = T[T.shape[0] - 1] - measured
    wp.atomic_add(loss, 0, r * r * wp.float64(1.0e3))


class WallModel:
    def __init__(self):
        self.k = wp.zeros(CELLS, dtype=wp.float64, requires_grad=True)
        self.T = [wp.zeros(CELLS, dtype=wp.float64, requires_grad=True) for _ in range(STEPS + 1)]
        self.loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)

    def forward(self, theta):
        wp.launch(layer_conductivity, dim=CELLS, inputs=[theta, CELLS // LAYERS], outputs=[self.k], record_tape=False)  # expect: truncation
        s = 0
        for n in range(STEPS):
            wp.launch(diffuse, dim=CELLS, inputs=[self.T[n], self.k, theta, wp.float64(DT), wp.float64(DX)],
                      outputs=[self.T[n + 1]])
            if n + 1 in SAMPLES:
                wp.launch(face_misfit, dim=1, inputs=[self.T[n + 1], wp.float64(MEASURED[s])], outputs=[self.loss])
                s += 1
        return self.loss


PARAMS0 = np.array([np.log(1.0), np.log(0.4), np.log(1.5), 2.0])
FD_EPS = 1e-6


def evaluate(p):
    model = WallModel()
    theta = wp.array(p, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        loss = model.forward(theta)
    tape.backward(loss)
    return float(loss.numpy()[0]), theta.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(6):
        l, g = evaluate(p)
        p = p - 0.2 * g
        print(f"iter {it}: misfit {l:.6f}  k={np.round(np.exp(p[:3]), 4)} h={p[3]:.4f}")
