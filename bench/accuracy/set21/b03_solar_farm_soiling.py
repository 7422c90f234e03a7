"""Solar-farm soiling: a 2-D (row x day) yield model with dust attenuation,
before and after a rain wash, fitted to inverter energy."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_ROW, N_DAY = 6, 10
rng = np.random.default_rng(21)
DUST = (0.5 + rng.random((N_ROW, N_DAY))).astype(np.float32)
IRR = (4.0 + 3.0 * rng.random(N_DAY)).astype(np.float32)
RAIN = (2.0 * rng.random(N_DAY)).astype(np.float32)


@wp.kernel
def daily_yield(p: wp.array(dtype=float), dust: wp.array2d(dtype=float), irr: wp.array(dtype=float),
                out: wp.array2d(dtype=float)):
    r, d = wp.tid()
    att = wp.exp(-p[0] * dust[r, d] * dust[r, d])
    out[r, d] = 0.2 * irr[d] * att


@wp.kernel
def rain_wash(p: wp.array(dtype=float), base: wp.array2d(dtype=float), rain: wp.array(dtype=float),
              dust: wp.array2d(dtype=float)):
    r, d = wp.tid()
    dust[r, d] = base[r, d] * wp.exp(-p[1] * rain[d])


@wp.kernel
def energy_misfit(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), obs: wp.array(dtype=float),
                  loss: wp.array(dtype=float)):
    r, d = wp.tid()
    e = (a[r, d] + b[r, d]) - obs[r]
    wp.atomic_add(loss, 0, e * e / float(N_DAY))


def forward(p, tape=None):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    dust = wp.array(DUST, dtype=float, requires_grad=True)
    base = wp.array(DUST, dtype=float)
    y_before = wp.zeros((N_ROW, N_DAY), dtype=float, requires_grad=True)
    y_after = wp.zeros((N_ROW, N_DAY), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(daily_yield, dim=(N_ROW, N_DAY), inputs=[params, dust, wp.array(IRR, dtype=float)], outputs=[y_before])
        wp.launch(rain_wash, dim=(N_ROW, N_DAY), inputs=[params, base, wp.array(RAIN, dtype=float)], outputs=[dust])  # expect: overwrite
        wp.launch(daily_yield, dim=(N_ROW, N_DAY), inputs=[params, dust, wp.array(IRR, dtype=float)], outputs=[y_after])
        wp.launch(energy_misfit, dim=(N_ROW, N_DAY), inputs=[y_before, y_after, wp.array(OBS, dtype=float)], outputs=[loss])
    return params, loss, tape


OBS = np.linspace(1.3, 1.6, N_ROW).astype(np.float32)
PARAMS0 = np.array([0.4, 0.6])


def evaluate(p):
    params, loss, tape = forward(p)
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = evaluate(p)
        p -= 0.05 * g
    print(f"loss {loss:.5f}  soiling={p[0]:.3f}  wash={p[1]:.3f}")
