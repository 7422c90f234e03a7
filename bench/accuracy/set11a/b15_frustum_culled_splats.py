"""Point splatting with frustum culling: splats in front of the camera are
projected into a compact visible list, then blended into the image; the 3D
positions are fitted to a reference rendering."""
import numpy as np
import warp as wp

RES = 14
FOCAL = 14.0
NEAR = 0.5


@wp.struct
class Splats:
    pos: wp.array(dtype=wp.vec3)
    scale: wp.array(dtype=float)


@wp.kernel
def count_visible(s: Splats, counter: wp.array(dtype=int), slot_of: wp.array(dtype=int)):
    k = wp.tid()
    slot_of[k] = -1
    if s.pos[k][2] > NEAR:
        slot_of[k] = wp.atomic_add(counter, 0, 1)


@wp.kernel
def project_visible(s: Splats, slot_of: wp.array(dtype=int), fill: wp.array(dtype=int),
                    visible: wp.array(dtype=wp.vec3)):
    k = wp.tid()
    p = s.pos[k]
    if p[2] > NEAR:
        slot = wp.atomic_add(fill, 0, 1)  # expect: atomic_replay
        radius = FOCAL * s.scale[k] / p[2]
        visible[slot] = wp.vec3(FOCAL * p[0] / p[2] + 0.5 * float(RES), FOCAL * p[1] / p[2] + 0.5 * float(RES), radius)


@wp.kernel
def blend(visible: wp.array(dtype=wp.vec3), n_visible: int, img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    c = float(0.0)
    for k in range(n_visible):
        v = visible[k]
        dx = float(j) + 0.5 - v[0]
        dy = float(i) + 0.5 - v[1]
        c += wp.exp(-(dx * dx + dy * dy) / (v[2] * v[2]))
    img[i, j] = c


@wp.kernel
def image_loss(img: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, d * d)


def render(pos_np, requires_grad=False):
    """Two-pass compaction: count the splats in front of the camera, then fill the visible list."""
    n = len(pos_np)
    s = Splats()
    s.pos = wp.array(pos_np, dtype=wp.vec3, requires_grad=requires_grad)
    s.scale = wp.full(n, 0.15, dtype=float)
    counter = wp.zeros(1, dtype=int)
    slot_of = wp.zeros(n, dtype=int)
    wp.launch(count_visible, dim=n, inputs=[s, counter], outputs=[slot_of])
    n_visible = int(counter.numpy()[0])
    fill = wp.zeros(1, dtype=int)
    visible = wp.zeros(n_visible, dtype=wp.vec3, requires_grad=requires_grad)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=requires_grad)
    wp.launch(project_visible, dim=n, inputs=[s, slot_of, fill], outputs=[visible])
    wp.launch(blend, dim=(RES, RES), inputs=[visible, n_visible], outputs=[img])
    return s, img


TRUE_POS = np.array([[0.2, 0.1, 2.0], [0.0, 0.0, -1.0], [-0.25, -0.15, 1.8], [0.1, -0.3, 2.3]], dtype=np.float32)
REF = render(TRUE_POS)[1].numpy().copy()
PARAMS0 = list((TRUE_POS + np.array([[0.03, -0.02, 0.1], [0.0, 0.0, 0.0], [0.02, 0.03, -0.1], [-0.03, 0.02, 0.05]])).ravel())


def evaluate(p):
    ref = wp.array(REF, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        s, img = render(np.asarray(p, dtype=np.float32).reshape(-1, 3), requires_grad=True)
        wp.launch(image_loss, dim=(RES, RES), inputs=[img, ref], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), s.pos.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(20):
        l, g = evaluate(p)
        p -= 0.002 * g
    print(f"image loss {l:.4f}")
    print("positions", p.reshape(-1, 3).round(3))
