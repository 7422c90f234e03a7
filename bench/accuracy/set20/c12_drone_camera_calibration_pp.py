# correct: b12 (component_reassign): K is built with the aspect-corrected focal length; only the constant principal point K[0, 2] is assigned afterwards.
"""Survey-drone camera self-calibration: ground control points (vec3, camera
frame) are projected through an intrinsic matrix K (mat33) built from the
focal length and the pixel aspect ratio, with each frame's digital zoom
applied on top (a zoom about the principal point). Focal length (px) and aspect ratio are fitted to the GCP
pixel detections.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_GCP = 16
CX, CY = 960.0, 540.0
rng = np.random.default_rng(3)
PTS = np.stack([rng.uniform(-20, 20, N_GCP), rng.uniform(-12, 12, N_GCP), rng.uniform(60, 90, N_GCP)], 1)
ZOOM = np.where(np.arange(N_GCP) < 8, 1.0, 1.25)
F_TRUE, ASPECT_TRUE = 1480.0, 1.012
UV_OBS = np.stack([F_TRUE * ASPECT_TRUE * ZOOM * PTS[:, 0] / PTS[:, 2] + CX,
                   F_TRUE * ZOOM * PTS[:, 1] / PTS[:, 2] + CY], 1) + rng.normal(0, 0.4, (N_GCP, 2))
PARAMS0 = np.array([1.45, 1.0])  # focal length in 1000 px, aspect


@wp.kernel
def project(pts: wp.array(dtype=wp.vec3), zoom: wp.array(dtype=float), p: wp.array(dtype=float),
            uv: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    f = p[0] * 1000.0
    K = wp.mat33(f * p[1], 0.0, 0.0, 0.0, f, CY, 0.0, 0.0, 1.0)
    K[0, 2] = CX
    z = zoom[i]
    Z = wp.mat33(z, 0.0, CX * (1.0 - z), 0.0, z, CY * (1.0 - z), 0.0, 0.0, 1.0)
    q = Z * K * pts[i]
    uv[i] = wp.vec2(q[0] / q[2], q[1] / q[2])


@wp.kernel
def reproj_loss(uv: wp.array(dtype=wp.vec2), obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = uv[i] - obs[i]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N_GCP))


PTS_W = wp.array(PTS, dtype=wp.vec3)
ZOOM_W = wp.array(ZOOM, dtype=float)
OBS_W = wp.array(UV_OBS, dtype=wp.vec2)


def evaluate(p_np):
    p = wp.array(p_np, dtype=float, requires_grad=True)
    uv = wp.zeros(N_GCP, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(project, dim=N_GCP, inputs=[PTS_W, ZOOM_W, p], outputs=[uv])
        wp.launch(reproj_loss, dim=N_GCP, inputs=[uv, OBS_W], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), p.grad.numpy().copy()


FD_EPS = 1e-4

if __name__ == "__main__":
    val, g = evaluate(PARAMS0)
    print(f"reprojection MSE {val:.3f} px^2  d/d(focal) {g[0]:.2f}  d/d(aspect) {g[1]:.2f}")
