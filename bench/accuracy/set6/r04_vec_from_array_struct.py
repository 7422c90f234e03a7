"""Ground contact for particles: the vertical velocity component is clamped after restitution."""
import numpy as np
import warp as wp

N = 16


@wp.struct
class Contact:
    restitution: float
    ground: float
    dt: float


@wp.kernel
def bounce(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), damping: wp.array(dtype=float), c: Contact,
           v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vel = v[i]
    vel[1] = vel[1] * damping[i]
    if x[i][1] < c.ground:
        vel[1] = -c.restitution * vel[1]  # expect: component_reassign
    v_out[i] = vel


@wp.kernel
def kinetic(v: wp.array(dtype=wp.vec3), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, 0.5 * wp.dot(v[i], v[i]))


def main():
    rng = np.random.default_rng(4)
    x = wp.array(rng.uniform(-0.5, 1.0, size=(N, 3)).astype(np.float32), dtype=wp.vec3)
    v = wp.array(rng.normal(size=(N, 3)).astype(np.float32), dtype=wp.vec3, requires_grad=True)
    damping = wp.array(np.full(N, 0.95, dtype=np.float32), requires_grad=True)
    c = Contact()
    c.restitution, c.ground, c.dt = 0.6, 0.0, 0.01
    v_out = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(bounce, dim=N, inputs=[x, v, damping, c], outputs=[v_out])
        wp.launch(kinetic, dim=N, inputs=[v_out], outputs=[e])
    tape.backward(e)
    print("energy", e.numpy()[0])
    print("dE/ddamping", damping.grad.numpy()[:6])
    return damping.grad.numpy()


if __name__ == "__main__":
    main()
