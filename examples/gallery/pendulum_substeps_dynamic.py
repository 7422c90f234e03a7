"""Bug: pendulum frames sub-stepped in a dynamic loop (a run-time step count); the rate is updated from
sin() of the angle, which the loop carries too: the backward pass uses the final angle for every sub-step."""
import numpy as np
import warp as wp

P = 4            # pendulums
FRAMES = 3       # frames, one launch each
DT = 0.04
GRAVITY = 9.81


@wp.kernel
def advance_frame(theta: wp.array(dtype=float), omega: wp.array(dtype=float), length: wp.array(dtype=float),
                  substeps: int, damping: float,
                  theta_out: wp.array(dtype=float), omega_out: wp.array(dtype=float)):
    i = wp.tid()
    th = theta[i]
    om = omega[i]
    g_over_l = GRAVITY / length[i]
    for s in range(substeps):  # expect: TW303
        om = om - g_over_l * wp.sin(th) * DT - damping * om * DT
        th = th + om * DT
    theta_out[i] = th
    omega_out[i] = om


@wp.kernel
def angle_loss(theta: wp.array(dtype=float), observed: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = theta[i] - observed[i]
    wp.atomic_add(loss, 0, r * r)


OBSERVED = np.array([0.35, -0.2, 0.6, 0.1], dtype=np.float32)
PARAMS0 = np.array([0.8, 1.0, 1.2, 1.5], dtype=np.float32)


def evaluate(lengths, substeps=10):
    length = wp.array(lengths, dtype=float, requires_grad=True)
    th = [wp.array([0.9, -0.7, 1.2, 0.4], dtype=float, requires_grad=True)]
    om = [wp.zeros(P, dtype=float, requires_grad=True)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for f in range(FRAMES):
            th.append(wp.empty_like(th[0]))
            om.append(wp.empty_like(om[0]))
            wp.launch(advance_frame, dim=P, inputs=[th[f], om[f], length, substeps, 0.3],
                      outputs=[th[f + 1], om[f + 1]])
        wp.launch(angle_loss, dim=P, inputs=[th[-1], wp.array(OBSERVED)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), length.grad.numpy().copy()


def main():
    l, g = evaluate(PARAMS0)
    print("loss", l, "dL/dlength", g)


if __name__ == "__main__":
    main()
