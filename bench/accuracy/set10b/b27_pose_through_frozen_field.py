"""Localisation against a frozen neural map.

A small MLP over a frequency encoding (the "map", weights fixed) was trained
to predict a scalar sensor reading over the plane.  Given readings taken at
known offsets in the robot frame, recover the robot pose (theta, tx, ty) by
gradient descent through the frozen network.
"""
import numpy as np
import warp as wp

from _posenc import ENC_DIM, positional_encoding

wp.config.quiet = True

HID = 8
N_READ = 24


@wp.kernel
def to_world(offsets: wp.array(dtype=wp.vec2), pose: wp.array(dtype=wp.vec3), x: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    th = pose[0][0]
    c = wp.cos(th)
    s = wp.sin(th)
    o = offsets[i]
    x[i] = wp.vec2(c * o[0] - s * o[1] + pose[0][1], s * o[0] + c * o[1] + pose[0][2])


@wp.kernel
def frozen_mlp(enc: wp.array2d(dtype=float), W1: wp.array2d(dtype=float), w2: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    y = float(0.0)
    for j in range(HID):
        z = float(0.0)
        for k in range(ENC_DIM):
            z += W1[j, k] * enc[i, k]
        y += w2[j] * wp.tanh(z)
    out[i] = y


@wp.kernel
def reading_misfit(pred: wp.array(dtype=float), meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = pred[i] - meas[i]
    wp.atomic_add(loss, 0, d * d / float(N_READ))


_rng = np.random.default_rng(21)
W1 = wp.array(_rng.normal(0, 0.7, (HID, ENC_DIM)).astype(np.float32), dtype=float)
W2 = wp.array(_rng.normal(0, 0.7, HID).astype(np.float32), dtype=float)
OFFSETS = wp.array(_rng.uniform(-0.5, 0.5, (N_READ, 2)).astype(np.float32), dtype=wp.vec2)


def predict(pose):
    x = wp.zeros(N_READ, dtype=wp.vec2, requires_grad=True)
    enc = wp.zeros((N_READ, ENC_DIM), dtype=float, requires_grad=True)
    out = wp.zeros(N_READ, dtype=float, requires_grad=True)
    wp.launch(to_world, dim=N_READ, inputs=[OFFSETS, pose], outputs=[x])
    wp.launch(positional_encoding, dim=N_READ, inputs=[x], outputs=[enc])
    wp.launch(frozen_mlp, dim=N_READ, inputs=[enc, W1, W2], outputs=[out])
    return out


TRUE_POSE = np.array([0.4, 0.3, -0.2])
MEAS = predict(wp.array([wp.vec3(*TRUE_POSE)], dtype=wp.vec3))
PARAMS0 = np.array([0.25, 0.15, -0.05])


def evaluate(p):
    pose = wp.array([wp.vec3(*np.asarray(p, np.float32))], dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        pred = predict(pose)
        wp.launch(reading_misfit, dim=N_READ, inputs=[pred, MEAS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), pose.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(100):
        loss, g = evaluate(p)
        p -= 0.5 * g
        if it % 25 == 0:
            print(f"iter {it:3d} loss {loss:.6f} pose {np.round(p, 3)}")
