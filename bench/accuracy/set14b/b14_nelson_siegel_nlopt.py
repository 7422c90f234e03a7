"""Nelson-Siegel yield curve fitted to government bond yields with NLopt's
SLSQP; Warp supplies the objective and its gradient through the callback.
"""
import nlopt
import numpy as np
import warp as wp

wp.config.quiet = True

MATS = np.array([0.25, 0.5, 1, 2, 3, 5, 7, 10, 20, 30], dtype=np.float32)
YIELDS = np.array([4.90, 4.85, 4.62, 4.30, 4.12, 3.98, 4.00, 4.08, 4.35, 4.40], dtype=np.float32)


@wp.kernel
def ns_misfit(mats: wp.array(dtype=float), obs: wp.array(dtype=float), prm: wp.array(dtype=float),
              loss: wp.array(dtype=float)):
    k = wp.tid()
    x = mats[k] / prm[3]
    f1 = (1.0 - wp.exp(-x)) / x
    f2 = f1 - wp.exp(-x)
    y = prm[0] + prm[1] * f1 + prm[2] * f2
    d = y - obs[k]
    wp.atomic_add(loss, 0, d * d)


MATS_D = wp.array(MATS, dtype=float)
OBS_D = wp.array(YIELDS, dtype=float)
PRM = wp.zeros(4, dtype=float, requires_grad=True)
CONSUMED = []
LAST_X = []


def record(x):
    PRM.assign(np.asarray(x, dtype=np.float32))
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(ns_misfit, dim=MATS.size, inputs=[MATS_D, OBS_D, PRM], outputs=[loss])
    return tape, loss


def objective(x, grad):
    LAST_X.append(np.array(x))
    tape, loss = record(x)
    if grad.size > 0:
        tape.backward(loss)
        tape.zero()  # expect: grad_read
        grad[:] = PRM.grad.numpy()
        CONSUMED.append(grad.copy())
    return float(loss.numpy()[0])


def fit(x0, maxeval=40):
    opt = nlopt.opt(nlopt.LD_SLSQP, 4)
    opt.set_min_objective(objective)
    opt.set_lower_bounds([0.0, -10.0, -10.0, 0.2])
    opt.set_upper_bounds([10.0, 10.0, 10.0, 10.0])
    opt.set_maxeval(maxeval)
    try:
        x = opt.optimize(np.asarray(x0, dtype=float))
    except nlopt.RoundoffLimited:  # float32 objective: the result so far is still usable
        x = np.asarray(x0, dtype=float) if opt.last_optimum_value() == float("inf") else LAST_X[-1]
    return x, opt.last_optimum_value()


X0 = np.array([4.2, 0.5, -1.0, 2.0])


def verify():
    CONSUMED.clear()
    fit(X0, maxeval=1)
    ad = CONSUMED[0]
    fd = []
    for k in range(4):
        xp, xm = X0.copy(), X0.copy()
        xp[k] += 1e-3
        xm[k] -= 1e-3
        fd.append((objective(xp, np.zeros(0)) - objective(xm, np.zeros(0))) / 2e-3)
    return ad, np.array(fd)


if __name__ == "__main__":
    x, f = fit(X0)
    print("beta0, beta1, beta2, tau =", np.round(x, 4), " SSE", round(f, 5))
