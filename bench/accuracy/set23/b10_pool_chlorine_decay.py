"""Free chlorine in outdoor swimming pools: UV decay after morning and evening dosing, read by a colorimetric test kit."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_POOL = 16
rng = np.random.default_rng(20)
UV_AM = rng.uniform(0.2, 0.6, N_POOL).astype(np.float32)
UV_PM = rng.uniform(0.6, 1.2, N_POOL).astype(np.float32)
DOSE = rng.uniform(2.0, 4.0, N_POOL).astype(np.float32)
KIT_GAIN = wp.constant(1.05)
OBS_AM = (1.05 * DOSE * np.exp(-0.5 * UV_AM)).astype(np.float32)
OBS_PM = (1.05 * DOSE * np.exp(-0.5 * UV_PM) * 0.9).astype(np.float32)
PARAMS0 = [0.4, 0.8]  # UV decay constant, evening demand factor


@wp.kernel
def chlorine(p: wp.array(dtype=float), dose: wp.array(dtype=float), uv: wp.array(dtype=float), demand: float,
             out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = dose[i] * wp.exp(-p[0] * uv[i]) * (1.0 - demand + demand * p[1])


@wp.kernel
def test_kit(cl: wp.array(dtype=float), reading: wp.array(dtype=float)):
    i = wp.tid()
    reading[i] = KIT_GAIN * cl[i]


@wp.kernel
def misfit(reading: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    e = reading[i] - obs[i]
    wp.atomic_add(loss, 0, e * e)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    dose = wp.array(DOSE, dtype=float)
    cl = wp.zeros(N_POOL, dtype=float, requires_grad=True, retain_grad=True)  # expect: retain_grad
    read_am = wp.zeros(N_POOL, dtype=float, requires_grad=True)
    read_pm = wp.zeros(N_POOL, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(chlorine, dim=N_POOL, inputs=[params, dose, wp.array(UV_AM, dtype=float), 0.0], outputs=[cl])
        wp.launch(test_kit, dim=N_POOL, inputs=[cl], outputs=[read_am])
        wp.launch(chlorine, dim=N_POOL, inputs=[params, dose, wp.array(UV_PM, dtype=float), 1.0], outputs=[cl])
        wp.launch(test_kit, dim=N_POOL, inputs=[cl], outputs=[read_pm])
        wp.launch(misfit, dim=N_POOL, inputs=[read_am, wp.array(OBS_AM, dtype=float)], outputs=[loss])
        wp.launch(misfit, dim=N_POOL, inputs=[read_pm, wp.array(OBS_PM, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        loss, g = evaluate(p)
        p = p - 0.01 * g / (1.0 + np.linalg.norm(g))
    print("chlorine loss", loss, "params", p)
