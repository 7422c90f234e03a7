"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_duct_inclusion_echo": ("replace", "p_prev, p_cur, p_next = p_cur, p_next, wp.empty_like(p_next)"),
    "b02_grin_lens_focal_spot": ("replace", "self.state = new"),
    "b03_speckle_contrast_bandwidth": ("replace", "img = img / img.max()"),
    "b04_room_absorption_edc_fit": ("replace", "wp.launch(to_db, dim=N_T, inputs=[edc], outputs=[edc_db], record_tape=False)"),
    "b05_ar_coating_thickness": ("replace", "delta = wp.zeros((len(LAMBDAS), 2), dtype=float, requires_grad=True)"),
    "b06_array_sidelobe_apodisation": ("replace", "self.w = wp.zeros(N_EL, dtype=float, requires_grad=True)"),
    "b07_singlet_bending_adam": ("replace", "self.tape.reset()"),
    "b08_fiber_coupling_sgd_clip": ("replace", "prm.grad.zero_()"),
    "b09_fourier_hologram_spots": ("delete",),
    "b10_ultrasound_attenuation_bands": ("replace", "echo = wp.zeros(N_Z, dtype=float, requires_grad=True)"),
    "b11_shack_hartmann_zernike_fit": ("replace", "err.grad.fill_(1.0 / N_LENS)"),
    "b12_noise_barrier_weighted_il": ("replace", "tape.backward(grads={il: wp.array(WEIGHTS, dtype=float)})"),
    "b13_deformable_mirror_descent": ("replace", "g = wp.clone(self.cmd.grad)"),
    "b14_led_collimator_two_stage": ("delete",),
    "b15_cassegrain_obscured_spot": ("replace", "slot = i"),
    "b16_multistatic_tof_channels": ("replace", "slot = j"),
    "b17_hifu_focus_steering": ("replace", "tx_delays = wp.clone(tau)"),
    "b18_psf_phase_diversity_fit": ("replace", "ph = self.pupil(self.prm)"),
    "b19_receive_apodisation_psf": ("replace", "s[k, ch] = wp.cos(2.0 * wp.pi * f0 * dt) * wp.exp(-(dt * f0) * (dt * f0)) * wp.pow(wp.cos(0.5 * wp.pi * u) + 1.0e-3, prm[0])"),
    "b20_saturable_absorber_cavity": ("replace", "I_out[i] = g / (1.0 + g / prm[1])"),
    "b21_grating_spectrometer_dispersion": ("replace", "k[0] -= lam[i] / prm[0]"),
    "b22_resonator_thermal_lens": ("replace", "mirror[1, 0] += mirror[1, 0] * (1.0 / wp.cos(FOLD) - 1.0)"),
    "b23_fabry_perot_filter_fit": ("replace", "for k in range(12):"),
    "b24_sofar_channel_ray_arrival": ("replace", "for s in range(16):"),
    "b25_mic_array_directivity": ("replace", "kr = wp.max(k * r, 1.0e-6)"),
    "b26_dipole_source_holography": ("replace", "a = wp.length(p[m])"),
    "b27_prism_sellmeier_fit": ("replace", "wp.adjoint[b1] += adj_ret * l2 / (l2 - C1) / (2.0 * n)"),
    "b28_beam_shaper_angular_spectrum": ("replace", "g0 = np.fft.ifft(np.conj(H) * np.fft.fft(g))"),
}
