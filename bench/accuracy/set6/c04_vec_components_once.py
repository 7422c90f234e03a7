# correct: Correct look-alike of b06: each force component is assigned exactly once (branches are exclusive).
"""Correct look-alike of b06: each force component is assigned exactly once (branches are exclusive)."""
import numpy as np
import warp as wp

N = 16


def make_force_kernel(gravity: float):
    @wp.func
    def quad_drag(r: float):
        return 0.3 * r * wp.abs(r)

    @wp.kernel
    def balloon_force(vel: wp.array(dtype=wp.vec3), lift: wp.array(dtype=float), wind: wp.vec3,
                      f_out: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        rel = wind - vel[i]
        f = wp.vec3()
        f[0] = quad_drag(rel[0])
        if lift[i] > gravity:
            f[1] = lift[i] - gravity + quad_drag(rel[1])
        else:
            f[1] = quad_drag(rel[1])
        f[2] = quad_drag(rel[2])
        f_out[i] = f

    return balloon_force


@wp.kernel
def climb_cost(f: wp.array(dtype=wp.vec3), target: float, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = f[i][1] - target
    wp.atomic_add(cost, 0, d * d)


def main():
    kernel = make_force_kernel(9.81)
    vel = wp.array(np.linspace(-1.0, 1.0, N * 3).reshape(N, 3).astype(np.float32), dtype=wp.vec3, requires_grad=True)
    lift = wp.array(np.linspace(9.0, 11.0, N).astype(np.float32), requires_grad=True)
    f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(kernel, dim=N, inputs=[vel, lift, wp.vec3(2.0, 0.5, 0.0)], outputs=[f])
        wp.launch(climb_cost, dim=N, inputs=[f, 0.2], outputs=[cost])
    tape.backward(cost)
    print("cost", cost.numpy()[0])
    print("dcost/dlift", lift.grad.numpy()[:4])
    print("dcost/dvel", vel.grad.numpy()[:2])
    return lift.grad.numpy(), vel.grad.numpy()


if __name__ == "__main__":
    main()
