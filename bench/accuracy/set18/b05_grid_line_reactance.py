"""Line reactance calibration of a 9-line transmission corridor.

Line flows come from the DC approximation f = (theta_i - theta_j) / x for
every line; lines with a PMU pair are then recomputed with the lossless AC
expression sin(theta_i - theta_j) / x. Two reactance scale factors (overhead
and cable sections) are fitted to the SCADA flows, and the flow
sensitivities are printed for the operators.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

FROM = np.array([0, 0, 1, 2, 3, 4, 5, 6, 7], dtype=np.int32)
TO = np.array([1, 2, 3, 3, 4, 5, 6, 7, 8], dtype=np.int32)
X0 = np.array([0.08, 0.11, 0.06, 0.09, 0.05, 0.12, 0.07, 0.10, 0.06], dtype=np.float32)  # p.u.
CABLE = np.array([0, 1, 0, 0, 1, 0, 1, 0, 0], dtype=np.int32)
PMU = np.array([1, 0, 1, 0, 1, 1, 0, 0, 1], dtype=np.int32)
THETA = np.array([0.0, -0.061, -0.083, -0.102, -0.151, -0.170, -0.214, -0.229, -0.262], dtype=np.float32)
F_OBS = np.array([0.66, 0.70, 0.31, 0.20, 0.88, 0.17, 0.59, 0.16, 0.53], dtype=np.float32)


@wp.kernel
def dc_flow(fr: wp.array(dtype=int), to: wp.array(dtype=int), x0: wp.array(dtype=float),
            cable: wp.array(dtype=int), theta: wp.array(dtype=float), s: wp.array(dtype=float),
            flow: wp.array(dtype=float)):
    l = wp.tid()
    x = x0[l] * s[cable[l]]
    flow[l] = (theta[fr[l]] - theta[to[l]]) / x


@wp.kernel
def ac_flow_pmu(fr: wp.array(dtype=int), to: wp.array(dtype=int), x0: wp.array(dtype=float),
                cable: wp.array(dtype=int), pmu: wp.array(dtype=int), theta: wp.array(dtype=float),
                s: wp.array(dtype=float), flow: wp.array(dtype=float)):
    l = wp.tid()
    if pmu[l] == 1:
        x = x0[l] * s[cable[l]]
        flow[l] = wp.sin(theta[fr[l]] - theta[to[l]]) / x


@wp.kernel
def flow_misfit(flow: wp.array(dtype=float), f_obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    l = wp.tid()
    r = flow[l] - f_obs[l]
    wp.atomic_add(loss, 0, r * r)


PARAMS0 = [1.05, 0.92]
arrs = [wp.array(a, dtype=int if a.dtype == np.int32 else float) for a in (FROM, TO, X0, CABLE, PMU, THETA, F_OBS)]
fr_d, to_d, x0_d, cable_d, pmu_d, theta_d, fobs_d = arrs


def evaluate(p, report=False):
    s = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    flow = wp.zeros(len(X0), dtype=float, requires_grad=True, retain_grad=True)  # expect: retain_grad
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(dc_flow, dim=len(X0), inputs=[fr_d, to_d, x0_d, cable_d, theta_d, s], outputs=[flow])
        wp.launch(ac_flow_pmu, dim=len(X0), inputs=[fr_d, to_d, x0_d, cable_d, pmu_d, theta_d, s], outputs=[flow])
        wp.launch(flow_misfit, dim=len(X0), inputs=[flow, fobs_d], outputs=[loss])
    tape.backward(loss)
    if report:
        print("dLoss/dflow per line:", np.round(flow.grad.numpy(), 3))
    return float(loss.numpy()[0]), s.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0, report=True)
    print(f"flow misfit {l:.5f}  dL/ds = {np.round(g, 4)}")
