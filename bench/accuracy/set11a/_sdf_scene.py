"""Pinhole camera rays and a signed-distance sphere, shared by the depth-fitting demos."""
import numpy as np
import warp as wp

RES = 8
FOV = 0.35


@wp.struct
class Sphere:
    center: wp.array(dtype=wp.vec3)
    radius: wp.array(dtype=float)


@wp.func
def sphere_sdf(p: wp.vec3, c: wp.vec3, r: float):
    return wp.length(p - c) - r


def camera_rays(res=RES, fov=FOV):
    u = np.linspace(-fov, fov, res)
    U, V = np.meshgrid(u, u)
    d = np.stack([U.ravel(), V.ravel(), np.ones(res * res)], axis=1)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    return d.astype(np.float32)


def depth_np(dirs, c, r):
    # analytic ray-sphere hit distance for rays from the origin
    c = np.asarray(c, dtype=np.float64)
    b = dirs @ c
    disc = b * b - (c @ c - r * r)
    return (b - np.sqrt(np.maximum(disc, 0.0))).astype(np.float32)
