"""Choose a holding pose for a three-link arm that minimises gravity torques near a target.

The cost is the sum of squared joint gravity torques plus a penalty on the
gripper's distance from the hand-over point. After recording the cost for the
current payload, the planner prepares the mass table for the next task (a
heavier payload) from a NumPy copy of the masses, then runs backward.
"""
import numpy as np
import warp as wp

from _arm import holding_cost

wp.config.quiet = True

MASSES = np.array([4.2, 2.6, 0.8, 1.5], dtype=np.float32)  # links 1-3, payload [kg]
TARGET = wp.vec2(0.62, 0.35)
W_POS = 2.0e4
PARAMS0 = np.array([0.35, 0.55, -0.45])  # joint angles [rad]
NEXT_PAYLOAD = 3.0


class HoldingPlanner:
    def __init__(self):
        self.masses = wp.array(MASSES, dtype=float)
        self.plan = []

    def cost_and_grad(self, p):
        self.masses.assign(MASSES)
        q = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        cost = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(holding_cost, dim=3, inputs=[q, self.masses, TARGET, W_POS], outputs=[cost])
        next_masses = self.masses.numpy()
        next_masses[3] = NEXT_PAYLOAD  # expect: host_mutation
        tape.backward(cost)
        self.plan.append(next_masses)
        return float(cost.numpy()[0]), q.grad.numpy().astype(np.float64)


PLANNER = HoldingPlanner()


def evaluate(p):
    return PLANNER.cost_and_grad(p)


if __name__ == "__main__":
    J, g = evaluate(PARAMS0)
    print(f"holding cost {J:.2f} (N m)^2; d/dq = {g}; next task masses {PLANNER.plan[-1]}")
