"""A single falling body (one spatial vector: position and velocity) fitted through a rollout with a
host sanity check: every few steps its state is read back and checked, and the rollout continues from
the state itself, so the gradient reaches the drag through every step."""

import numpy as np
import warp as wp

STEPS = 6
CHECK_EVERY = 2


@wp.kernel
def fall(s: wp.array(dtype=wp.spatial_vector), drag: wp.array(dtype=float), s_out: wp.array(dtype=wp.spatial_vector)):
    i = wp.tid()
    p = wp.spatial_top(s[i])
    v = wp.spatial_bottom(s[i])
    v = v + 0.1 * (wp.vec3(0.0, -9.8, 0.0) - drag[0] * wp.length(v) * v)
    s_out[i] = wp.spatial_vector(p + 0.1 * v, v)


@wp.kernel
def height_cost(s: wp.array(dtype=wp.spatial_vector), loss: wp.array(dtype=float)):
    i = wp.tid()
    p = wp.spatial_top(s[i])
    wp.atomic_add(loss, 0, p[1] * p[1])


def rollout(drag):
    s = wp.array([[0.0, 5.0, 0.0, 1.0, 0.0, 0.5]], dtype=wp.spatial_vector, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(STEPS):  # note: TW208
            s_next = wp.empty_like(s)
            wp.launch(fall, dim=1, inputs=[s, drag], outputs=[s_next])
            s = s_next
            if (t + 1) % CHECK_EVERY == 0:
                host = s.numpy()
                assert np.all(np.isfinite(host))
        wp.launch(height_cost, dim=1, inputs=[s], outputs=[loss])
    tape.backward(loss)
    return loss.numpy()[0], drag.grad.numpy()[0]


drag = wp.array([0.3], dtype=float, requires_grad=True)
print("loss %.4f d loss / d drag %.5f" % rollout(drag))
