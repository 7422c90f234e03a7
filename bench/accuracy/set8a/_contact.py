"""Penalty ground contact with regularised Coulomb friction for point particles."""
import warp as wp


@wp.struct
class ContactModel:
    coef: wp.array(dtype=wp.float64)  # [ke, kd, mu]
    v_eps: wp.float64


@wp.func
def ground_force(x: wp.vec3d, v: wp.vec3d, cm: ContactModel) -> wp.vec3d:
    pen = -x[1]
    f = wp.vec3d(wp.float64(0.0), wp.float64(0.0), wp.float64(0.0))
    if pen > wp.float64(0.0):
        fn = cm.coef[0] * pen - cm.coef[1] * v[1]
        vt = wp.vec3d(v[0], wp.float64(0.0), v[2])
        slip = wp.sqrt(v[0] * v[0] + v[2] * v[2])  # expect: nonfinite
        ft = -cm.coef[2] * fn * vt / (slip + cm.v_eps)
        f = ft + wp.vec3d(wp.float64(0.0), fn, wp.float64(0.0))
    return f


@wp.kernel
def particle_step(x: wp.array(dtype=wp.vec3d), v: wp.array(dtype=wp.vec3d), cm: ContactModel, dt: wp.float64,
                  x_out: wp.array(dtype=wp.vec3d), v_out: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    a = ground_force(x[i], v[i], cm) + wp.vec3d(wp.float64(0.0), wp.float64(-9.81), wp.float64(0.0))
    vn = v[i] + dt * a
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn
