# correct: batched planar-arm reaching whose joint-point buffer is created with wp.zeros_like from the requires_grad joint array's shape-matched template, so it carries gradients
import numpy as np
import warp as wp

from _arm import forward_kinematics, reach_cost

TARGETS = np.array([[0.6, 0.5], [0.3, 0.8], [0.9, 0.1]])
B = len(TARGETS)


def reach(q_np):
    q = wp.array(q_np.reshape(B, 3), dtype=wp.vec3, requires_grad=True)
    template = wp.zeros((B, 3), dtype=wp.vec2, requires_grad=True)
    pts = wp.zeros_like(template)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(forward_kinematics, dim=B, inputs=[q], outputs=[pts])
        wp.launch(reach_cost, dim=B, inputs=[pts, wp.array(TARGETS, dtype=wp.vec2), 0.05], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), q.grad.numpy().ravel().copy()


PARAMS0 = np.tile(np.array([0.5, 0.5, -0.2]), B)


def evaluate(p):
    return reach(np.asarray(p))


if __name__ == "__main__":
    q = PARAMS0.copy()
    for it in range(20):
        loss, g = reach(q)
        q -= 0.05 * g
    print("reach cost after descent", loss)
