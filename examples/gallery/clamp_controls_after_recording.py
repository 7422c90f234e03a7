"""Plan a cart's thrust schedule; the thrusts are clamped to the actuator limit after recording.

Each step reads its own row of `thrust` (`thrust[t]`), and an untaped launch
clamps the rows that exceed the limit between recording and backward(): the
early steps' adjoints replay with other thrusts than the forward used. The
last step's row is under the limit, so replaying that step alone changes
nothing; the earlier ones do.
"""
import numpy as np
import warp as wp

T = 12
LIMIT = 0.6


@wp.kernel
def schedule(gain: wp.array(dtype=float), t: int, thrust: wp.array(dtype=float)):
    thrust[t] = gain[0] * wp.exp(-0.3 * float(t))


@wp.kernel
def cart_step(x: wp.array(dtype=wp.vec2), thrust: wp.array(dtype=float), t: int, x_out: wp.array(dtype=wp.vec2)):
    s = x[0]
    v = s[1] + 0.1 * (wp.tanh(thrust[t]) - 0.2 * s[1])
    x_out[0] = wp.vec2(s[0] + 0.1 * v, v)


@wp.kernel
def clamp_thrust(thrust: wp.array(dtype=float), limit: float):
    t = wp.tid()
    thrust[t] = wp.min(thrust[t], limit)  # note: TW104


@wp.kernel
def distance_cost(x: wp.array(dtype=wp.vec2), goal: float, cost: wp.array(dtype=float)):
    d = x[0][0] - goal
    cost[0] = d * d


gain = wp.array([1.2], dtype=float, requires_grad=True)
thrust = wp.zeros(T, dtype=float, requires_grad=True)
x = wp.zeros(1, dtype=wp.vec2, requires_grad=True)
cost = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for t in range(T):
        wp.launch(schedule, dim=1, inputs=[gain, t], outputs=[thrust])
        x_next = wp.empty_like(x)
        wp.launch(cart_step, dim=1, inputs=[x, thrust, t], outputs=[x_next])
        x = x_next
    wp.launch(distance_cost, dim=1, inputs=[x, 1.0], outputs=[cost])
wp.launch(clamp_thrust, dim=T, inputs=[thrust, LIMIT])  # expect: TW106
tape.backward(cost)
print("cost", cost.numpy()[0], "d cost / d gain", gain.grad.numpy()[0])
