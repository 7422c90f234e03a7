"""Hot-mix asphalt mat cooling after laying, fitted on two lifts of a road resurfacing job."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CORE = 24
T_AIR = wp.constant(18.0)
rng = np.random.default_rng(11)
MINUTES = rng.uniform(2.0, 30.0, N_CORE).astype(np.float32)
LIFT1 = rng.uniform(140.0, 160.0, N_CORE).astype(np.float32)
LIFT2 = rng.uniform(100.0, 115.0, N_CORE).astype(np.float32)
OBS1 = (18.0 + (LIFT1 - 18.0) * np.exp(-0.05 * MINUTES)).astype(np.float32)
OBS2 = (18.0 + (LIFT2 - 18.0) * np.exp(-0.05 * 1.5 * MINUTES)).astype(np.float32)
PARAMS0 = [0.04, 0.3]  # cooling rate (1/min), thin-lift rate increase


@wp.kernel
def mat_temp(p: wp.array(dtype=float), lay: wp.array(dtype=float), minutes: wp.array(dtype=float),
             thin: float, out: wp.array(dtype=float)):
    i = wp.tid()
    k = p[0] * (1.0 + thin * p[1])
    out[i] = T_AIR + (lay[i] - T_AIR) * wp.exp(-k * minutes[i])


@wp.kernel
def misfit(pred: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (pred[i] - obs[i]) / 10.0
    wp.atomic_add(loss, 0, d * d / float(N_CORE))


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    lay = wp.array(LIFT1, dtype=float)
    lay_second = wp.array(LIFT2, dtype=float)
    minutes = wp.array(MINUTES, dtype=float)
    pred1 = wp.zeros(N_CORE, dtype=float, requires_grad=True)
    pred2 = wp.zeros(N_CORE, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(mat_temp, dim=N_CORE, inputs=[params, lay, minutes, 0.0], outputs=[pred1])
        wp.launch(misfit, dim=N_CORE, inputs=[pred1, wp.array(OBS1, dtype=float)], outputs=[loss])
        wp.copy(lay, lay_second)  # expect: overwrite
        wp.launch(mat_temp, dim=N_CORE, inputs=[params, lay, minutes, 1.0], outputs=[pred2])
        wp.launch(misfit, dim=N_CORE, inputs=[pred2, wp.array(OBS2, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(15):
        loss, g = evaluate(p)
        p = p - 0.002 * g / (1.0 + np.linalg.norm(g))
    print("asphalt cooling loss", loss, "params", p)
