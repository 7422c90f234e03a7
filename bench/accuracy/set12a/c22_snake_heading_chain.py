# correct: snake-robot reach with absolute link headings, so the runtime-bound loop only accumulates the tip with += and carries nothing the adjoint needs
import numpy as np
import warp as wp

LINK = wp.constant(0.15)
N_LINKS = 6


@wp.kernel
def chain_tip(q: wp.array2d(dtype=float), n_links: int, tips: wp.array(dtype=wp.vec2)):
    # q holds absolute link headings (world frame)
    i = wp.tid()
    p = wp.vec2(0.0, 0.0)
    for j in range(n_links):
        p += LINK * wp.vec2(wp.cos(q[i, j]), wp.sin(q[i, j]))
    tips[i] = p


@wp.kernel
def tip_cost(tips: wp.array(dtype=wp.vec2), goal: wp.array(dtype=wp.vec2), cost: wp.array(dtype=float)):
    i = wp.tid()
    d = tips[i] - goal[i]
    wp.atomic_add(cost, 0, wp.dot(d, d))


class SnakeReach:
    def __init__(self, goals):
        self.goals = wp.array(goals, dtype=wp.vec2)
        self.n = len(goals)

    def __call__(self, q_np):
        q = wp.array(q_np.reshape(self.n, N_LINKS), dtype=float, requires_grad=True)
        tips = wp.zeros(self.n, dtype=wp.vec2, requires_grad=True)
        cost = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(chain_tip, dim=self.n, inputs=[q, N_LINKS], outputs=[tips])
            wp.launch(tip_cost, dim=self.n, inputs=[tips, self.goals], outputs=[cost])
        tape.backward(cost)
        return float(cost.numpy()[0]), q.grad.numpy().ravel().copy()


PARAMS0 = np.array([0.3, 0.5, 0.4, 0.65, 0.75, 0.55, 0.5, 0.2, 0.4, 0.5, 0.8, 0.8])


def evaluate(p):
    return SnakeReach(np.array([[0.5, 0.5], [0.7, 0.1]]))(np.asarray(p))


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("snake tip cost", loss, "|grad|", np.linalg.norm(g))
