# correct: look-alike of b18 (leaf area from a canopy helper inside the daily growth loop), with the helper allocating LAI via wp.zeros_like of the requires_grad biomass.
"""Radiation-use-efficiency growth of winter wheat at four trial plots.

Daily above-ground biomass gain is RUE * PAR * (1 - exp(-k LAI)), with the
leaf area index derived from the current biomass by the canopy helper. RUE,
the extinction coefficient k and the specific leaf area are fitted to the
biomass cuts taken at the end of a 30-day spring window.
"""
import numpy as np
import warp as wp

from _canopy_like import leaf_area_index

wp.config.quiet = True

N_PLOT = 4
N_DAY = 30
PAR = 8.0 + 2.0 * np.sin(np.arange(N_DAY) / 5.0)  # MJ / m^2 / day
B0 = np.array([60.0, 75.0, 50.0, 90.0])  # g / m^2
B_CUT = np.array([420.0, 465.0, 380.0, 520.0])


@wp.kernel
def grow_day(par: wp.array(dtype=float), b: wp.array(dtype=float), lai: wp.array(dtype=float), par_in: float,
             b_next: wp.array(dtype=float)):
    i = wp.tid()
    b_next[i] = b[i] + par[0] * par_in * (1.0 - wp.exp(-par[1] * lai[i]))


@wp.kernel
def cut_misfit(b: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (b[i] - obs[i]) / 100.0
    wp.atomic_add(loss, 0, d * d)


def evaluate(p):
    par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    b = wp.array(B0, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for day in range(N_DAY):
            lai = leaf_area_index(par, b)
            b_next = wp.zeros(N_PLOT, dtype=float, requires_grad=True)
            wp.launch(grow_day, dim=N_PLOT, inputs=[par, b, lai, float(PAR[day])], outputs=[b_next])
            b = b_next
        wp.launch(cut_misfit, dim=N_PLOT, inputs=[b, wp.array(B_CUT, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), par.grad.numpy().copy()


PARAMS0 = [2.2, 0.5, 2.0]  # RUE (g/MJ), k, SLA (1e-2 m^2/g)
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print(f"biomass misfit {l:.4f}  gradient (RUE, k, SLA) = {g}")
