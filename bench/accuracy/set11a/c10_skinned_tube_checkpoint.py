# correct: the skinning stage and the shading stage are on separate tapes chained by hand, and the skinning tape is seeded with the adjoints of both of its outputs (positions and normals).
"""Pose a two-bone skinned tube (linear blend skinning of positions and normals)
from a shaded capture: the skinning and the shading stages are checkpointed on
separate tapes."""
import numpy as np
import warp as wp

NU, NV = 8, 10
JOINT = wp.constant(wp.vec3(0.5, 0.0, 0.0))
LIGHT = wp.constant(wp.vec3(0.3, 0.8, 0.5))


@wp.kernel
def skin(rest: wp.array(dtype=wp.vec3), rest_n: wp.array(dtype=wp.vec3), weight: wp.array(dtype=float),
         pose: wp.array(dtype=float), pos: wp.array(dtype=wp.vec3), nrm: wp.array(dtype=wp.vec3)):
    k = wp.tid()
    q = wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), pose[0]) * wp.quat_from_axis_angle(wp.vec3(1.0, 0.0, 0.0), pose[1])
    w = weight[k]
    p = rest[k]
    pos[k] = (1.0 - w) * p + w * (wp.quat_rotate(q, p - JOINT) + JOINT)
    nrm[k] = wp.normalize((1.0 - w) * rest_n[k] + w * wp.quat_rotate(q, rest_n[k]))


@wp.kernel
def capture_loss(pos: wp.array(dtype=wp.vec3), nrm: wp.array(dtype=wp.vec3), ref_pos: wp.array(dtype=wp.vec3),
                 ref_shade: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    shade = 0.5 + 0.5 * wp.dot(nrm[k], wp.normalize(LIGHT))
    e = shade - ref_shade[k]
    d = pos[k] - ref_pos[k]
    wp.atomic_add(loss, 0, e * e + 0.1 * wp.dot(d, d))


def tube():
    u = np.linspace(0.0, 1.0, NU)
    v = np.linspace(0.0, 2 * np.pi, NV, endpoint=False)
    U, V = np.meshgrid(u, v)
    U, V = U.ravel(), V.ravel()
    n = np.stack([np.zeros_like(U), np.cos(V), np.sin(V)], 1)
    p = np.stack([U, 0.1 * np.cos(V), 0.1 * np.sin(V)], 1)
    w = 1.0 / (1.0 + np.exp(-(U - 0.5) / 0.08))
    return p.astype(np.float32), n.astype(np.float32), w.astype(np.float32)


REST, REST_N, WEIGHT = tube()


def skinned(pose, requires_grad=False):
    pos = wp.zeros(NU * NV, dtype=wp.vec3, requires_grad=requires_grad)
    nrm = wp.zeros(NU * NV, dtype=wp.vec3, requires_grad=requires_grad)
    wp.launch(skin, dim=NU * NV, inputs=[wp.array(REST, dtype=wp.vec3), wp.array(REST_N, dtype=wp.vec3),
                                         wp.array(WEIGHT, dtype=float), pose], outputs=[pos, nrm])
    return pos, nrm


_p, _n = skinned(wp.array([0.7, 0.5], dtype=float))
REF_POS = _p.numpy().copy()
REF_SHADE = (0.5 + 0.5 * _n.numpy() @ (np.array([0.3, 0.8, 0.5]) / np.linalg.norm([0.3, 0.8, 0.5]))).astype(np.float32)
PARAMS0 = [0.4, 0.2]


def evaluate(p):
    pose = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape_skin = wp.Tape()
    with tape_skin:
        pos, nrm = skinned(pose, requires_grad=True)

    pos_cp = wp.clone(pos)
    nrm_cp = wp.clone(nrm)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape_shade = wp.Tape()
    with tape_shade:
        wp.launch(capture_loss, dim=NU * NV, inputs=[pos_cp, nrm_cp, wp.array(REF_POS, dtype=wp.vec3),
                                                     wp.array(REF_SHADE, dtype=float)], outputs=[loss])
    tape_shade.backward(loss)
    tape_skin.backward(grads={pos: pos_cp.grad, nrm: nrm_cp.grad})
    return float(loss.numpy()[0]), pose.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.05 * g
    print(f"capture loss {l:.3e} bend {p[0]:.3f} twist {p[1]:.3f}")
