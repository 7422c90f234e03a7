# correct: b22_column_lapse_rate_co2 (the untaped nudging launch before backward writes the second humidity buffer, not the one the tape read)
"""Fit lapse rate and CO2 absorber strength of a gray-gas column model to satellite OLR.

Sixteen atmospheric columns of different humidity; the model outgoing longwave
radiation is compared with observed OLR. The data-assimilation cycle nudges
the humidity toward the reanalysis once the model OLR has been computed (into
the second humidity buffer, swapped in after backward), and the gradient for
the parameter update is taken afterwards.
"""
import numpy as np
import warp as wp

from _column import N_COL, N_LEV, humidity, nudge_humidity, observed_olr, olr_misfit, outgoing_longwave

wp.config.quiet = True

PARAMS0 = np.array([6.0, 1.0])  # lapse rate [K/km], CO2 absorber scale
FD_EPS = np.array([1e-3, 1e-3])


class Column:
    def __init__(self):
        self.q = wp.array(humidity(), dtype=float)
        self.q_next = wp.zeros_like(self.q)
        self.q_ref = wp.array(humidity(scale=1.4), dtype=float)
        self.obs = wp.array(observed_olr(), dtype=float)

    def cycle(self, p):
        self.q.assign(humidity())
        prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        olr = wp.zeros(N_COL, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            outgoing_longwave(self.q, prm, olr)
            wp.launch(olr_misfit, dim=N_COL, inputs=[olr, self.obs], outputs=[loss])
        wp.launch(nudge_humidity, dim=(N_COL, N_LEV), inputs=[self.q, self.q_ref, 0.3], outputs=[self.q_next])
        tape.backward(loss)
        self.q, self.q_next = self.q_next, self.q
        return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


COLUMN = Column()


def evaluate(p):
    return COLUMN.cycle(p)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"mean squared OLR misfit {L:.2f} (W/m^2)^2; d/d(lapse, co2) = {g}")
