"""Rowing: fit hull drag and blade efficiency of a coxless four from GPS boat speeds over several pieces."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PIECE = 40
rng = np.random.default_rng(71)
RATE = rng.uniform(18.0, 28.0, N_PIECE).astype(np.float32)  # strokes per minute
POWER = rng.uniform(250.0, 450.0, N_PIECE).astype(np.float32)  # watts per rower
NEXT_RATE = rng.uniform(44.0, 56.0, N_PIECE).astype(np.float32)


@wp.kernel
def boat_speed(p: wp.array(dtype=float), rate: wp.array(dtype=float), power: wp.array(dtype=float),
               speed: wp.array(dtype=float)):
    i = wp.tid()
    # blade efficiency drops at high rate (slip), velocity fluctuation adds drag ~ rate^2
    eff = p[1] / (1.0 + 0.0004 * rate[i] * rate[i])
    k = p[0] * (1.0 + 0.00015 * rate[i] * rate[i])
    speed[i] = wp.pow(4.0 * eff * power[i] / k, 1.0 / 3.0)


@wp.kernel
def gps_err(speed: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = speed[i] - obs[i]
    wp.atomic_add(loss, 0, r * r)


def _speed(rate, k=3.4, e=0.8):
    eff = e / (1 + 0.0004 * rate ** 2)
    return np.cbrt(4 * eff * POWER / (k * (1 + 0.00015 * rate ** 2))).astype(np.float32)


OBS = wp.array(_speed(RATE), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    rate = wp.array(RATE, dtype=float)
    speed = wp.zeros(N_PIECE, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(boat_speed, dim=N_PIECE, inputs=[params, rate, wp.array(POWER, dtype=float)], outputs=[speed])
        wp.launch(gps_err, dim=N_PIECE, inputs=[speed, OBS], outputs=[loss])
    value = float(loss.numpy()[0])
    rate.assign(NEXT_RATE)  # expect: host_mutation
    tape.backward(loss)
    return value, params.grad.numpy().astype(np.float64)


PARAMS0 = [2.8, 0.9]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.5 * g
    print("boat speed loss %.5f params %s" % (l, p))
