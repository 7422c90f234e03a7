"""Suspension footbridge: main-cable sag and hanger forces under panel loads
(parabolic cable, elastic stretch); cable horizontal tension and deck self-weight
fitted to surveyed sag at the hangers. After each fit the next survey's crowd
loading is staged into the load array."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PANEL = 12
SPAN = 60.0
X = ((np.arange(N_PANEL) + 0.5) * SPAN / N_PANEL).astype(np.float32)
CROWD = (1.0 + 0.6 * np.sin(np.arange(N_PANEL) * 0.7) ** 2).astype(np.float32)        # kN/m
CROWD_NEXT = (3.5 + 1.0 * np.cos(np.arange(N_PANEL) * 0.5)).astype(np.float32)   # festival crowd


@wp.func
def parabolic_sag(x: float, w: float, h: float):
    return w * x * (SPAN - x) / (2.0 * h)


@wp.kernel
def hanger_sag(p: wp.array(dtype=float), x: wp.array(dtype=float), crowd: wp.array(dtype=float),
               sag: wp.array(dtype=float)):
    i = wp.tid()
    h = p[0] * 1000.0                   # horizontal cable tension, kN
    w = p[1] * 2.0 + crowd[i]           # self-weight + crowd, kN/m
    stretch = 1.0 + w * w / (h * 4.0)
    sag[i] = parabolic_sag(x[i], w, h) * stretch


@wp.kernel
def survey_misfit(sag: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (sag[i] - obs[i]) * 10.0
    wp.atomic_add(loss, 0, d * d)


def _survey():
    w = 1.1 * 2.0 + CROWD.astype(np.float64)
    h = 0.85 * 1000.0
    return (w * X * (SPAN - X) / (2 * h) * (1 + w * w / (4 * h))).astype(np.float32)


OBS = _survey()
PARAMS0 = np.array([1.0, 0.9])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    crowd = wp.array(CROWD, dtype=float)
    sag = wp.zeros(N_PANEL, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(hanger_sag, dim=N_PANEL, inputs=[params, wp.array(X, dtype=float), crowd], outputs=[sag])
        wp.launch(survey_misfit, dim=N_PANEL, inputs=[sag, wp.array(OBS, dtype=float)], outputs=[loss])
    value = float(loss.numpy()[0])
    crowd.assign(CROWD_NEXT)  # expect: host_mutation
    tape.backward(loss)
    return value, params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.001 * g
    print(f"sag loss {loss:.5f}  H={1000 * p[0]:.0f} kN  deck weight={2 * p[1]:.2f} kN/m")
