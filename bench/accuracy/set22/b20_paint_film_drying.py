"""Paint drying: fit the solvent evaporation rate and humidity retardation of a wet film from gravimetric film thickness."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PANEL = 40
rng = np.random.default_rng(111)
WET = rng.uniform(80.0, 160.0, N_PANEL).astype(np.float32)  # micrometres
MINUTES = rng.uniform(5.0, 60.0, N_PANEL).astype(np.float32)
HUMID = rng.uniform(0.3, 0.9, N_PANEL).astype(np.float32)


@wp.kernel
def film_thickness(p: wp.array(dtype=float), wet: wp.array(dtype=float), minutes: wp.array(dtype=float),
                   humid: wp.array(dtype=float), film: wp.array(dtype=float)):
    i = wp.tid()
    solids = 0.45 * wet[i]
    film[i] = solids + (wet[i] - solids) * wp.exp(-p[0] * minutes[i] / 10.0)
    film[i] = film[i] * (1.0 + 0.6 * p[1] * humid[i] * humid[i])  # expect: inplace_op


@wp.kernel
def gravimetric_err(film: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = (film[i] - obs[i]) / 10.0
    wp.atomic_add(loss, 0, r * r / float(N_PANEL))


def _obs(k=0.9, h=1.4):
    f = 0.45 * WET + 0.55 * WET * np.exp(-k * MINUTES / 10.0)
    return (f * (1 + 0.6 * h * HUMID ** 2)).astype(np.float32)


OBS = wp.array(_obs(), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    film = wp.zeros(N_PANEL, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(film_thickness, dim=N_PANEL, inputs=[params, wp.array(WET, dtype=float), wp.array(MINUTES, dtype=float),
                                                        wp.array(HUMID, dtype=float)], outputs=[film])
        wp.launch(gravimetric_err, dim=N_PANEL, inputs=[film, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [0.6, 2.5]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.2 * g
    print("film drying loss %.5f params %s" % (l, p))
