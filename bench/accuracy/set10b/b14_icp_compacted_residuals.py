"""2-D point-to-point ICP with a robust (Geman-McClure) loss.

Each iteration: (1) nearest-neighbour correspondences outside the tape,
(2) residuals of the inlier pairs compacted into a dense list, (3) the robust
loss over that list, differentiated w.r.t. the rigid transform (angle, tx, ty).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SRC = 24
N_DST = 30
INLIER_RADIUS = 0.35
SIGMA = 0.1


@wp.kernel
def nearest(src: wp.array(dtype=wp.vec2), dst: wp.array(dtype=wp.vec2), pose: wp.array(dtype=float),
            nn: wp.array(dtype=int), inlier: wp.array(dtype=int), n_inliers: wp.array(dtype=int)):
    i = wp.tid()
    c = wp.cos(pose[0])
    s = wp.sin(pose[0])
    p = wp.vec2(c * src[i][0] - s * src[i][1] + pose[1], s * src[i][0] + c * src[i][1] + pose[2])
    best = int(0)
    best_d = float(1.0e30)
    for j in range(N_DST):
        d = wp.length_sq(p - dst[j])
        if d < best_d:
            best_d = d
            best = j
    nn[i] = best
    if best_d < INLIER_RADIUS * INLIER_RADIUS:
        inlier[i] = 1
        wp.atomic_add(n_inliers, 0, 1)
    else:
        inlier[i] = 0


@wp.kernel
def gather_residuals(src: wp.array(dtype=wp.vec2), dst: wp.array(dtype=wp.vec2), pose: wp.array(dtype=float),
                     nn: wp.array(dtype=int), inlier: wp.array(dtype=int), cursor: wp.array(dtype=int),
                     res: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    if inlier[i] == 0:
        return
    c = wp.cos(pose[0])
    s = wp.sin(pose[0])
    p = wp.vec2(c * src[i][0] - s * src[i][1] + pose[1], s * src[i][0] + c * src[i][1] + pose[2])
    slot = wp.atomic_add(cursor, 0, 1)  # expect: atomic_replay
    res[slot] = p - dst[nn[i]]


@wp.kernel
def geman_mcclure(res: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    k = wp.tid()
    r2 = wp.length_sq(res[k])
    wp.atomic_add(loss, 0, r2 / (r2 + SIGMA * SIGMA))


def make_scans(seed=3):
    rng = np.random.default_rng(seed)
    src = rng.uniform(-1, 1, (N_SRC, 2))
    th, t = 0.25, np.array([0.2, -0.1])
    R = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]])
    dst = src @ R.T + t + rng.normal(0, 0.02, src.shape)
    dst = np.concatenate([dst, rng.uniform(-1.5, 1.5, (N_DST - N_SRC, 2))])  # clutter
    return wp.array(src.astype(np.float32), dtype=wp.vec2), wp.array(dst.astype(np.float32), dtype=wp.vec2)


SRC, DST = make_scans()
PARAMS0 = np.array([0.1, 0.1, 0.0])


class ICP:
    def __init__(self, src, dst):
        self.src, self.dst = src, dst
        self.nn = wp.zeros(N_SRC, dtype=int)
        self.inlier = wp.zeros(N_SRC, dtype=int)
        self.n_inliers = wp.zeros(1, dtype=int)
        self.cursor = wp.zeros(1, dtype=int)

    def loss_and_grad(self, pose_np):
        pose = wp.array(np.asarray(pose_np, np.float32), dtype=float, requires_grad=True)
        self.n_inliers.zero_()
        wp.launch(nearest, dim=N_SRC, inputs=[self.src, self.dst, pose], outputs=[self.nn, self.inlier, self.n_inliers])
        self.cursor.zero_()
        res = wp.zeros(N_SRC, dtype=wp.vec2, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(gather_residuals, dim=N_SRC, inputs=[self.src, self.dst, pose, self.nn, self.inlier, self.cursor],
                      outputs=[res])
            wp.launch(geman_mcclure, dim=N_SRC, inputs=[res], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), pose.grad.numpy().astype(np.float64)


_icp = ICP(SRC, DST)


def evaluate(p):
    return _icp.loss_and_grad(p)


if __name__ == "__main__":
    icp = ICP(SRC, DST)
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = icp.loss_and_grad(p)
        p -= 0.01 * g
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.4f} inliers {icp.n_inliers.numpy()[0]} pose {np.round(p, 3)}")
