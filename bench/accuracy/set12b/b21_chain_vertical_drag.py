import numpy as np
import warp as wp

from _cloth import Chain, spring_forces

wp.init()

STEPS = 30
PARAMS0 = [50.0, 0.5, 2.0]
FD_EPS = [1e-2, 1e-3, 1e-3]


@wp.kernel
def integrate_with_drag(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3),
                        inv_mass: wp.array(dtype=float), params: wp.array(dtype=float), dt: float,
                        x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    w = inv_mass[i]
    v1 = v[i] + dt * (f[i] * w + wp.vec3(0.0, -9.8, 0.0)) * wp.where(w > 0.0, 1.0, 0.0)
    # quadratic air drag acts on the falling (vertical) motion only
    v1[1] = v1[1] - dt * params[2] * v1[1] * wp.abs(v1[1])  # expect: component_reassign
    x_out[i] = x[i] + dt * v1
    v_out[i] = v1


chain = Chain(n=8)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x, v = chain.x0, chain.v0
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            f = wp.zeros(chain.n, dtype=wp.vec3, requires_grad=True)
            wp.launch(spring_forces, dim=chain.n - 1, inputs=[x, v, chain.springs, chain.rest, params], outputs=[f])
            x_new, v_new = chain.new_state()
            wp.launch(integrate_with_drag, dim=chain.n, inputs=[x, v, f, chain.inv_mass, params, chain.dt],
                      outputs=[x_new, v_new])
            x, v = x_new, v_new
        chain.loss(x, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(np.array(PARAMS0)))
