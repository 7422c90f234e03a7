"""Infer the growth rate of a Fisher-KPP population front from a late-time density snapshot."""

import numpy as np
import warp as wp

import _viz

RES = 32
STEPS = 30
DT = 0.1


@wp.kernel
def kpp_step(
    u: wp.array2d(dtype=float),
    diffusivity: float,
    growth: wp.array(dtype=float),
    dt: float,
    u_next: wp.array2d(dtype=float),
):
    i, j = wp.tid()
    c = u[i, j]
    up = u[wp.min(i + 1, RES - 1), j]
    dn = u[wp.max(i - 1, 0), j]
    lf = u[i, wp.max(j - 1, 0)]
    rt = u[i, wp.min(j + 1, RES - 1)]
    lap = up + dn + lf + rt - 4.0 * c
    u_next[i, j] = c + dt * (diffusivity * lap + growth[0] * c * (1.0 - c))


@wp.kernel
def density_misfit(u: wp.array2d(dtype=float), observed: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = u[i, j] - observed[i, j]
    wp.atomic_add(loss, 0, d * d)


def seed_density():
    u = np.zeros((RES, RES), dtype=np.float32)
    u[RES // 2 - 3 : RES // 2 + 3, RES // 2 - 3 : RES // 2 + 3] = 0.3
    return u


def simulate(growth, requires_grad):
    fields = [wp.array(seed_density(), dtype=float, requires_grad=requires_grad)]
    for _ in range(STEPS):
        nxt = wp.zeros((RES, RES), dtype=float, requires_grad=requires_grad)
        wp.launch(kpp_step, dim=(RES, RES), inputs=[fields[-1], 0.8, growth, DT], outputs=[nxt])
        fields.append(nxt)
    return fields


def main():
    observed = simulate(wp.array([0.9], dtype=float), requires_grad=False)[-1]
    growth = wp.array([0.5], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 2e-3
    for it in range(20):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            fields = simulate(growth, requires_grad=True)
            wp.launch(density_misfit, dim=(RES, RES), inputs=[fields[-1], observed], outputs=[loss])

        if it % 5 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.5f} growth {growth.numpy()[0]:.4f}")
            _viz.ascii_preview(_viz.to_unit_range(fields[-1]))  # expect: TW106

        tape.backward(loss)
        growth.assign(growth.numpy() - lr * growth.grad.numpy())
        tape.zero()

    print("estimated growth rate", growth.numpy()[0], "(true 0.9)")


if __name__ == "__main__":
    main()
