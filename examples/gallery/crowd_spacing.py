"""Spread a crowd of agents evenly by descending a soft repulsion energy."""
import numpy as np
import warp as wp

AGENTS = 20


@wp.func
def pair_distance(a: wp.vec2, b: wp.vec2):
    d = a - b
    return wp.sqrt(wp.dot(d, d))  # expect: TW403


@wp.kernel
def repulsion_energy(
    agents: wp.array(dtype=wp.vec2),
    falloff: float,
    energy: wp.array(dtype=float),
):
    i = wp.tid()
    e = float(0.0)
    for j in range(agents.shape[0]):
        r = pair_distance(agents[i], agents[j])
        e += wp.exp(-r / falloff)
    wp.atomic_add(energy, 0, e)


@wp.kernel
def boundary_energy(agents: wp.array(dtype=wp.vec2), energy: wp.array(dtype=float)):
    i = wp.tid()
    p = agents[i]
    wp.atomic_add(energy, 0, 0.5 * wp.dot(p, p))


def energy_and_grad(agents):
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(repulsion_energy, dim=AGENTS, inputs=[agents, 0.5], outputs=[energy])  # note: TW407
        wp.launch(boundary_energy, dim=AGENTS, inputs=[agents], outputs=[energy])
    tape.backward(energy)
    return energy, agents.grad


def main():
    wp.init()
    rng = np.random.default_rng(5)
    agents = wp.array(rng.uniform(-1.0, 1.0, size=(AGENTS, 2)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    for it in range(10):
        energy, grad = energy_and_grad(agents)
        g = grad.numpy()
        if it % 3 == 0:
            print(f"iter {it}: energy={energy.numpy()[0]:.4f} grad finite={np.isfinite(g).all()}")
        agents.assign(agents.numpy() - 0.05 * g)
        agents.grad.zero_()
    print("final spread", np.std(agents.numpy(), axis=0))


if __name__ == "__main__":
    main()
