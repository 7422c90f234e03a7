import numpy as np
import warp as wp

WINDOWS = 3
WINDOW_STEPS = 5
DT = 0.05


@wp.kernel
def cart_pole_step(state: wp.array(dtype=wp.vec4), gain: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.vec4)):
    s = state[0]
    x = s[0]
    xd = s[1]
    th = s[2]
    thd = s[3]
    u = -(gain[0] * th + gain[1] * thd)
    thdd = 9.8 * wp.sin(th) - u * wp.cos(th) - 0.1 * thd
    xdd = u - 0.05 * xd
    out[0] = wp.vec4(x + DT * xd, xd + DT * xdd, th + DT * thd, thd + DT * thdd)


@wp.kernel
def upright_cost(state: wp.array(dtype=wp.vec4), loss: wp.array(dtype=wp.float32)):
    s = state[0]
    wp.atomic_add(loss, 0, s[2] * s[2] + 0.1 * s[3] * s[3] + 0.01 * s[0] * s[0])


def rollout_grad(gain_np):
    gain = wp.array(gain_np, dtype=wp.float32, requires_grad=True)
    carry = wp.array([wp.vec4(0.0, 0.0, 0.3, 0.0)], dtype=wp.vec4, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    for w in range(WINDOWS):
        states = [carry] + [wp.zeros(1, dtype=wp.vec4, requires_grad=True) for _ in range(WINDOW_STEPS)]
        with tape:
            for t in range(WINDOW_STEPS):
                wp.launch(cart_pole_step, dim=1, inputs=[states[t], gain], outputs=[states[t + 1]])
                wp.launch(upright_cost, dim=1, inputs=[states[t + 1]], outputs=[loss])
        carry = wp.zeros(1, dtype=wp.vec4, requires_grad=True)
        wp.copy(carry, states[-1])  # expect: truncation
    tape.backward(loss)
    return float(loss.numpy()[0]), gain.grad.numpy().copy()


def main():
    gain = np.array([15.0, 3.0], dtype=np.float32)
    for it in range(5):
        c, g = rollout_grad(gain)
        print(f"iter {it}: gain={gain} cost={c:.5f} grad={g}")
        gain = (gain - 1.0 * g).astype(np.float32)


if __name__ == "__main__":
    main()
