# correct: zone cost summed on the host over selected generators, backward seeded with the zone mask
"""Hourly dispatch cost of the northern load zone and its sensitivity to the
gas price, the coal price and the system demand.

The fleet is dispatched by a logit merit order (_fleet.py); Warp produces the
cost of every generator, and the zone cost is summed on the host over the
generators sited in zone 0.
"""
import numpy as np
import warp as wp

from _fleet import N_GEN, ZONE, dispatch_cost, make_fleet

wp.config.quiet = True

NORTH = ZONE == 0
FLEET = make_fleet()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    cost = dispatch_cost(FLEET, prm, tape)
    zone_cost = float(cost.numpy()[NORTH].sum())
    cost.grad.assign(wp.array(NORTH.astype(np.float32), dtype=float))
    tape.backward()
    return zone_cost / 1000.0, prm.grad.numpy().copy() / 1000.0


PARAMS0 = np.array([3.2, 2.1, 850.0])  # gas $/MMBtu, coal $/MMBtu, demand MW
FD_EPS = np.array([1e-3, 1e-3, 0.1])

if __name__ == "__main__":
    c, g = evaluate(PARAMS0)
    print(f"north-zone cost {c:.2f} k$/h of {N_GEN} units; d/d(gas, coal, demand) = {g}")
