"""NTC thermistor calibration: Steinhart-Hart coefficients fitted by Gauss-Newton.

The Warp kernel converts divider readings to temperatures (divider constants live in a
Warp struct); a torch.autograd.Function wraps it and the Gauss-Newton Jacobian comes from
torch.autograd.functional.jacobian, one backward pass per reading.
"""
import numpy as np
import torch
import warp as wp

wp.config.quiet = True
wp.init()


@wp.struct
class Divider:
    v_supply: float
    r_fixed: float     # kOhm


N = 10
TRUE = np.array([1.129, 2.341, 0.8775])     # a*1e3, b*1e4, c*1e7
PARAMS0 = np.array([1.05, 2.45, 0.70])
V_SUP, R_FIX = 3.3, 10.0
T_TRUE_C = np.linspace(-10.0, 80.0, N)


def _r_from_t(t_c):
    # invert Steinhart-Hart by bisection on ln R (setup only)
    lo, hi = np.full(N, np.log(50.0)), np.full(N, np.log(1.0e6))
    a, b, c = TRUE * np.array([1e-3, 1e-4, 1e-7])
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        t = 1.0 / (a + b * mid + c * mid ** 3) - 273.15
        hi = np.where(t < t_c, mid, hi)
        lo = np.where(t < t_c, lo, mid)
    return np.exp(0.5 * (lo + hi)) / 1000.0


R_K = _r_from_t(T_TRUE_C)
V_OUT = (V_SUP * R_K / (R_K + R_FIX)).astype(np.float32)
rng = np.random.default_rng(11)
T_MEAS = (T_TRUE_C + 0.05 * rng.standard_normal(N)).astype(np.float32)
VOUT_W = wp.array(V_OUT, dtype=float)
DIV = Divider()
DIV.v_supply = V_SUP
DIV.r_fixed = R_FIX


@wp.kernel
def steinhart_hart(p: wp.array(dtype=float), v_out: wp.array(dtype=float), div: Divider, temp: wp.array(dtype=float)):
    i = wp.tid()
    r_ohm = 1000.0 * div.r_fixed * v_out[i] / (div.v_supply - v_out[i])
    lr = wp.log(r_ohm)
    inv_t = p[0] * 1.0e-3 + p[1] * 1.0e-4 * lr + p[2] * 1.0e-7 * lr * lr * lr
    temp[i] = 1.0 / inv_t - 273.15


class ThermistorTemp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, params):
        ctx.p = wp.from_torch(params.detach(), requires_grad=True)
        ctx.temp = wp.zeros(N, dtype=float, requires_grad=True)
        ctx.tape = wp.Tape()
        with ctx.tape:
            wp.launch(steinhart_hart, dim=N, inputs=[ctx.p, VOUT_W, DIV], outputs=[ctx.temp])
        return wp.to_torch(ctx.temp, requires_grad=False).clone()

    @staticmethod
    def backward(ctx, adj_temp):
        ctx.temp.grad.assign(wp.from_torch(adj_temp.contiguous()))  # expect: torch_interop
        ctx.tape.backward()
        return wp.to_torch(ctx.p.grad, requires_grad=False).clone()


def residual_and_jacobian(p):
    p_t = torch.tensor(np.asarray(p, dtype=np.float32), requires_grad=True)
    jac = torch.autograd.functional.jacobian(ThermistorTemp.apply, p_t)
    r = ThermistorTemp.apply(p_t).detach() - torch.from_numpy(T_MEAS)
    return r.numpy().astype(np.float64), jac.numpy().astype(np.float64)


def evaluate(p):
    r, jac = residual_and_jacobian(p)
    return 0.5 * float(r @ r) / N, jac.T @ r / N


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        r, jac = residual_and_jacobian(p)
        step = np.linalg.solve(jac.T @ jac + 1e-6 * np.eye(3), -jac.T @ r)
        p = p + step
        print(f"GN iter {it}: rms={np.sqrt(np.mean(r ** 2)):.4f} C  coeffs={p}")
