"""Frame rotations for the wind-farm gallery programs: on the host, and as a Warp kernel."""

import numpy as np
import warp as wp


@wp.kernel
def rotate(rot: wp.mat33, v: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = rot * v[i]


def yaw_matrix(deg):
    a = np.radians(deg)
    return np.array([[np.cos(a), -np.sin(a), 0.0], [np.sin(a), np.cos(a), 0.0], [0.0, 0.0, 1.0]], dtype=np.float32)


def to_rotor_frame_host(v, deg):
    out = wp.zeros_like(v)
    out.assign(v.numpy() @ yaw_matrix(deg).T)  # expect[assign_host_rotation_on_tape]: TW207
    return out


def to_rotor_frame(v, deg):
    out = wp.zeros_like(v)
    wp.launch(rotate, dim=v.shape[0], inputs=[wp.mat33(yaw_matrix(deg)), v], outputs=[out])
    return out
