"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_seir_regions_copy_back": ("replace", "self.y = y_new"),
    "b02_heston_call_pingpong": ("replace", "va, vb = vb, wp.empty_like(vb)"),
    "b03_hill_promoter_expression_fit": ("replace", "shown = shown / shown.max(axis=0)"),
    "b04_portfolio_shortfall_percent_report": ("replace", "pct = wp.empty_like(ret)"),
    "b05_metapopulation_sir_mobility": ("replace", "lam = wp.zeros(N_TOWN, dtype=float, requires_grad=True)"),
    "b06_black_scholes_pde_put": ("replace", "coef = wp.zeros(M, dtype=wp.vec3, requires_grad=True)"),
    "b07_gompertz_tumour_adam": ("replace", "tape.zero()"),
    "b08_cir_yield_curve_sgd": ("replace", "for arr in self.buffers + [self.prm]:"),
    "b09_pkpd_emax_effect_fit": ("delete",),
    "b10_hedge_ratio_pnl_attribution": ("delete",),
    "b11_district_attack_rate_mean": ("replace", "tape.backward(grads={err: wp.full(N_DIST, 1.0 / N_DIST, dtype=float)})"),
    "b12_option_book_vega_rho": ("replace", "tape.backward(grads={value: wp.array(POSITIONS, dtype=float)})"),
    "b13_beverton_holt_recruitment": ("replace", "g = self.prm.grad.numpy().copy()"),
    "b14_nelson_siegel_nlopt": ("delete",),
    "b15_contact_tracing_secondary_attack": ("replace", "slot = i"),
    "b16_inverse_vol_liquid_universe": ("replace", "slot = i"),
    "b17_sirs_seasonal_influenza": ("delete",),
    "b18_asian_option_control_variate": ("replace", "with tape: wp.launch(geometric_asian, dim=1, inputs=[mkt], outputs=[cv_exact])"),
    "b19_measles_campaign_efficacy": ("replace", "s_out[g] = s[g] * (1.0 - prm[1] * cov[g])"),
    "b20_corporate_bond_spread_fit": ("replace", "pv[j] = cf[j] / wp.pow(1.0 + prm[0] + prm[1] * rating[j], t[j])"),
    "b21_repressilator_knockdown": ("replace", "prod = wp.cw_mul(prod, wp.vec3(1.0, 1.0, prm[1]))"),
    "b22_basket_call_correlation_delta": ("replace", "L = wp.mat33(1.0, 0.0, 0.0, r12, c11, 0.0, r13, (r23 - r12 * r13) / c11, 0.0)"),
    "b23_goodwin_clock_substeps": ("replace", "for k in range(N_SUB):"),
    "b24_bond_ladder_yield_curve": ("replace", "df = wp.pow(v, float(k + 1))"),
    "b25_renewal_reporting_delay": ("replace", "ll = mu - wp.where(y > 0.0, y * wp.log(wp.max(mu, 1.0e-12)), 0.0)"),
    "b26_cev_put_absorbing_barrier": ("replace", "vol = prm[0] * wp.pow(wp.max(s, 1.0e-8), prm[1])"),
    "b27_tf_titration_hill_adjoint": ("replace", "wp.adjoint[k] += adj_ret * (-2.0 * k * x * x / (den * den))"),
    "b28_svi_smile_record_func": ("replace", "vega = SPOT * npdf(d1) * math.sqrt(T)"),
}
