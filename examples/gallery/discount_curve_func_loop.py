"""Bug: a bond's discount factor sums log-growth over a dynamic loop inside a @wp.func and exponentiates it
after the loop, in the function itself: the backward pass sees the sum as it was before the loop."""
import numpy as np
import warp as wp

PERIODS = 10


@wp.func
def discount_factor(rates: wp.array(dtype=float), periods: int):
    log_growth = float(0.0)
    for k in range(periods):  # expect: TW303
        log_growth += wp.log(1.0 + rates[k])
    return wp.exp(-log_growth)


@wp.kernel
def present_values(cash: wp.array(dtype=float), rates: wp.array(dtype=float), pv: wp.array(dtype=float)):
    t = wp.tid()
    pv[t] = cash[t] * discount_factor(rates, t + 1)


@wp.kernel
def pricing_error(pv: wp.array(dtype=float), quote: float, err: wp.array(dtype=float)):
    t = wp.tid()
    wp.atomic_add(err, 0, pv[t])
    if t == 0:
        wp.atomic_add(err, 0, -quote)


@wp.kernel
def square(err: wp.array(dtype=float), loss: wp.array(dtype=float)):
    loss[0] = err[0] * err[0]


def main():
    cash = wp.array(np.full(PERIODS, 5.0, dtype=np.float32))
    rates = wp.array(np.linspace(0.02, 0.05, PERIODS, dtype=np.float32), requires_grad=True)
    pv = wp.zeros(PERIODS, dtype=float, requires_grad=True)
    err = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(present_values, dim=PERIODS, inputs=[cash, rates], outputs=[pv])
        wp.launch(pricing_error, dim=PERIODS, inputs=[pv, 40.0], outputs=[err])
        wp.launch(square, dim=1, inputs=[err], outputs=[loss])
    tape.backward(loss)
    print("loss", loss.numpy()[0])
    print("dloss/drates", rates.grad.numpy())
    return rates.grad.numpy()


if __name__ == "__main__":
    main()
