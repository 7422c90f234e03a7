"""Rope swinging in a steady wind: which wind makes the free end pass through a waypoint at the end of each window?

The rollout is recorded window by window on one tape to keep the per-window bookkeeping simple.
"""

import numpy as np
import warp as wp

from _rope import clone_state, initial_rope, rope_state, rope_step, tip_distance

N = 6
SEG = 0.1
WINDOWS = 3
STEPS = 12
DT = 0.01
WAYPOINTS = [wp.vec3(0.45, -0.1, 0.05), wp.vec3(0.35, -0.3, 0.1), wp.vec3(0.3, -0.35, 0.2)]
PARAMS0 = np.array([1.5, 0.5, 0.8])


def rollout(wind, loss):
    tape = wp.Tape()
    state = initial_rope(N, SEG)
    for w in range(WINDOWS):
        with tape:
            states = [state]
            for _ in range(STEPS):
                nxt = rope_state(N)
                wp.launch(rope_step, dim=N, inputs=[states[-1], wind, SEG, 400.0, 0.4, DT], outputs=[nxt])
                states.append(nxt)
            wp.launch(tip_distance, dim=1, inputs=[states[-1], WAYPOINTS[w], 1.0], outputs=[loss])
        state = clone_state(states[-1])  # expect: truncation
    return tape, state


def evaluate(p):
    wind = wp.array([p.astype(np.float32)], dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape, _ = rollout(wind, loss)
    tape.backward(loss)
    return float(loss.numpy()[0]), wind.grad.numpy()[0].astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"waypoint error {loss:.5f}  d/dwind {grad}")
