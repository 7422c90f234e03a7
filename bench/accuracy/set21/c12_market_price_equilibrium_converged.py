# correct: the taped sweep count is derived from the contraction rate so the taped map reaches the reported equilibrium.
"""Regional grain market: damped tatonnement price adjustment to the
supply-demand equilibrium; demand elasticity and supply slope fitted to the
observed clearing prices of six regional markets."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_MKT = 6
TOL = 1e-7
RATE_BOUND = 0.92  # |d price_new / d price| near the clearing prices
N_SWEEP = int(np.ceil(np.log(TOL) / np.log(RATE_BOUND)))
DEMAND_A = np.linspace(3.0, 5.0, N_MKT).astype(np.float32)
SUPPLY_B = np.linspace(1.0, 1.6, N_MKT).astype(np.float32)


@wp.kernel
def tatonnement(theta: wp.array(dtype=float), a: wp.array(dtype=float), b: wp.array(dtype=float),
                price: wp.array(dtype=float), price_new: wp.array(dtype=float)):
    i = wp.tid()
    x = price[i]
    demand = a[i] * wp.exp(-theta[0] * x)
    supply = b[i] * theta[1] * x
    price_new[i] = x + 0.06 * (demand - supply)


@wp.kernel
def price_misfit(price: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = price[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


class Market:
    def __init__(self, theta):
        self.theta = wp.array(np.asarray(theta, np.float32), dtype=float, requires_grad=True)
        self.a = wp.array(DEMAND_A, dtype=float)
        self.b = wp.array(SUPPLY_B, dtype=float)

    def sweep(self, price):
        new = wp.zeros(N_MKT, dtype=float, requires_grad=True)
        wp.launch(tatonnement, dim=N_MKT, inputs=[self.theta, self.a, self.b, price], outputs=[new])
        return new

    def equilibrium(self):
        """Iterate to tolerance (no tape): the clearing prices the model reports."""
        price = wp.full(N_MKT, 1.0, dtype=float)
        for _ in range(5000):
            new = self.sweep(price)
            if np.max(np.abs(new.numpy() - price.numpy())) < TOL:
                return new
            price = new
        return price

    def taped_prices(self):
        price = wp.full(N_MKT, 1.0, dtype=float, requires_grad=True)
        for _ in range(N_SWEEP):
            price = self.sweep(price)
        return price


OBS = Market([0.5, 1.3]).equilibrium().numpy() * (1.0 + 0.03 * np.sin(np.arange(N_MKT))).astype(np.float32)
PARAMS0 = np.array([0.6, 1.1])


def evaluate(p):
    mkt = Market(p)
    obs = wp.array(OBS, dtype=float)
    report = wp.zeros(1, dtype=float)
    wp.launch(price_misfit, dim=N_MKT, inputs=[mkt.equilibrium(), obs], outputs=[report])
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(price_misfit, dim=N_MKT, inputs=[mkt.taped_prices(), obs], outputs=[loss])
    tape.backward(loss)
    return float(report.numpy()[0]), mkt.theta.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(20):
        loss, g = evaluate(p)
        p -= 0.3 * g
    print(f"clearing-price loss {loss:.6f}  elasticity={p[0]:.3f}  supply slope={p[1]:.3f}")
