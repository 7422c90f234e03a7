"""Coffee roasting: bean-probe temperature of a 1 kg drum roast, stepped with
Newton heating from the drum air plus an exothermic term after first crack.
The heat-transfer coefficient and the air temperature are fitted to the
roast-logger curve with a Huber loss on the host (the logger has spikes),
whose derivative is written into the curve's .grad before tape.backward().
"""
import numpy as np
import warp as wp

wp.config.quiet = True

DT = 10.0
N_STEP = 60
T_CHARGE = 25.0
DELTA = 3.0
_t = np.arange(1, N_STEP + 1) * DT
LOGGER = 230.0 - 205.0 * np.exp(-_t / 260.0) + np.where(_t > 420, 0.02 * (_t - 420), 0.0)
LOGGER[[12, 25, 41, 50]] += np.array([14.0, -11.0, 18.0, 9.0])
PARAMS0 = np.array([3.4, 236.0])  # h in 1e-3 / s, air temperature in C


@wp.kernel
def roast_step(temp: wp.array(dtype=float), p: wp.array(dtype=float), t_next: wp.array(dtype=float),
               curve: wp.array(dtype=float), k: int):
    tb = temp[0]
    exo = 0.004 * wp.max(tb - 195.0, 0.0)
    tn = tb + DT * (p[0] * 1.0e-3 * (p[1] - tb) + exo * 0.1)
    t_next[0] = tn
    curve[k] = tn


def evaluate(p_np):
    p = wp.array(p_np, dtype=float, requires_grad=True)
    curve = wp.zeros(N_STEP, dtype=float, requires_grad=True)
    states = [wp.array([T_CHARGE], dtype=float, requires_grad=True)]
    tape = wp.Tape()
    with tape:
        for k in range(N_STEP):
            states.append(wp.zeros(1, dtype=float, requires_grad=True))
            wp.launch(roast_step, dim=1, inputs=[states[k], p], outputs=[states[k + 1], curve, k])
    r = curve.numpy().astype(np.float64) - LOGGER
    a = np.abs(r)
    loss = np.sum(np.where(a <= DELTA, 0.5 * r * r, DELTA * (a - 0.5 * DELTA))) / N_STEP
    curve.grad.assign((r / N_STEP).astype(np.float32))  # expect: seeding
    tape.backward()
    return loss, p.grad.numpy().copy()


FD_EPS = np.array([1e-3, 1e-2])

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(40):
        val, g = evaluate(p)
        p -= np.array([0.02, 2.0]) * g
    print(f"Huber misfit {val:.4f}  h {p[0]:.3f}e-3/s  air {p[1]:.1f} C")
