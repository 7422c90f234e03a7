"""Choose the bandwidth of a Nadaraya-Watson smoother by validation error."""
import numpy as np
import warp as wp


@wp.kernel
def nw_predict(
    xq: wp.array(dtype=float),
    xt: wp.array(dtype=float),
    yt: wp.array(dtype=float),
    log_h: wp.array(dtype=float),
    pred: wp.array(dtype=float),
):
    i = wp.tid()
    h = wp.exp(log_h[0])
    inv = 1.0 / (2.0 * h * h)
    num = float(0.0)
    den = float(0.0)
    for k in range(xt.shape[0]):
        d = xq[i] - xt[k]
        w = wp.exp(-d * d * inv)
        num += w * yt[k]
        den += w
    pred[i] = num / (den + 1.0e-6)  # expect: dynamic_loop


@wp.kernel
def val_loss(pred: wp.array(dtype=float), yq: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = pred[i] - yq[i]
    wp.atomic_add(loss, 0, r * r / float(pred.shape[0]))


rng = np.random.default_rng(41)
x_train = np.sort(rng.uniform(0.0, 6.0, 40)).astype(np.float32)
y_train = (np.sin(x_train) + 0.2 * rng.normal(size=40)).astype(np.float32)
x_val = np.linspace(0.3, 5.7, 16).astype(np.float32)
y_val = np.sin(x_val).astype(np.float32)

xt = wp.array(x_train, dtype=float)
yt = wp.array(y_train, dtype=float)
xq = wp.array(x_val, dtype=float)
yq = wp.array(y_val, dtype=float)
log_h = wp.array([np.log(0.6)], dtype=float, requires_grad=True)
pred = wp.zeros(16, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(nw_predict, dim=16, inputs=[xq, xt, yt, log_h], outputs=[pred])
    wp.launch(val_loss, dim=16, inputs=[pred, yq], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
log_h_grad = float(log_h.grad.numpy()[0])
print(f"validation mse {loss_value:.5f}  d/dlog_h {log_h_grad:.5f}")
