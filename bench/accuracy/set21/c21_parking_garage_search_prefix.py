# correct: the stay probabilities are stored first and each car's occupancy is an explicit sum over earlier cars in a second kernel.
"""Multi-storey car park: each arriving car finds the garage occupied by the
expected number of earlier cars still parked (stay probability from a
logistic dwell model) and its search time grows with occupancy; dwell
parameters fitted to timed search logs."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CAR = 16
CAPACITY = 9.0
ARRIVE = np.linspace(0.0, 6.0, N_CAR).astype(np.float32)   # hours after opening


@wp.func
def stay_probability(p0: float, p1: float, t_arr: float):
    # probability a car that arrived at t_arr is still parked at the next arrivals
    return 1.0 / (1.0 + wp.exp(-(p0 * 3.0 - p1 * t_arr)))


@wp.kernel
def dwell(p: wp.array(dtype=float), arrive: wp.array(dtype=float), stay: wp.array(dtype=float)):
    i = wp.tid()
    stay[i] = stay_probability(p[0], p[1], arrive[i])


@wp.kernel
def search_time(stay: wp.array(dtype=float), t_search: wp.array(dtype=float)):
    i = wp.tid()
    before = float(0.0)
    for j in range(N_CAR):
        if j < i:
            before += stay[j]
    load = before / CAPACITY
    t_search[i] = 1.0 + 4.0 * load * load


@wp.kernel
def log_misfit(t_search: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = t_search[i] - obs[i]
    wp.atomic_add(loss, 0, d * d / float(N_CAR))


def simulate(params, t_search):
    stay = wp.zeros(N_CAR, dtype=float, requires_grad=True)
    wp.launch(dwell, dim=N_CAR, inputs=[params, wp.array(ARRIVE, dtype=float)], outputs=[stay])
    wp.launch(search_time, dim=N_CAR, inputs=[stay], outputs=[t_search])
    return t_search


def _logs():
    s = 1.0 / (1.0 + np.exp(-(0.8 * 3.0 - 0.5 * ARRIVE.astype(np.float64))))
    before = np.concatenate([[0.0], np.cumsum(s)[:-1]])
    return (1.0 + 4.0 * (before / CAPACITY) ** 2 + 0.1 * np.cos(np.arange(N_CAR))).astype(np.float32)


OBS = _logs()
PARAMS0 = np.array([0.6, 0.4])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    t_search = wp.zeros(N_CAR, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        simulate(params, t_search)
        wp.launch(log_misfit, dim=N_CAR, inputs=[t_search, wp.array(OBS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = evaluate(p)
        p -= 0.05 * g
    print(f"search-time loss {loss:.5f}  dwell={p[0]:.3f}  turnover={p[1]:.3f}")
