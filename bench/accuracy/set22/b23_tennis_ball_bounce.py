"""Tennis court pace rating: fit the ball's restitution and the court's sliding friction from radar speeds before and after the bounce."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SHOT = 36
rng = np.random.default_rng(141)
VX_IN = rng.uniform(20.0, 45.0, N_SHOT).astype(np.float32)
VY_IN = rng.uniform(-12.0, -6.0, N_SHOT).astype(np.float32)
SPIN = rng.uniform(-30.0, 60.0, N_SHOT).astype(np.float32)  # rad/s topspin


@wp.struct
class Court:
    restitution: float
    friction: float


@wp.kernel
def make_court(p: wp.array(dtype=float), court: wp.array(dtype=Court)):
    c = Court()
    c.restitution = p[0]
    c.friction = p[1]
    court[0] = c


@wp.kernel(enable_backward=False)  # expect: adjoint_disabled
def bounce(court: wp.array(dtype=Court), vx: wp.array(dtype=float), vy: wp.array(dtype=float),
           spin: wp.array(dtype=float), out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    c = court[0]
    slip = vx[i] - 0.033 * spin[i]
    # sliding friction impulse proportional to the normal impulse, capped where the ball starts rolling
    dv = wp.min(c.friction * (1.0 + c.restitution) * (-vy[i]), 0.4 * slip)
    out[i] = wp.vec2(vx[i] - dv, -c.restitution * vy[i])


@wp.kernel
def radar_err(out: wp.array(dtype=wp.vec2), obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = out[i] - obs[i]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N_SHOT))


def _obs(e=0.75, mu=0.55):
    slip = VX_IN - 0.033 * SPIN
    dv = np.minimum(mu * (1 + e) * (-VY_IN), 0.4 * slip)
    return np.stack([VX_IN - dv, -e * VY_IN], axis=1).astype(np.float32)


OBS = wp.array(_obs(), dtype=wp.vec2)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    court = wp.zeros(1, dtype=Court, requires_grad=True)
    out = wp.zeros(N_SHOT, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(make_court, dim=1, inputs=[params], outputs=[court])
        wp.launch(bounce, dim=N_SHOT, inputs=[court, wp.array(VX_IN, dtype=float), wp.array(VY_IN, dtype=float),
                                              wp.array(SPIN, dtype=float)], outputs=[out])
        wp.launch(radar_err, dim=N_SHOT, inputs=[out, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [0.65, 0.45]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.002 * g
    print("court pace loss %.5f params %s" % (l, p))
