"""A small regional generation fleet (heat rates, fuel types, O&M) and the
logit merit-order dispatch used by the zone cost studies."""
import numpy as np
import warp as wp

N_GEN = 9
HEAT_RATE = np.array([7.1, 7.4, 9.8, 10.3, 6.9, 11.5, 9.2, 7.8, 10.9], dtype=np.float32)  # MMBtu/MWh
FUEL_TYPE = np.array([0, 0, 1, 1, 0, 1, 1, 0, 1], dtype=np.int32)  # 0 gas, 1 coal
OM_QUAD = np.array([0.010, 0.012, 0.006, 0.007, 0.015, 0.005, 0.008, 0.011, 0.006], dtype=np.float32)  # $/MWh^2
ZONE = np.array([0, 1, 0, 1, 1, 0, 1, 0, 1], dtype=np.int32)
LOGIT_SCALE = 0.15  # 1 / ($/MWh)


@wp.struct
class Fleet:
    heat_rate: wp.array(dtype=float)
    fuel_type: wp.array(dtype=int)
    om_quad: wp.array(dtype=float)


def make_fleet():
    f = Fleet()
    f.heat_rate = wp.array(HEAT_RATE, dtype=float)
    f.fuel_type = wp.array(FUEL_TYPE, dtype=int)
    f.om_quad = wp.array(OM_QUAD, dtype=float)
    return f


@wp.func
def marginal_cost(f: Fleet, g: int, fuel: wp.array(dtype=float)):
    return f.heat_rate[g] * fuel[f.fuel_type[g]]


@wp.kernel
def merit_weights(f: Fleet, fuel: wp.array(dtype=float), w: wp.array(dtype=float), w_sum: wp.array(dtype=float)):
    g = wp.tid()
    x = wp.exp(-LOGIT_SCALE * marginal_cost(f, g, fuel))
    w[g] = x
    wp.atomic_add(w_sum, 0, x)


@wp.kernel
def generator_cost(f: Fleet, fuel: wp.array(dtype=float), w: wp.array(dtype=float), w_sum: wp.array(dtype=float),
                   cost: wp.array(dtype=float)):
    g = wp.tid()
    p_mw = fuel[2] * w[g] / w_sum[0]  # fuel[2] carries the system demand (MW)
    cost[g] = p_mw * marginal_cost(f, g, fuel) + f.om_quad[g] * p_mw * p_mw


def dispatch_cost(fleet, prm, tape):
    w = wp.zeros(N_GEN, dtype=float, requires_grad=True)
    w_sum = wp.zeros(1, dtype=float, requires_grad=True)
    cost = wp.zeros(N_GEN, dtype=float, requires_grad=True)
    with tape:
        wp.launch(merit_weights, dim=N_GEN, inputs=[fleet, prm], outputs=[w, w_sum])
        wp.launch(generator_cost, dim=N_GEN, inputs=[fleet, prm, w, w_sum], outputs=[cost])
    return cost
