"""Inducible promoter: fit a Hill activation model to reporter time courses.

Eight cell lines see inducer pulses of different amplitude; the reporter
obeys dx/dt = vmax a^2 / (K^2 + a^2) - delta x. Parameters (vmax, K, delta)
are fitted by least squares to the measured fluorescence.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CELL = 8
N_STEPS = 60
DT = 0.1
AMPS = np.linspace(0.2, 2.0, N_CELL).astype(np.float32)


@wp.kernel
def reporter_step(x: wp.array(dtype=float), amp: wp.array(dtype=float), prm: wp.array(dtype=float),
                  t: float, x_out: wp.array(dtype=float)):
    i = wp.tid()
    a = amp[i] * (1.0 - wp.exp(-2.0 * t))
    act = a * a / (prm[1] * prm[1] + a * a)
    x_out[i] = x[i] + DT * (prm[0] * act - prm[2] * x[i])


@wp.kernel
def sq_error(x: wp.array(dtype=float), obs: wp.array2d(dtype=float), k: int, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - obs[k, i]
    wp.atomic_add(loss, 0, d * d)


def simulate(prm, obs, loss):
    amp = wp.array(AMPS, dtype=float)
    x = wp.zeros(N_CELL, dtype=float, requires_grad=True)
    for n in range(N_STEPS):
        x_new = wp.empty_like(x)
        wp.launch(reporter_step, dim=N_CELL, inputs=[x, amp, prm, n * DT], outputs=[x_new])
        x = x_new
        if (n + 1) % 10 == 0 and obs is not None:
            wp.launch(sq_error, dim=N_CELL, inputs=[x, obs, (n + 1) // 10 - 1], outputs=[loss])
    return x


def measurements():
    prm = wp.array([2.0, 0.8, 0.7], dtype=float)
    amp = wp.array(AMPS, dtype=float)
    rows = []
    x = wp.zeros(N_CELL, dtype=float)
    for n in range(N_STEPS):
        x_new = wp.empty_like(x)
        wp.launch(reporter_step, dim=N_CELL, inputs=[x, amp, prm, n * DT], outputs=[x_new])
        x = x_new
        if (n + 1) % 10 == 0:
            rows.append(x.numpy() * (1.0 + 0.05 * np.sin(np.arange(N_CELL) + n)))
    return np.array(rows, dtype=np.float32)


OBS = measurements()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    obs = wp.array(OBS, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        simulate(prm, obs, loss)
    # per-cell normalised curves for the figure
    shown = obs.numpy()
    shown /= shown.max(axis=0)  # expect: untaped_write
    _figure = [(k, shown[:, k].round(3).tolist()) for k in range(N_CELL)]
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([1.6, 1.0, 0.6])

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"SSE {l:.5f}; d/d(vmax, K, delta) = {g}")
