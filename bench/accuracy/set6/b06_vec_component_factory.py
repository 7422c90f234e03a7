"""Wind + buoyancy forces on balloons; the force kernel is built by a factory per gravity value."""
import numpy as np
import warp as wp

N = 16


def make_force_kernel(gravity: float):
    @wp.kernel
    def balloon_force(vel: wp.array(dtype=wp.vec3), lift: wp.array(dtype=float), wind: wp.vec3,
                      f_out: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        rel = wind - vel[i]
        f = wp.vec3()
        f[0] = 0.3 * rel[0] * wp.abs(rel[0])
        f[1] = lift[i] - gravity
        f[2] = 0.3 * rel[2] * wp.abs(rel[2])
        # quadratic drag on the vertical axis too
        f[1] = f[1] + 0.3 * rel[1] * wp.abs(rel[1])  # expect: component_reassign
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
    lift = wp.array(np.full(N, 10.0, dtype=np.float32), requires_grad=True)
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
