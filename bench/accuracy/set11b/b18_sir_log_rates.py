"""SIR epidemic model fitted to the infected curves of six regions. The
transmission and recovery rates are optimised in log space; a small kernel
maps them to the rates the integrator uses."""
import numpy as np
import warp as wp

wp.config.quiet = True

REGIONS = 6
STEPS = 60
PARAMS0 = [np.log(0.25), np.log(0.12)]
TRUE_PARAMS = [np.log(0.35), np.log(0.1)]


@wp.struct
class Clock:
    dt: float
    weight: float


@wp.kernel
def rates_from_log(log_rates: wp.array(dtype=float), rates: wp.array(dtype=float)):
    k = wp.tid()
    rates[k] = wp.exp(log_rates[k])


@wp.kernel
def sir_step(sir: wp.array2d(dtype=wp.vec3), t: int, rates: wp.array(dtype=float), clk: Clock):
    r = wp.tid()
    s = sir[t, r]
    new_inf = rates[0] * s[0] * s[1]
    rec = rates[1] * s[1]
    sir[t + 1, r] = s + clk.dt * wp.vec3(-new_inf, new_inf - rec, rec)


@wp.kernel
def infected_misfit(sir: wp.array2d(dtype=wp.vec3), obs: wp.array2d(dtype=float), clk: Clock,
                    loss: wp.array(dtype=float)):
    t, r = wp.tid()
    d = sir[t, r][1] - obs[t, r]
    wp.atomic_add(loss, 0, clk.weight * d * d)


def initial_state():
    i0 = np.linspace(0.001, 0.02, REGIONS)
    st = np.zeros((STEPS + 1, REGIONS, 3), dtype=np.float32)
    st[0, :, 0] = 1.0 - i0
    st[0, :, 1] = i0
    return st


def make_clock():
    clk = Clock()
    clk.dt = 1.0
    clk.weight = 100.0
    return clk


def simulate(log_rates, requires_grad):
    clk = make_clock()
    rates = wp.zeros(2, dtype=float, requires_grad=requires_grad)
    wp.launch(rates_from_log, dim=2, inputs=[log_rates], outputs=[rates], record_tape=False)  # expect: truncation
    sir = wp.array(initial_state(), dtype=wp.vec3, requires_grad=requires_grad)
    for t in range(STEPS):
        wp.launch(sir_step, dim=REGIONS, inputs=[sir, t, rates, clk])
    return sir


OBS = simulate(wp.array(np.array(TRUE_PARAMS, dtype=np.float32), dtype=float), False).numpy()[:, :, 1].copy()


def evaluate(p):
    log_rates = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    obs = wp.array(OBS, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        sir = simulate(log_rates, True)
        wp.launch(infected_misfit, dim=(STEPS + 1, REGIONS), inputs=[sir, obs, make_clock()], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), log_rates.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = evaluate(p)
        p -= 0.01 * g / max(1.0, np.linalg.norm(g) / 10.0)
        print(f"iter {it} misfit {l:.4f} beta {np.exp(p[0]):.3f} gamma {np.exp(p[1]):.3f}")
