"""Channel bathymetry from tide-gauge records of a surge event (1-D shallow water).

The bed is a piecewise-linear profile through five control depths. The
gradient of the gauge misfit of the calibration event drives the update; a
second, held-out event is simulated to report a validation misfit.
"""
import numpy as np
import warp as wp

from _channel import Channel, series_misfit, GAUGES

NSTEPS = 60
CAL_AMP, VAL_AMP = 0.25, 0.4
TRUE_BED = np.array([0.0, 0.35, 0.1, 0.5, 0.2], dtype=np.float32)


def observe(amp):
    sim = Channel(NSTEPS, requires_grad=False)
    return wp.clone(sim.run(wp.array(TRUE_BED, dtype=float), amp))


OBS_CAL = observe(CAL_AMP)
OBS_VAL = observe(VAL_AMP)
SIM = Channel(NSTEPS)


def validate(sim, ctrl):
    val = wp.zeros(1, dtype=float)
    eta = sim.run(ctrl, VAL_AMP)
    wp.launch(series_misfit, dim=(NSTEPS, len(GAUGES)), inputs=[eta, OBS_VAL], outputs=[val])
    return float(val.numpy()[0])


PARAMS0 = [0.1, 0.2, 0.2, 0.3, 0.3]
FD_EPS = 1e-2


def evaluate(p, log=False):
    ctrl = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        eta = SIM.run(ctrl, CAL_AMP)
        wp.launch(series_misfit, dim=(NSTEPS, len(GAUGES)), inputs=[eta, OBS_CAL], outputs=[loss])
    val_loss = validate(SIM, ctrl)  # expect: untaped_write
    if log:
        print(f"  validation misfit {val_loss:.4e}")
    tape.backward(loss)
    return float(loss.numpy()[0]), ctrl.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        f, g = evaluate(p, log=True)
        print(f"iter {it}: gauge misfit {f:.4e}  dL/dbed {np.round(g, 4)}")
        p = p - 0.5 * g
