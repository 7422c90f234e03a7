"""Spatial predator-prey model on a ring of habitat patches.

Fit the predation rate so the final prey census matches the survey.
"""
import numpy as np
import warp as wp

PATCHES = 10
STEPS = 15
DT = 0.05


@wp.struct
class Populations:
    prey: wp.array(dtype=float)
    predators: wp.array(dtype=float)


@wp.kernel
def ecology_step(
    now: Populations,
    predation: wp.array(dtype=float),
    dt: float,
    upcoming: Populations,
):
    i = wp.tid()
    n = now.prey.shape[0]
    x = now.prey[i]
    y = now.predators[i]
    spread = now.prey[(i + 1) % n] + now.prey[(i + n - 1) % n] - 2.0 * x
    eaten = predation[0] * x * y
    upcoming.prey[i] = x + dt * (1.1 * x * (1.0 - x / 4.0) - eaten + 0.3 * spread)
    upcoming.predators[i] = y + dt * (0.5 * eaten - 0.4 * y)


@wp.kernel
def survey_misfit(state: Populations, census: wp.array(dtype=float), misfit: wp.array(dtype=float)):
    i = wp.tid()
    d = wp.log(state.prey[i]) - wp.log(census[i])
    wp.atomic_add(misfit, 0, d * d)


def new_populations(prey=None, predators=None):
    p = Populations()
    p.prey = wp.array(prey, dtype=float, requires_grad=True) if prey is not None else wp.zeros(PATCHES, dtype=float, requires_grad=True)
    p.predators = (
        wp.array(predators, dtype=float, requires_grad=True) if predators is not None else wp.zeros(PATCHES, dtype=float, requires_grad=True)
    )
    return p


def simulate(rate_value, census):
    predation = wp.array([rate_value], dtype=float, requires_grad=True)
    ring = np.arange(PATCHES)
    current = new_populations(2.0 + np.sin(ring).astype(np.float32), 1.0 + 0.5 * np.cos(ring).astype(np.float32))
    history = [current]
    misfit = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            upcoming = new_populations()
            wp.launch(ecology_step, dim=PATCHES, inputs=[current, predation, DT], outputs=[upcoming])
            history.append(upcoming)
            current = upcoming
        wp.launch(survey_misfit, dim=PATCHES, inputs=[current, census], outputs=[misfit])
    tape.backward(misfit)
    return float(misfit.numpy()[0]), float(predation.grad.numpy()[0]), history


if __name__ == "__main__":
    wp.init()
    census = wp.array(np.full(PATCHES, 2.2, dtype=np.float32))
    rate = 0.6
    for it in range(5):
        misfit, grad, history = simulate(rate, census)
        print(f"iter {it}: misfit={misfit:.5f} d/drate={grad:.5f} frames={len(history)}")
        rate -= 0.1 * grad
