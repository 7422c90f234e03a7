"""Valley glacier survey: Glen-law creep factor and basal sliding speed fitted to
stake velocities, with the two parameters held as array fields of a Warp struct and
stepped by warp.optim.SGD.
"""
import numpy as np
import warp as wp
from warp.optim import SGD

wp.config.quiet = True
wp.init()


@wp.struct
class FlowParams:
    creep: wp.array(dtype=float)      # Glen creep factor, scaled
    slide: wp.array(dtype=float)      # basal sliding speed / 10 m/yr


THICK = np.array([120, 160, 210, 250, 280, 300, 270, 220, 170, 130], dtype=np.float32) / 200.0
SLOPE = np.array([0.14, 0.12, 0.10, 0.09, 0.08, 0.08, 0.09, 0.10, 0.12, 0.13], dtype=np.float32) / 0.1
N = THICK.size
TRUE = np.array([1.3, 1.6])
PARAMS0 = np.array([0.9, 1.0])
LR = 0.01
rng = np.random.default_rng(47)
U_MEAS = (10.0 * TRUE[1] + 20.0 * TRUE[0] * SLOPE ** 3 * THICK ** 4 + 0.5 * rng.standard_normal(N)).astype(np.float32)
THICK_W = wp.array(THICK, dtype=float)
SLOPE_W = wp.array(SLOPE, dtype=float)
U_W = wp.array(U_MEAS, dtype=float)


@wp.kernel
def stake_sse(fp: FlowParams, thick: wp.array(dtype=float), slope: wp.array(dtype=float),
              u_meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    s = slope[i]
    h = thick[i]
    u = 10.0 * fp.slide[0] + 20.0 * fp.creep[0] * s * s * s * h * h * h * h
    r = (u - u_meas[i]) / 5.0
    wp.atomic_add(loss, 0, r * r / float(N))


def make_params(p):
    fp = FlowParams()
    fp.creep = wp.array([p[0]], dtype=float, requires_grad=True)
    fp.slide = wp.array([p[1]], dtype=float, requires_grad=True)
    return fp


def loss_at(p):
    loss = wp.zeros(1, dtype=float)
    wp.launch(stake_sse, dim=N, inputs=[make_params(np.asarray(p, dtype=np.float32)), THICK_W, SLOPE_W, U_W],
              outputs=[loss])
    return float(loss.numpy()[0])


def run_fit(n_steps, probe_step=None):
    fp = make_params(PARAMS0.astype(np.float32))
    opt = SGD([fp.creep, fp.slide], lr=LR)
    probe = None
    for it in range(n_steps):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(stake_sse, dim=N, inputs=[fp, THICK_W, SLOPE_W, U_W], outputs=[loss])
        tape.backward(loss)
        if it == probe_step:
            probe = (np.array([fp.creep.numpy()[0], fp.slide.numpy()[0]], dtype=np.float64),
                     np.array([fp.creep.grad.numpy()[0], fp.slide.grad.numpy()[0]], dtype=np.float64))
        opt.step([fp.creep.grad, fp.slide.grad])
        fp.creep.grad.zero_()  # expect: missing_zero
        if probe_step is None and it % 20 == 0:
            print(f"iter {it}: loss={loss.numpy()[0]:.4f} creep={fp.creep.numpy()[0]:.3f} slide={10 * fp.slide.numpy()[0]:.2f} m/yr")
    return np.array([fp.creep.numpy()[0], fp.slide.numpy()[0]]), probe


def verify():
    _, (p_k, g_k) = run_fit(4, probe_step=3)
    eps = 1e-3
    fd = np.zeros(2)
    for j in range(2):
        e = np.zeros(2)
        e[j] = eps
        fd[j] = (loss_at(p_k + e) - loss_at(p_k - e)) / (2 * eps)
    return g_k, fd


if __name__ == "__main__":
    p, _ = run_fit(80)
    print("fitted:", p, "loss:", loss_at(p))
