# correct: a softmax normaliser is reduced and a score map is cloned while the tape records, but with a taped reduction kernel and a wp.clone that the tape records (its adjoint is the identity)
"""Sub-pixel keypoint localisation with a soft-argmax over a learned score
map.  Scores are a linear filter bank response (3 learned 3x3 filters with
mixing weights) of a synthetic image; the loss is the distance between the
soft-argmax location and the annotated keypoint, over several images.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

RES = 12
N_IMG = 3
TEMP = 0.5


@wp.kernel
def filter_scores(img: wp.array2d(dtype=float), filt: wp.array3d(dtype=float), mix: wp.array(dtype=float), scores: wp.array2d(dtype=float)):
    y, x = wp.tid()
    s = float(0.0)
    for f in range(3):
        r = float(0.0)
        for dy in range(3):
            for dx in range(3):
                yy = wp.clamp(y + dy - 1, 0, RES - 1)
                xx = wp.clamp(x + dx - 1, 0, RES - 1)
                r += filt[f, dy, dx] * img[yy, xx]
        s += mix[f] * wp.tanh(r)
    scores[y, x] = s


@wp.kernel
def exp_scores(scores: wp.array2d(dtype=float), e: wp.array2d(dtype=float)):
    y, x = wp.tid()
    e[y, x] = wp.exp(scores[y, x] / TEMP)


@wp.kernel
def total_mass(e: wp.array2d(dtype=float), z: wp.array(dtype=float)):
    y, x = wp.tid()
    wp.atomic_add(z, 0, e[y, x])


@wp.kernel
def expected_location(e: wp.array2d(dtype=float), z: wp.array(dtype=float), loc: wp.array(dtype=wp.vec2)):
    y, x = wp.tid()
    wp.atomic_add(loc, 0, (e[y, x] / z[0]) * wp.vec2(float(x), float(y)))


@wp.kernel
def keypoint_loss(loc: wp.array(dtype=wp.vec2), gt: wp.vec2, loss: wp.array(dtype=float)):
    d = loc[0] - gt
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N_IMG))


def images(seed=5):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(N_IMG):
        kp = rng.uniform(3, RES - 4, 2)
        ys, xs = np.mgrid[0:RES, 0:RES]
        img = np.exp(-((xs - kp[0]) ** 2 + (ys - kp[1]) ** 2) / 3.0) + 0.1 * rng.normal(size=(RES, RES))
        out.append((wp.array(img.astype(np.float32), dtype=float), wp.vec2(*kp)))
    return out


IMAGES = images()
PARAMS0 = np.concatenate([np.random.default_rng(0).normal(0, 0.3, 27), [1.0, 0.5, -0.5]])
FD_EPS = 1e-2  # float32 exp-sum: smaller steps measure rounding noise


def evaluate(p):
    p = np.asarray(p, np.float32)
    filt = wp.array(p[:27].reshape(3, 3, 3), dtype=float, requires_grad=True)
    mix = wp.array(p[27:], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for img, gt in IMAGES:
            scores = wp.zeros((RES, RES), dtype=float, requires_grad=True)
            wp.launch(filter_scores, dim=(RES, RES), inputs=[img, filt, mix], outputs=[scores])
            heat = wp.clone(scores)  # keep the raw scores for visualisation
            e = wp.zeros((RES, RES), dtype=float, requires_grad=True)
            wp.launch(exp_scores, dim=(RES, RES), inputs=[heat], outputs=[e])
            z = wp.zeros(1, dtype=float, requires_grad=True)
            wp.launch(total_mass, dim=(RES, RES), inputs=[e], outputs=[z])
            loc = wp.zeros(1, dtype=wp.vec2, requires_grad=True)
            wp.launch(expected_location, dim=(RES, RES), inputs=[e, z], outputs=[loc])
            wp.launch(keypoint_loss, dim=1, inputs=[loc, gt], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([filt.grad.numpy().ravel(), mix.grad.numpy()]).astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(60):
        loss, g = evaluate(p)
        p -= 0.01 * g
        if it % 20 == 0:
            print(f"iter {it:2d} mean squared keypoint error {loss:.3f} px^2")
