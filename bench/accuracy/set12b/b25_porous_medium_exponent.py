import numpy as np
import warp as wp

wp.init()

NX = 48
DX = 1.0 / NX
STEPS = 60
PARAMS0 = [0.6, 2.0]


@wp.kernel
def pme_step(u: wp.array(dtype=float), params: wp.array(dtype=float), dt: float, u_out: wp.array(dtype=float)):
    # porous-medium equation u_t = (D u^m u_x)_x, no-flux ends
    i = wp.tid()
    D = params[0]
    m = params[1]
    k = wp.pow(u[i], m)  # expect: nonfinite
    il = wp.max(i - 1, 0)
    ir = wp.min(i + 1, NX - 1)
    kl = 0.5 * (k + wp.pow(wp.max(u[il], 1.0e-8), m))
    kr = 0.5 * (k + wp.pow(wp.max(u[ir], 1.0e-8), m))
    flux_r = kr * (u[ir] - u[i]) / DX
    flux_l = kl * (u[i] - u[il]) / DX
    u_out[i] = u[i] + dt * D * (flux_r - flux_l) / DX


@wp.kernel
def front_misfit(u: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = u[i] - obs[i]
    wp.atomic_add(loss, 0, DX * d * d)


x = (np.arange(NX) + 0.5) * DX
u0 = np.where(np.abs(x - 0.5) < 0.15, 1.0 - ((x - 0.5) / 0.15) ** 2, 0.0).astype(np.float32)
obs = wp.array((0.8 * np.exp(-((x - 0.5) ** 2) / 0.02)).astype(np.float32), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    u = wp.array(u0, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    dt = 0.2 * DX * DX
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            u_next = wp.empty_like(u)
            wp.launch(pme_step, dim=NX, inputs=[u, params, dt], outputs=[u_next])
            u = u_next
        wp.launch(front_misfit, dim=NX, inputs=[u, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
