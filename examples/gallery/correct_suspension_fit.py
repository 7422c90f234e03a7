"""Identify a car suspension's stiffness and damping from a recorded bump response,
using Warp's Adam optimizer."""
import numpy as np
import warp as wp
from warp.optim import Adam

SAMPLES = 40
DT = 0.02


@wp.kernel
def respond(
    coeffs: wp.array(dtype=float),
    road: wp.array(dtype=float),
    displacement: wp.array(dtype=float),
):
    # closed-form response to a step bump, one thread per sample time
    n = wp.tid()
    t = float(n) * DT
    k = coeffs[0]
    c = coeffs[1]
    omega = wp.sqrt(k - 0.25 * c * c)
    displacement[n] = road[n] * (1.0 - wp.exp(-0.5 * c * t) * (wp.cos(omega * t) + 0.5 * c / omega * wp.sin(omega * t)))


@wp.kernel
def residual(
    displacement: wp.array(dtype=float),
    recorded: wp.array(dtype=float),
    cost: wp.array(dtype=float),
):
    n = wp.tid()
    r = displacement[n] - recorded[n]
    wp.atomic_add(cost, 0, r * r)


def make_data():
    road = np.ones(SAMPLES, dtype=np.float32) * 0.05
    t = np.arange(SAMPLES) * DT
    k, c = 90.0, 6.0
    om = np.sqrt(k - 0.25 * c * c)
    rec = road * (1.0 - np.exp(-0.5 * c * t) * (np.cos(om * t) + 0.5 * c / om * np.sin(om * t)))
    return wp.array(road), wp.array(rec.astype(np.float32))


def fit(iterations=8, on_iteration=None):
    road, recorded = make_data()
    coeffs = wp.array([60.0, 3.0], dtype=float, requires_grad=True)
    optimizer = Adam([coeffs], lr=1.0)
    for it in range(iterations):
        displacement = wp.zeros(SAMPLES, dtype=float, requires_grad=True)
        cost = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(respond, dim=SAMPLES, inputs=[coeffs, road], outputs=[displacement])
            wp.launch(residual, dim=SAMPLES, inputs=[displacement, recorded], outputs=[cost])
        tape.backward(cost)
        if on_iteration is not None:
            on_iteration(it, coeffs.numpy().copy(), coeffs.grad.numpy().copy(), float(cost.numpy()[0]))
        optimizer.step([coeffs.grad])
        tape.zero()
    return coeffs.numpy()


def evaluate(coeff_values):
    road, recorded = make_data()
    coeffs = wp.array(coeff_values.astype(np.float32), dtype=float)
    displacement = wp.zeros(SAMPLES, dtype=float)
    cost = wp.zeros(1, dtype=float)
    wp.launch(respond, dim=SAMPLES, inputs=[coeffs, road], outputs=[displacement])
    wp.launch(residual, dim=SAMPLES, inputs=[displacement, recorded], outputs=[cost])
    return float(cost.numpy()[0])


if __name__ == "__main__":
    wp.init()

    def report(it, c, g, cost):
        print(f"iter {it}: k={c[0]:.3f} c={c[1]:.3f} cost={cost:.3e} grad={g}")

    print("identified", fit(on_iteration=report))
