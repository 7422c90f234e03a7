import numpy as np
import warp as wp

N = 6


@wp.kernel
def pair_energy(pos: wp.array(dtype=wp.vec2), radius: wp.array(dtype=wp.float32), energy: wp.array(dtype=wp.float32)):
    i, j = wp.tid()
    d = pos[i] - pos[j]
    r = wp.sqrt(wp.dot(d, d))  # expect: nonfinite
    wp.atomic_add(energy, 0, wp.exp(-r / radius[0]))


@wp.kernel
def goal_energy(pos: wp.array(dtype=wp.vec2), goal: wp.array(dtype=wp.vec2), energy: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = pos[i] - goal[i]
    wp.atomic_add(energy, 0, 0.5 * wp.dot(d, d))


def initial_crowd():
    rng = np.random.default_rng(5)
    pos = rng.uniform(-1.0, 1.0, size=(N, 2)).astype(np.float32)
    goal = np.zeros((N, 2), dtype=np.float32)
    return pos, goal


def energy_and_grad(pos_np, goal_np, radius=0.3):
    pos = wp.array(pos_np, dtype=wp.vec2, requires_grad=True)
    goal = wp.array(goal_np, dtype=wp.vec2)
    rad = wp.array([radius], dtype=wp.float32, requires_grad=True)
    energy = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(pair_energy, dim=(N, N), inputs=[pos, rad], outputs=[energy])
        wp.launch(goal_energy, dim=N, inputs=[pos, goal], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), pos.grad.numpy().copy()


def main():
    pos, goal = initial_crowd()
    for it in range(6):
        e, g = energy_and_grad(pos, goal)
        print(f"iter {it}: energy={e:.5f} max|grad|={np.abs(g).max():.5f}")
        pos = (pos - 0.1 * g).astype(np.float32)


if __name__ == "__main__":
    main()
