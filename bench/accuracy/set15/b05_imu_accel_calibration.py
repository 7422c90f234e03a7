"""Six-parameter accelerometer calibration of a robot IMU from static poses.

The IMU is held still in 40 orientations; calibrated readings S (a_raw - b) must
have the magnitude of gravity. Every pose's squared magnitude error is computed
in a kernel; poses are weighted by how long the robot stood still (a
quality weight), and the host reports the weighted mean error. Backward is
seeded by hand on the per-pose error array.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

G = 9.80665
N_POSE = 40
PARAMS0 = np.array([1.01, 0.99, 1.02, 0.05, -0.08, 0.12])  # scale x y z, bias x y z [m/s^2]


def static_poses(seed=7):
    rng = np.random.default_rng(seed)
    d = rng.standard_normal((N_POSE, 3))
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    scale = np.array([0.982, 1.021, 0.995])
    bias = np.array([0.11, -0.16, 0.21])
    raw = G * d / scale + bias + 0.01 * rng.standard_normal((N_POSE, 3))
    still_s = rng.uniform(0.3, 6.0, N_POSE)  # seconds at rest: the quality weight
    return raw.astype(np.float32), still_s.astype(np.float32)


RAW, WEIGHT = static_poses()


@wp.kernel
def magnitude_error(raw: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), err: wp.array(dtype=float)):
    i = wp.tid()
    a = raw[i]
    c = wp.vec3(prm[0] * (a[0] - prm[3]), prm[1] * (a[1] - prm[4]), prm[2] * (a[2] - prm[5]))
    e = wp.length(c) - G
    err[i] = e * e


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    err = wp.zeros(N_POSE, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(magnitude_error, dim=N_POSE, inputs=[wp.array(RAW, dtype=wp.vec3), prm], outputs=[err])
    e = err.numpy().astype(np.float64)
    loss = float(np.sum(WEIGHT * e) / np.sum(WEIGHT))
    tape.backward(grads={err: wp.full(N_POSE, 1.0 / N_POSE, dtype=float)})  # expect: seeding
    return loss, prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"weighted mean squared |g| error {L:.5f} (m/s^2)^2; gradient {np.round(g, 4)}")
