# correct: aquifer leak localisation where only the parameter-free Darcy velocity launch is kept off the tape; the leak injection is recorded
"""Locate a contaminant leak in an aquifer from monitoring-well concentrations.

2-D advection-diffusion of a solute in a steady groundwater flow field;
the leak releases solute at a continuous position (sx, sy) with rate q.
Each step advects/diffuses into a fresh array and then the injection kernel
adds the leak's Gaussian footprint in place.
"""
import numpy as np
import warp as wp

NX, NY = 36, 28
NSTEPS = 100
DT = 0.25
DIFF = 0.6
WELLS = np.array([[16, 9], [19, 11], [22, 12], [17, 13], [21, 8]], dtype=np.int32)


@wp.kernel
def darcy_velocity(head_grad: wp.vec2, K: float, porosity: float, vel: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    bend = 0.3 * wp.sin(float(j) * 0.2)
    vel[i, j] = -K / porosity * wp.vec2(head_grad[0], head_grad[1] + bend * head_grad[0])


@wp.kernel
def transport(c: wp.array2d(dtype=float), vel: wp.array2d(dtype=wp.vec2), dt: float, c_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == 0 or j == 0 or i == NX - 1 or j == NY - 1:
        c_out[i, j] = 0.0
        return
    v = vel[i, j]
    # first-order upwind advection + central diffusion
    dcx = wp.where(v[0] > 0.0, c[i, j] - c[i - 1, j], c[i + 1, j] - c[i, j])
    dcy = wp.where(v[1] > 0.0, c[i, j] - c[i, j - 1], c[i, j + 1] - c[i, j])
    lap = c[i - 1, j] + c[i + 1, j] + c[i, j - 1] + c[i, j + 1] - 4.0 * c[i, j]
    c_out[i, j] = c[i, j] + dt * (DIFF * lap - v[0] * dcx - v[1] * dcy)


@wp.kernel
def inject_leak(c: wp.array2d(dtype=float), leak: wp.array(dtype=float), dt: float):
    i, j = wp.tid()
    dx = float(i) - leak[0]
    dy = float(j) - leak[1]
    c[i, j] += dt * leak[2] * wp.exp(-(dx * dx + dy * dy) / 2.0)


@wp.kernel
def well_misfit(c: wp.array2d(dtype=float), wells: wp.array2d(dtype=wp.int32), obs: wp.array(dtype=float),
                loss: wp.array(dtype=float)):
    k = wp.tid()
    d = c[wells[k, 0], wells[k, 1]] - obs[k]
    wp.atomic_add(loss, 0, d * d)


WELL_IDX = wp.array(WELLS, dtype=wp.int32)


def plume(leak):
    vel = wp.zeros((NX, NY), dtype=wp.vec2)
    wp.launch(darcy_velocity, dim=(NX, NY), inputs=[wp.vec2(-0.02, -0.01), 6.0, 0.3], outputs=[vel],
              record_tape=False)
    c = wp.zeros((NX, NY), dtype=float, requires_grad=True)
    for _ in range(NSTEPS):
        c_new = wp.zeros_like(c)
        wp.launch(transport, dim=(NX, NY), inputs=[c, vel, DT], outputs=[c_new])
        wp.launch(inject_leak, dim=(NX, NY), inputs=[c_new, leak, DT])
        c = c_new
    return c


OBS = wp.array(plume(wp.array([10.5, 7.0, 2.0], dtype=float)).numpy()[WELLS[:, 0], WELLS[:, 1]], dtype=float)
PARAMS0 = [12.0, 9.0, 1.5]
FD_EPS = 1e-2


def evaluate(p):
    leak = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        c = plume(leak)
        wp.launch(well_misfit, dim=len(WELLS), inputs=[c, WELL_IDX, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), leak.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(4):
        f, g = evaluate(p)
        print(f"iter {it}: misfit {f:.4e}  leak at ({p[0]:.2f}, {p[1]:.2f}) rate {p[2]:.3f}  grad {g}")
        p = p - 0.3 * g / (np.linalg.norm(g) + 1e-12)
