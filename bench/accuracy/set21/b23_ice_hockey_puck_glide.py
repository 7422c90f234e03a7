"""Ice hockey puck glide: a pass on fresh ice with Coulomb friction and
aerodynamic drag, explicit steps of vec2 position/velocity and a damped
rebound off the side boards; ice friction and board restitution fitted to
tracking-camera positions."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_STEP = 40
DT = 0.02
N_SHOT = 6
HALF_WIDTH = 1.2


@wp.kernel
def glide(p: wp.array(dtype=float), x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2),
          x_new: wp.array(dtype=wp.vec2), v_new: wp.array(dtype=wp.vec2)):
    s = wp.tid()
    vel = v[s]
    speed = wp.length(vel) + 1.0e-6
    mu = p[0] * 0.05
    acc = -vel / speed * (mu * 9.81) - 0.004 * speed * vel
    vn = vel + DT * acc
    v_new[s] = vn
    x_new[s] = x[s] + DT * vn


@wp.kernel(enable_backward=False)  # expect: adjoint_disabled
def boards(p: wp.array(dtype=float), x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2),
           x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    s = wp.tid()
    pos = x[s]
    vel = v[s]
    e = p[1] * 0.5
    if pos[1] > HALF_WIDTH:
        pos = wp.vec2(pos[0], 2.0 * HALF_WIDTH - pos[1])
        vel = wp.vec2(vel[0] * 0.95, -e * vel[1])
    x_out[s] = pos
    v_out[s] = vel


@wp.kernel
def track_misfit(x: wp.array(dtype=wp.vec2), obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    s = wp.tid()
    d = x[s] - obs[s]
    wp.atomic_add(loss, 0, wp.dot(d, d))


V0 = np.stack([np.linspace(8.0, 12.0, N_SHOT), np.linspace(1.0, 3.0, N_SHOT)], axis=1).astype(np.float32)


def shoot(params):
    x = wp.zeros(N_SHOT, dtype=wp.vec2, requires_grad=True)
    v = wp.array(V0, dtype=wp.vec2, requires_grad=True)
    for n in range(N_STEP):
        xg, vg = wp.zeros_like(x), wp.zeros_like(v)
        wp.launch(glide, dim=N_SHOT, inputs=[params, x, v], outputs=[xg, vg])
        x, v = wp.zeros_like(x), wp.zeros_like(v)
        wp.launch(boards, dim=N_SHOT, inputs=[params, xg, vg], outputs=[x, v])
    return x


OBS = shoot(wp.array([1.2, 1.4], dtype=float)).numpy() + np.float32(0.01)
PARAMS0 = np.array([0.9, 1.1])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        x_end = shoot(params)
        wp.launch(track_misfit, dim=N_SHOT, inputs=[x_end, wp.array(OBS, dtype=wp.vec2)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = evaluate(p)
        p -= 0.1 * g / (1.0 + np.linalg.norm(g))
    print(f"tracking loss {loss:.5f}  ice friction={0.05 * p[0]:.4f}  restitution={0.5 * p[1]:.3f}")
