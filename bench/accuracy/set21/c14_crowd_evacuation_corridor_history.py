# correct: every taped step writes a fresh density array kept in a history list, so no state the tape read is overwritten.
"""Stadium exit corridor: a cell-transmission (Godunov, Greenshields flux)
crowd model stepped in time keeping the whole state history; free walking speed
and jam density fitted to the outflow counted at the gate."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_CELL = 24
N_STEP = 30
DX, DT = 1.0, 0.3


@wp.func
def flux(rho: float, v: float, rj: float):
    return v * rho * (1.0 - rho / rj)


@wp.kernel
def ctm_step(p: wp.array(dtype=float), rho: wp.array(dtype=float), rho_new: wp.array(dtype=float),
             gate: wp.array(dtype=float)):
    i = wp.tid()
    v = p[0]
    rj = p[1] * 5.0
    crit = 0.5 * rj
    send = flux(wp.min(rho[i], crit), v, rj)
    q_out = send
    if i < N_CELL - 1:
        recv = flux(wp.max(rho[i + 1], crit), v, rj)
        q_out = wp.min(send, recv)
    q_in = float(0.0)
    if i > 0:
        q_in = wp.min(flux(wp.min(rho[i - 1], crit), v, rj), flux(wp.max(rho[i], crit), v, rj))
    rho_new[i] = rho[i] + DT / DX * (q_in - q_out)
    if i == N_CELL - 1:
        wp.atomic_add(gate, 0, DT * q_out)


def initial_density():
    x = np.arange(N_CELL)
    return (1.6 * np.exp(-((x - 8.0) / 5.0) ** 2)).astype(np.float32)


def evacuate(params, gates):
    history = [wp.array(initial_density(), dtype=float, requires_grad=True)]
    for step in range(N_STEP):
        history.append(wp.empty_like(history[-1]))
        wp.launch(ctm_step, dim=N_CELL, inputs=[params, history[step]], outputs=[history[step + 1], gates[step]])
    return gates


OBS = np.array([g.numpy()[0] for g in evacuate(wp.array([1.3, 0.8], dtype=float),
                                               [wp.zeros(1, dtype=float) for _ in range(N_STEP)])])


@wp.kernel
def count_misfit(gate: wp.array(dtype=float), obs: float, loss: wp.array(dtype=float)):
    d = (gate[0] - obs) * 10.0
    wp.atomic_add(loss, 0, d * d)


PARAMS0 = np.array([1.1, 0.9])


def evaluate(p):
    params = wp.array(np.asarray(p, np.float32), dtype=float, requires_grad=True)
    gates = [wp.zeros(1, dtype=float, requires_grad=True) for _ in range(N_STEP)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        evacuate(params, gates)
        for k in range(N_STEP):
            wp.launch(count_misfit, dim=1, inputs=[gates[k], float(OBS[k])], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(20):
        loss, g = evaluate(p)
        p -= 0.02 * g / (1.0 + np.linalg.norm(g))
    print(f"gate-count loss {loss:.5f}  v_free={p[0]:.3f} m/s  rho_jam={5 * p[1]:.2f} /m2")
