# correct: Soft-argmin over candidate grasp poses: softmax weights over scores, expected cost under a learned temperature.
"""Soft-argmin over candidate grasp poses: softmax weights over scores, expected cost under a learned temperature."""
import numpy as np
import warp as wp

K = 24
rng = np.random.default_rng(9)
SCORES = rng.normal(size=K).astype(np.float32)
COSTS = (0.5 * SCORES ** 2 + rng.uniform(0, 1, K)).astype(np.float32)


@wp.kernel
def unnormalised(scores: wp.array(dtype=float), inv_temp: wp.array(dtype=float), w: wp.array(dtype=float)):
    i = wp.tid()
    w[i] = wp.exp(-inv_temp[0] * scores[i])


@wp.kernel
def sum_weights(w: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(z, 0, w[i])


@wp.kernel
def expected_cost(w: wp.array(dtype=float), z: wp.array(dtype=float), cost: wp.array(dtype=float),
                  out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, w[i] / z[0] * cost[i])


def evaluate(p):
    inv_temp = wp.array(p, dtype=float, requires_grad=True)
    w = wp.zeros(K, dtype=float, requires_grad=True)
    z = wp.zeros(1, dtype=float, requires_grad=True)
    out = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(unnormalised, dim=K, inputs=[wp.array(SCORES), inv_temp], outputs=[w])
        wp.launch(sum_weights, dim=K, inputs=[w], outputs=[z])
        wp.launch(expected_cost, dim=K, inputs=[w, z, wp.array(COSTS)], outputs=[out])
    tape.backward(out)
    return float(out.numpy()[0]), inv_temp.grad.numpy().copy()


PARAMS0 = np.array([1.5], dtype=np.float32)

if __name__ == "__main__":
    print(evaluate(PARAMS0))
