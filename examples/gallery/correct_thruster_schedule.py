"""Plan a thrust schedule for a 1-D docking manoeuvre with saturating thrusters.

Commands are clipped to the actuator range; the first guess is a full-thrust
burn followed by a full brake, i.e. it starts exactly at the saturation limits.
"""
import numpy as np
import warp as wp

HORIZON = 12
DT = 0.25


@wp.kernel
def thruster_force(commands: wp.array(dtype=float), max_thrust: float, force: wp.array(dtype=float)):
    k = wp.tid()
    force[k] = max_thrust * wp.clamp(commands[k], -1.0, 1.0)


@wp.kernel
def dock(force: wp.array(dtype=float), goal: float, cost: wp.array(dtype=float)):
    x = float(0.0)
    v = float(0.0)
    for k in range(HORIZON):
        v = v + DT * (force[k] - 0.2 * v * wp.abs(v))
        x = x + DT * v
    cost[0] = (x - goal) * (x - goal) + 4.0 * v * v


@wp.kernel
def fuel(commands: wp.array(dtype=float), cost: wp.array(dtype=float)):
    k = wp.tid()
    c = commands[k]
    wp.atomic_add(cost, 0, 0.01 * c * c)


def plan_cost(commands_np):
    commands = wp.array(commands_np.astype(np.float32), requires_grad=True)
    force = wp.zeros(HORIZON, dtype=float, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(thruster_force, dim=HORIZON, inputs=[commands, 2.0], outputs=[force])
        wp.launch(dock, dim=1, inputs=[force, 3.0], outputs=[cost])
        wp.launch(fuel, dim=HORIZON, inputs=[commands], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), commands.grad.numpy().copy()


def initial_guess():
    return np.concatenate([np.ones(HORIZON // 2), -np.ones(HORIZON // 2)])


if __name__ == "__main__":
    wp.init()
    commands_np = initial_guess()
    for it in range(6):
        cost, grad = plan_cost(commands_np)
        print(f"iter {it}: cost={cost:.5f} |grad|={np.linalg.norm(grad):.5f}")
        commands_np = commands_np - 0.1 * grad
    print("schedule", np.round(commands_np, 3))
