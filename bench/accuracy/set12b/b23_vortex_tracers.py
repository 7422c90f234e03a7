import numpy as np
import warp as wp

wp.init()

PARAMS0 = [1.2, 0.4, 0.25]


@wp.func
def vortex_velocity(p: wp.vec2, amp: wp.array(dtype=float)):
    # Lamb-Oseen vortex at the origin plus a uniform drift
    r2 = wp.dot(p, p) + 1.0e-4
    core = 1.0 - wp.exp(-r2 / (amp[2] * amp[2]))
    return amp[0] * core / r2 * wp.vec2(-p[1], p[0]) + wp.vec2(amp[1], 0.0)


@wp.kernel
def advect_tracers(x0: wp.array(dtype=wp.vec2), amp: wp.array(dtype=float), t_end: float, n_sub: int,
                   x_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    p = x0[i]
    h = t_end / float(n_sub)
    for k in range(n_sub):  # expect: dynamic_loop
        mid = p + 0.5 * h * vortex_velocity(p, amp)
        p = p + h * vortex_velocity(mid, amp)
    x_out[i] = p


@wp.kernel
def piv_misfit(x: wp.array(dtype=wp.vec2), obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - obs[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


angles = np.linspace(0.0, 2.0 * np.pi, 12, endpoint=False)
seeds = np.stack([0.3 * np.cos(angles), 0.3 * np.sin(angles)], 1).astype(np.float32)
x0 = wp.array(seeds, dtype=wp.vec2)
obs = wp.array((seeds @ np.array([[0.8, 0.6], [-0.6, 0.8]]) + np.array([0.15, 0.0])).astype(np.float32), dtype=wp.vec2)
N_SUB = 10


def evaluate(p):
    amp = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.zeros(len(seeds), dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(advect_tracers, dim=len(seeds), inputs=[x0, amp, 0.5, N_SUB], outputs=[x])
        wp.launch(piv_misfit, dim=len(seeds), inputs=[x, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), amp.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
