# correct: the saturated branch of the pad-force @wp.func_grad uses the exact s0 partial k log(s / s0)
"""Parallel-jaw gripper: calibrate the pad contact law (stiffness k, saturation
squeeze s0) and friction coefficient mu from the heaviest part each grasp held."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

G = 9.81


@wp.struct
class GraspTrials:
    squeeze: wp.array(dtype=float)    # pad compression [mm]
    held_kg: wp.array(dtype=float)    # heaviest part held [kg]


@wp.func
def pad_force(s: float, k: float, s0: float):
    if s <= s0:
        return k * s
    return k * s0 * (1.0 + wp.log(s / s0))


@wp.func_grad(pad_force)
def adj_pad_force(s: float, k: float, s0: float, adj_ret: float):
    if s <= s0:
        wp.adjoint[s] += adj_ret * k
        wp.adjoint[k] += adj_ret * s
    else:
        wp.adjoint[s] += adj_ret * k * s0 / s
        wp.adjoint[k] += adj_ret * s0 * (1.0 + wp.log(s / s0))
        wp.adjoint[s0] += adj_ret * k * wp.log(s / s0)


@wp.kernel
def holding_misfit(p: wp.array(dtype=float), trials: GraspTrials, loss: wp.array(dtype=float)):
    i = wp.tid()
    fn = pad_force(trials.squeeze[i], p[0], p[1])
    m_pred = 2.0 * p[2] * fn / G
    r = m_pred - trials.held_kg[i]
    wp.atomic_add(loss, 0, r * r)


class GraspCalibrator:
    def __init__(self, squeeze, held):
        self.trials = GraspTrials()
        self.trials.squeeze = wp.array(squeeze.astype(np.float32), dtype=float)
        self.trials.held_kg = wp.array(held.astype(np.float32), dtype=float)
        self.n = len(squeeze)

    def loss_and_grad(self, p):
        p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(holding_misfit, dim=self.n, inputs=[p_w, self.trials], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), p_w.grad.numpy().astype(np.float64)


SQUEEZE = np.linspace(0.3, 4.0, 24)
_k, _s0, _mu = 11.0, 1.6, 0.55
_fn = np.where(SQUEEZE <= _s0, _k * SQUEEZE, _k * _s0 * (1 + np.log(SQUEEZE / _s0)))
HELD = 2 * _mu * _fn / G * (1 + 0.03 * np.cos(7 * SQUEEZE))
CAL = GraspCalibrator(SQUEEZE, HELD)
PARAMS0 = np.array([10.0, 1.4, 0.5])
FD_EPS = 1e-3


def evaluate(p):
    return CAL.loss_and_grad(p)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"grasp holding misfit {L:.5f} kg^2, grad [k, s0, mu] = {g}")
