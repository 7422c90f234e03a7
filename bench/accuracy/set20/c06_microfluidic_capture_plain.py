# correct: b06 (inplace_op): the depletion kernel in _chip_plain.py rescales a local copy of the inlet concentration and stores the outlet once.
"""Microfluidic immunoassay chip: analyte depletion along eight serpentine
capture channels of different lengths. The capture rate constant and the
mass-transport (boundary-layer) factor are fitted to outlet concentrations
measured by fluorescence.
"""
import numpy as np
import warp as wp

from _chip_plain import ChipGeometry, capture_loss, deplete

wp.config.quiet = True

N_CH = 8
LENGTH_MM = np.array([5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0])
INLET_NM = np.array([10.0, 10.0, 10.0, 10.0, 20.0, 20.0, 20.0, 20.0])
OUTLET_OBS = np.array([7.08, 5.1, 3.68, 2.61, 3.78, 2.72, 1.39, 0.71])
PARAMS0 = np.array([0.9, 1.5])


class CaptureChip:
    def __init__(self):
        self.geom = ChipGeometry()
        self.geom.height_um = 50.0
        self.geom.flow_ul_min = 2.0
        self.geom.width_um = 200.0
        self.inlet = wp.array(INLET_NM, dtype=float)
        self.length = wp.array(LENGTH_MM, dtype=float)
        self.obs = wp.array(OUTLET_OBS, dtype=float)

    def loss_and_grad(self, p_np):
        p = wp.array(p_np, dtype=float, requires_grad=True)
        conc = wp.zeros(N_CH, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(deplete, dim=N_CH, inputs=[self.geom, self.inlet, self.length, p], outputs=[conc])
            wp.launch(capture_loss, dim=N_CH, inputs=[conc, self.obs], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), p.grad.numpy().copy()


CHIP = CaptureChip()


def evaluate(p_np):
    return CHIP.loss_and_grad(p_np)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(20):
        val, g = evaluate(p)
        p -= 2.0e-4 * g
    print(f"outlet misfit {val:.4f}  capture rate {p[0]:.3f}  transport factor {p[1]:.3f}")
