"""Differentiable-rollout training of a linear feedback policy that steers a
batch of 2-D point masses with drag to the origin. The rollout is recorded
window by window (the logger reads the state between windows)."""
import numpy as np
import warp as wp

wp.config.quiet = True

B = 12
WINDOWS = 3
WIN = 15
DT = 0.05
PARAMS0 = [1.0, 0.6, 0.2]   # kp, kd, cross-coupling


@wp.kernel
def policy_step(state: wp.array(dtype=wp.vec4), gains: wp.array(dtype=float), out: wp.array(dtype=wp.vec4)):
    b = wp.tid()
    s = state[b]
    p = wp.vec2(s[0], s[1])
    v = wp.vec2(s[2], s[3])
    u = -gains[0] * p - gains[1] * v + gains[2] * wp.vec2(-p[1], p[0])
    u = u / (1.0 + 0.2 * wp.length(u))
    a = u - 0.3 * wp.length(v) * v
    vn = v + DT * a
    pn = p + DT * vn
    out[b] = wp.vec4(pn[0], pn[1], vn[0], vn[1])


@wp.kernel
def stage_cost(state: wp.array(dtype=wp.vec4), w: float, cost: wp.array(dtype=float)):
    b = wp.tid()
    s = state[b]
    wp.atomic_add(cost, 0, w * (s[0] * s[0] + s[1] * s[1] + 0.1 * (s[2] * s[2] + s[3] * s[3])))


def start_states():
    ang = np.linspace(0.0, 2.0 * np.pi, B, endpoint=False)
    s = np.stack([2.0 * np.cos(ang), 2.0 * np.sin(ang), 0.3 * np.sin(ang), -0.3 * np.cos(ang)], axis=1)
    return s.astype(np.float32)


def episode(p, log=False):
    gains = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    state = wp.array(start_states(), dtype=wp.vec4, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    for w in range(WINDOWS):
        with tape:
            for _ in range(WIN):
                nxt = wp.zeros_like(state)
                wp.launch(policy_step, dim=B, inputs=[state, gains], outputs=[nxt])
                wp.launch(stage_cost, dim=B, inputs=[nxt, 1.0 / B], outputs=[cost])
                state = nxt
        if log:
            d = np.linalg.norm(state.numpy()[:, :2], axis=1)
            print(f"  window {w}: mean distance {d.mean():.3f}")
        state = wp.clone(state, requires_grad=True)  # expect: truncation
    tape.backward(cost)
    return float(cost.numpy()[0]), gains.grad.numpy().copy()


def evaluate(p):
    return episode(p)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(5):
        c, g = episode(p, log=(it == 0))
        p -= 0.05 * g
        print(f"iter {it} cost {c:.3f} gains {np.round(p, 3)}")
