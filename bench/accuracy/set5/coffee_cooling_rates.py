"""Fit per-cup cooling rates (log-parameterized) of a Newton cooling model to thermometer logs."""
import numpy as np
import warp as wp

NC = 3
NT = 30


@wp.kernel
def rates_from_logs(log_k: wp.array(dtype=wp.float32), k: wp.array(dtype=wp.float32)):
    i = wp.tid()
    k[i] = wp.exp(log_k[i])


@wp.kernel
def cooling_curve(k: wp.array(dtype=wp.float32), t: wp.array(dtype=wp.float32), ambient: wp.array(dtype=wp.float32),
                  temp: wp.array2d(dtype=wp.float32)):
    c, j = wp.tid()
    temp[c, j] = ambient[j] + (90.0 - ambient[j]) * wp.exp(-k[c] * t[j])


@wp.kernel
def sq_error(temp: wp.array2d(dtype=wp.float32), obs: wp.array2d(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    c, j = wp.tid()
    d = temp[c, j] - obs[c, j]
    wp.atomic_add(loss, 0, d * d * 0.001)


def data():
    t = np.linspace(0.0, 30.0, NT).astype(np.float32)
    amb = (21.0 + 0.5 * np.sin(0.2 * t)).astype(np.float32)
    true_k = np.array([0.05, 0.08, 0.12])
    obs = amb[None, :] + (90.0 - amb[None, :]) * np.exp(-true_k[:, None] * t[None, :])
    return wp.array(t, dtype=wp.float32), wp.array(amb, dtype=wp.float32), wp.array(obs.astype(np.float32), dtype=wp.float32)


def misfit(log_k, t, amb, obs):
    k = wp.zeros(NC, dtype=wp.float32, requires_grad=True)
    temp = wp.zeros((NC, NT), dtype=wp.float32, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(rates_from_logs, dim=NC, inputs=[log_k], outputs=[k], record_tape=False)  # expect: truncation
    wp.launch(cooling_curve, dim=(NC, NT), inputs=[k, t, amb], outputs=[temp])
    wp.launch(sq_error, dim=(NC, NT), inputs=[temp, obs], outputs=[loss])
    return loss


def fit(iters=50, lr=0.01):
    t, amb, obs = data()
    log_k = wp.array(np.log(np.array([0.1, 0.1, 0.1], dtype=np.float32)), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = misfit(log_k, t, amb, obs)
        tape.backward(loss)
        g = log_k.grad.numpy().copy()
        history.append((log_k.numpy().copy(), g))
        log_k.assign(log_k.numpy() - lr * g)
        tape.zero()
    print("k", np.exp(log_k.numpy()), "loss", loss.numpy()[0])
    return history


if __name__ == "__main__":
    fit()
