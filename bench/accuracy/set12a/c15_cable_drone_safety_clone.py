# correct: slung-load drone delivery whose periodic host safety check only reads the state and continues from a wp.clone made inside the tape
import numpy as np
import warp as wp

DT = wp.constant(0.02)
STEPS = 60
SYNC_EVERY = 25
L0 = wp.constant(1.0)
K_CABLE = wp.constant(150.0)


@wp.kernel
def slung_load_step(s: wp.array(dtype=wp.spatial_vector), lift: wp.array(dtype=wp.vec3),
                    load: wp.array(dtype=wp.spatial_vector), s_out: wp.array(dtype=wp.spatial_vector),
                    load_out: wp.array(dtype=wp.spatial_vector)):
    i = wp.tid()
    p = wp.spatial_top(s[i])
    v = wp.spatial_bottom(s[i])
    pl = wp.spatial_top(load[i])
    vl = wp.spatial_bottom(load[i])
    d = p - pl
    r = wp.length(d)
    stretch = wp.max(r - L0, 0.0)
    f = K_CABLE * stretch * stretch * d / r
    g = wp.vec3(0.0, 0.0, -9.81)
    v1 = v + DT * (lift[0] + g - f / 1.2 - 0.1 * v)
    vl1 = vl + DT * (g + f / 0.3 - 0.05 * vl)
    s_out[i] = wp.spatial_vector(p + DT * v1, v1)
    load_out[i] = wp.spatial_vector(pl + DT * vl1, vl1)


@wp.kernel
def delivery_cost(load: wp.array(dtype=wp.spatial_vector), goal: wp.vec3, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = wp.spatial_top(load[i]) - goal
    wp.atomic_add(cost, 0, wp.dot(d, d))


PARAMS0 = np.array([0.6, 0.2, 12.5])


def evaluate(p):
    lift = wp.array([wp.vec3(*p)], dtype=wp.vec3, requires_grad=True)
    s = wp.array([[0.0, 0.0, 1.0, 0.0, 0.0, 0.0]], dtype=wp.spatial_vector, requires_grad=True)
    load = wp.array([[0.0, 0.0, -0.02, 0.0, 0.0, 0.0]], dtype=wp.spatial_vector, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):
            s_new, load_new = wp.empty_like(s), wp.empty_like(load)
            wp.launch(slung_load_step, dim=1, inputs=[s, lift, load], outputs=[s_new, load_new])
            s, load = s_new, load_new
            if (t + 1) % SYNC_EVERY == 0:
                host = load.numpy()
                assert np.all(np.isfinite(host)) and host[0, 2] > -5.0
                load = wp.clone(load)
        wp.launch(delivery_cost, dim=1, inputs=[load, wp.vec3(1.0, 0.5, 1.2)], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), lift.grad.numpy()[0].copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("delivery cost", loss, "grad", g)
