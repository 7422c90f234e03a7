# correct: a forward-kinematics loop carries the heading nonlinearly from segment to segment, but its bound is a module constant (unrolled)
"""Planar tendon-driven continuum robot: each of N_SEG segments bends with a
curvature set by two tendon tensions (antagonistic pair per section, two
sections). Find the tensions that put the tip on a target with the tip
pointing along a desired direction.
"""
import numpy as np
import warp as wp

N_SEG = 8
SEG_LEN = 0.05


@wp.func
def segment_curvature(tension: wp.array(dtype=float), s: int):
    sec = s // (N_SEG // 2)
    return 2.0 * (tension[2 * sec] - tension[2 * sec + 1]) / (1.0 + 0.2 * (tension[2 * sec] + tension[2 * sec + 1]))


@wp.kernel
def backbone(tension: wp.array(dtype=float), frames: wp.array(dtype=wp.vec3)):
    # frames[s] = (x, y, heading) at the start of segment s
    p = wp.vec2(0.0, 0.0)
    heading = float(1.5707963)
    frames[0] = wp.vec3(p[0], p[1], heading)
    for s in range(N_SEG):
        kappa = segment_curvature(tension, s)
        mid = heading + 0.5 * kappa * SEG_LEN
        p = p + SEG_LEN * wp.vec2(wp.cos(mid), wp.sin(mid))
        heading = heading + kappa * SEG_LEN
        frames[s + 1] = wp.vec3(p[0], p[1], heading)


@wp.kernel
def tip_pose_loss(frames: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=float)):
    f = frames[N_SEG]
    d = wp.vec2(f[0] - target[0], f[1] - target[1])
    loss[0] = wp.dot(d, d) + 0.05 * (1.0 - wp.cos(f[2] - target[2]))


TARGET = wp.vec3(0.15, 0.3, 0.4)


def evaluate(p):
    tension = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    frames = wp.zeros(N_SEG + 1, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(backbone, dim=1, inputs=[tension], outputs=[frames])
        wp.launch(tip_pose_loss, dim=1, inputs=[frames, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), tension.grad.numpy().copy()


PARAMS0 = np.array([1.0, 3.0, 2.0, 0.5])
FD_EPS = 1e-3

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        l, g = evaluate(p)
        print(f"iter {it}: loss {l:.5f} tensions {p}")
        p = np.maximum(p - 2.0 * g, 0.0)
