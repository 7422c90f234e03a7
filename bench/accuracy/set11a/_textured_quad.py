"""A tilted textured quad stored as a wp.Mesh, a pinhole camera looking at it, and
bilinear texture lookups; shared by the texture-optimisation demos."""
import numpy as np
import warp as wp

RES = 12
TEX = 4

QUAD_ORIGIN = np.array([-0.6, -0.5, 2.2], dtype=np.float32)
QUAD_EU = np.array([1.2, 0.0, 0.3], dtype=np.float32)
QUAD_EV = np.array([0.0, 1.0, 0.4], dtype=np.float32)


def make_quad():
    o, eu, ev = QUAD_ORIGIN, QUAD_EU, QUAD_EV
    pts = np.array([o, o + eu, o + eu + ev, o + ev], dtype=np.float32)
    idx = np.array([0, 1, 2, 0, 2, 3], dtype=np.int32)
    return wp.Mesh(points=wp.array(pts, dtype=wp.vec3), indices=wp.array(idx, dtype=int))


@wp.func
def texel(tex: wp.array2d(dtype=float), i: int, j: int):
    return tex[wp.clamp(i, 0, TEX - 1), wp.clamp(j, 0, TEX - 1)]


@wp.func
def sample_bilinear(tex: wp.array2d(dtype=float), uv: wp.vec2):
    x = uv[0] * float(TEX) - 0.5
    y = uv[1] * float(TEX) - 0.5
    x0 = wp.floor(x)
    y0 = wp.floor(y)
    fx = x - x0
    fy = y - y0
    i = int(y0)
    j = int(x0)
    top = (1.0 - fx) * texel(tex, i, j) + fx * texel(tex, i, j + 1)
    bot = (1.0 - fx) * texel(tex, i + 1, j) + fx * texel(tex, i + 1, j + 1)
    return (1.0 - fy) * top + fy * bot


@wp.func
def pixel_ray(i: int, j: int):
    u = (float(j) + 0.5) / float(RES) - 0.5
    v = (float(i) + 0.5) / float(RES) - 0.5
    return wp.normalize(wp.vec3(u, v, 1.0))


@wp.func
def quad_uv(p: wp.vec3):
    q = p - wp.vec3(-0.6, -0.5, 2.2)
    return wp.vec2(wp.dot(q, wp.vec3(1.2, 0.0, 0.3)) / 1.53, wp.dot(q, wp.vec3(0.0, 1.0, 0.4)) / 1.16)
