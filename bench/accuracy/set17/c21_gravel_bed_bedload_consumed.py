# correct: the Shields-stress array written by the base and bend kernels is a plain requires_grad array, so the bend kernel's adjoint consumes the gradient of the sections it rewrote
"""Gravel-bed river bedload: calibrate the Manning roughness, the critical
Shields stress and the transport coefficient of a Meyer-Peter-Mueller law to
bedload-sampler totals at twelve cross-sections over three flood scenarios;
sections in the meander bend get a secondary-flow shear correction."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N_XS = 12
RHO_G = 9810.0
D50 = 0.03
BEND = np.array([0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0], dtype=np.int32)
SLOPE = np.linspace(0.004, 0.0025, N_XS).astype(np.float32)
WIDTH = np.linspace(18.0, 24.0, N_XS).astype(np.float32)
FLOWS = [np.full(N_XS, q, dtype=np.float32) for q in (60.0, 110.0, 180.0)]


@wp.func
def wide_channel_shields(n: float, q: float, w: float, s: float):
    depth = wp.pow(n * q / (w * wp.sqrt(s)), 0.6)
    return 9810.0 * depth * s / (16186.5 * 0.03)


@wp.kernel
def shields_stress(p: wp.array(dtype=float), flow: wp.array(dtype=float), width: wp.array(dtype=float),
                   slope: wp.array(dtype=float), theta: wp.array(dtype=float)):
    i = wp.tid()
    theta[i] = wide_channel_shields(p[0], flow[i], width[i], slope[i])


@wp.kernel
def bend_correction(p: wp.array(dtype=float), flow: wp.array(dtype=float), width: wp.array(dtype=float),
                    slope: wp.array(dtype=float), bend: wp.array(dtype=wp.int32), theta: wp.array(dtype=float)):
    i = wp.tid()
    if bend[i] == 1:
        theta[i] = 1.25 * wide_channel_shields(p[0], flow[i], width[i], slope[i])


@wp.kernel
def mpm_bedload(p: wp.array(dtype=float), theta: wp.array(dtype=float), width: wp.array(dtype=float),
                load: wp.array(dtype=float)):
    i = wp.tid()
    excess = wp.max(theta[i] - p[1], 0.0)
    load[i] = p[2] * wp.pow(excess, 1.5) * width[i]


WIDTH_W, SLOPE_W, BEND_W = wp.array(WIDTH, dtype=float), wp.array(SLOPE, dtype=float), wp.array(BEND, dtype=wp.int32)
FLOW_W = [wp.array(q, dtype=float) for q in FLOWS]


def sediment_budget(p_w, requires_grad):
    loads = []
    for flow in FLOW_W:
        theta = wp.zeros(N_XS, dtype=float, requires_grad=requires_grad)
        wp.launch(shields_stress, dim=N_XS, inputs=[p_w, flow, WIDTH_W, SLOPE_W], outputs=[theta])
        wp.launch(bend_correction, dim=N_XS, inputs=[p_w, flow, WIDTH_W, SLOPE_W, BEND_W], outputs=[theta])
        load = wp.zeros(N_XS, dtype=float, requires_grad=requires_grad)
        wp.launch(mpm_bedload, dim=N_XS, inputs=[p_w, theta, WIDTH_W], outputs=[load])
        loads.append(load)
    return loads


OBS = np.stack([l.numpy() for l in sediment_budget(wp.array([0.035, 0.047, 8.0], dtype=float), False)]).astype(np.float64)
OBS *= 1.0 + 0.05 * np.cos(np.arange(OBS.size)).reshape(OBS.shape)
PARAMS0 = np.array([0.033, 0.05, 7.0])
FD_EPS = np.array([1e-5, 1e-5, 1e-3])


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        loads = sediment_budget(p_w, True)
    pred = np.stack([l.numpy() for l in loads]).astype(np.float64)
    r = (pred - OBS) / OBS.mean()
    for k, l in enumerate(loads):
        l.grad.assign((2.0 * r[k] / OBS.mean()).astype(np.float32))
    tape.backward()
    return float(np.sum(r * r)), p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"bedload misfit {L:.5f}; grad [manning n, theta_c, MPM coefficient] = {g}")
