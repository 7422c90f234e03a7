"""Single-diode model of a rooftop PV module from a field I-V sweep.

V(I) = n Vt ln((Iph - I) / I0 + 1) - I Rs, with the photocurrent and the
saturation current (log10) in one parameter array and the series
resistance and ideality factor in another. A ModuleFitter class runs
warp.optim.Adam over both arrays.
"""
import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

VT_CELLS = 60 * 0.02569  # 60 cells at 298 K, V
I_MEAS = np.linspace(0.2, 8.4, 14).astype(np.float32)


def _v_np(i, iph, log_i0, rs, n):
    return n * VT_CELLS * np.log((iph - i) / 10.0**log_i0 + 1.0) - i * rs


V_MEAS = _v_np(I_MEAS.astype(np.float64), 9.05, -9.3, 0.32, 1.08).astype(np.float32)


@wp.kernel
def diode_voltage(i_meas: wp.array(dtype=float), photo: wp.array(dtype=float), resist: wp.array(dtype=float),
                  v_meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    i0 = wp.pow(10.0, photo[1])
    v = resist[1] * VT_CELLS * wp.log((photo[0] - i_meas[k]) / i0 + 1.0) - i_meas[k] * resist[0]
    r = v - v_meas[k]
    wp.atomic_add(loss, 0, r * r / 14.0)


class ModuleFitter:
    def __init__(self, p0):
        self.photo = wp.array(np.asarray(p0[:2], dtype=np.float32), dtype=float, requires_grad=True)
        self.resist = wp.array(np.asarray(p0[2:], dtype=np.float32), dtype=float, requires_grad=True)
        self.i_meas = wp.array(I_MEAS, dtype=float)
        self.v_meas = wp.array(V_MEAS, dtype=float)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.opt = warp.optim.Adam([self.photo, self.resist], lr=5.0e-3)
        self.history = []

    def step(self):
        self.loss.zero_()
        self.tape = wp.Tape()
        with self.tape:
            wp.launch(diode_voltage, dim=len(I_MEAS), inputs=[self.i_meas, self.photo, self.resist, self.v_meas],
                      outputs=[self.loss])
        self.tape.backward(self.loss)
        p = np.concatenate([self.photo.numpy(), self.resist.numpy()]).astype(np.float64)
        g = np.concatenate([self.photo.grad.numpy(), self.resist.grad.numpy()]).astype(np.float64)
        self.history.append((p, g, float(self.loss.numpy()[0])))
        self.opt.step([self.photo.grad, self.resist.grad])
        self.photo.grad.zero_()  # expect: missing_zero


def objective(p):
    f = ModuleFitter(p)
    wp.launch(diode_voltage, dim=len(I_MEAS), inputs=[f.i_meas, f.photo, f.resist, f.v_meas], outputs=[f.loss])
    return float(f.loss.numpy()[0])


PARAMS0 = [9.0, -9.0, 0.25, 1.05]


def verify():
    f = ModuleFitter(PARAMS0)
    for _ in range(5):
        f.step()
    p_k, g_k, _ = f.history[-1]
    fd = np.zeros(4)
    for j in range(4):
        h = 1e-3
        pp, pm = p_k.copy(), p_k.copy()
        pp[j] += h
        pm[j] -= h
        fd[j] = (objective(pp) - objective(pm)) / (2.0 * h)
    return g_k, fd


if __name__ == "__main__":
    fitter = ModuleFitter(PARAMS0)
    for _ in range(150):
        fitter.step()
    p, _, l0 = fitter.history[0]
    p, _, l = fitter.history[-1]
    print(f"loss {l0:.4f} -> {l:.4f}  Iph={p[0]:.3f} log10 I0={p[1]:.2f} Rs={p[2]:.3f} n={p[3]:.3f}")
