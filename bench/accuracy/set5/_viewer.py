"""Tiny debug viewer: perspective projection of simulation points into screen space."""
import warp as wp


@wp.kernel
def project_kernel(points: wp.array(dtype=wp.vec3), eye: wp.vec3, focal: wp.float32, out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = points[i] - eye
    z = wp.max(p[2], 0.1)
    out[i] = wp.vec3(focal * p[0] / z, focal * p[1] / z, z)


def project_to_screen(points, out, eye=(0.0, 1.0, -6.0), focal=1.5):
    wp.launch(project_kernel, dim=points.shape[0], inputs=[points, wp.vec3(*eye), focal], outputs=[out])
    return out.numpy()
