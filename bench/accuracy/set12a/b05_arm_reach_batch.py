import numpy as np
import warp as wp

from _arm import forward_kinematics, reach_cost

TARGETS = np.array([[0.6, 0.5], [0.3, 0.8], [0.9, 0.1], [0.5, 0.2]])
B = len(TARGETS)


class ReachProblem:
    def __init__(self):
        self.targets = wp.array(TARGETS, dtype=wp.vec2)
        self.pts = wp.zeros((B, 3), dtype=wp.vec2)  # expect: requires_grad

    def loss_and_grad(self, q_np):
        q = wp.array(q_np.reshape(B, 3), dtype=wp.vec3, requires_grad=True)
        cost = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(forward_kinematics, dim=B, inputs=[q], outputs=[self.pts])
            wp.launch(reach_cost, dim=B, inputs=[self.pts, self.targets, 0.05], outputs=[cost])
        tape.backward(cost)
        return float(cost.numpy()[0]), q.grad.numpy().ravel().copy()


PARAMS0 = np.tile(np.array([0.6, 0.4, -0.3]), B)


def evaluate(p):
    return ReachProblem().loss_and_grad(np.asarray(p))


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("reach cost", loss, "|grad|", np.linalg.norm(g))
