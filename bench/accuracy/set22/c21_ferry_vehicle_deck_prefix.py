# correct: the load aboard before each vehicle is summed explicitly over the earlier vehicles; the atomic add only totals the deck load.
"""Car ferry loading: fit vehicle mass scaling and the heel stiffness of the deck from the trim logged as each vehicle boards."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_VEH = 12
rng = np.random.default_rng(121)
MASS = rng.uniform(1.0, 3.5, N_VEH).astype(np.float32)  # tonnes, manifest values
LANE = rng.uniform(-4.0, 4.0, N_VEH).astype(np.float32)  # metres off the centre line


@wp.kernel
def board(p: wp.array(dtype=float), mass: wp.array(dtype=float), lane: wp.array(dtype=float),
          deck_load: wp.array(dtype=float), heel: wp.array(dtype=float)):
    i = wp.tid()
    w = p[0] * mass[i]
    wp.atomic_add(deck_load, 0, w)
    before = float(0.0)  # load already aboard, summed from the manifest (vehicles board in index order)
    for j in range(N_VEH):
        if j < i:
            before += p[0] * mass[j]
    # a heavier deck sits lower and is stiffer against heel
    stiffness = p[1] * (1.0 + 0.02 * (before + w))
    heel[i] = w * lane[i] / stiffness


@wp.kernel
def heel_err(heel: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = (heel[i] - obs[i]) * 10.0
    wp.atomic_add(loss, 0, r * r / float(N_VEH))


def _obs(s=1.15, k=9.0):
    w = s * MASS
    cum = np.cumsum(w)
    return (w * LANE / (k * (1 + 0.02 * cum))).astype(np.float32)


OBS = wp.array(_obs(), dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    deck_load = wp.zeros(1, dtype=float, requires_grad=True)
    heel = wp.zeros(N_VEH, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(board, dim=N_VEH, inputs=[params, wp.array(MASS, dtype=float), wp.array(LANE, dtype=float)],
                  outputs=[deck_load, heel])
        wp.launch(heel_err, dim=N_VEH, inputs=[heel, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [1.0, 8.0]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.05 * g
    print("ferry heel loss %.5f params %s" % (l, p))
