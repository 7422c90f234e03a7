"""The fix of each planted bug: (file, old text, new text); the first entry holds the marked line."""

FIXES = {
    "b01_mlp_regressor_buffers.py": [
        ("b01_mlp_regressor_buffers.py",
         "outputs=[self.h_a],  # expect: overwrite", "outputs=[self.h_c],"),
        ("b01_mlp_regressor_buffers.py",
         "inputs=[self.h_a, self.W[3], self.b[3]]", "inputs=[self.h_c, self.W[3], self.b[3]]"),
        ("b01_mlp_regressor_buffers.py",
         "        self.h_b = wp.zeros((BATCH, HIDDEN), dtype=float, requires_grad=True, device=DEVICE)\n",
         "        self.h_b = wp.zeros((BATCH, HIDDEN), dtype=float, requires_grad=True, device=DEVICE)\n"
         "        self.h_c = wp.zeros((BATCH, HIDDEN), dtype=float, requires_grad=True, device=DEVICE)\n"),
    ],
}
FIXES.update({
    "b02_learned_blur_tone.py": [
        ("b02_learned_blur_tone.py", "    tmp.zero_()  # expect: overwrite",
         "    tmp = wp.zeros((H, W), dtype=float, requires_grad=True)"),
    ],
    "b03_sphere_sdf_proximal.py": [
        ("b03_sphere_sdf_proximal.py",
         "            wp.copy(self.d_prev, self.d)  # expect: overwrite\n        tape.backward(self.loss)\n",
         "        tape.backward(self.loss)\n        wp.copy(self.d_prev, self.d)\n"),
    ],
    "b04_moons_classifier_prefetch.py": [
        ("b04_moons_classifier_prefetch.py",
         "        self.load((k + 1) % N_BATCHES)  # expect: untaped_write\n        tape.backward(self.loss)\n",
         "        tape.backward(self.loss)\n        self.load((k + 1) % N_BATCHES)\n"),
    ],
    "b05_soft_disc_raster.py": [
        ("b05_soft_disc_raster.py", "    cov = wp.zeros((K, RES, RES), dtype=float)  # expect: requires_grad",
         "    cov = wp.zeros((K, RES, RES), dtype=float, requires_grad=True)"),
    ],
})
FIXES.update({
    "b06_rbf_heavy_ball.py": [
        ("b06_rbf_heavy_ball.py", "        m.loss.grad.zero_()  # expect: missing_zero", "        tape.zero()"),
    ],
    "b07_point_density_match.py": [
        ("b07_point_density_match.py",
         "            wp.launch(splat, dim=(N_PTS, G, G), inputs=[pos], outputs=[self.grid])  # expect: missing_zero",
         "            self.grid.zero_()\n            wp.launch(splat, dim=(N_PTS, G, G), inputs=[pos], outputs=[self.grid])"),
    ],
})
FIXES.update({
    "b08_attention_score_probe.py": [
        ("b08_attention_score_probe.py",
         "        wp.launch(attn_scores, dim=(T, T), inputs=[self.q, self.k], outputs=[self.scores])  # expect: retain_grad\n"
         "        s = self.scores.numpy().astype(np.float64)",
         "        probe = wp.zeros((T, T), dtype=float)\n"
         "        wp.launch(attn_scores, dim=(T, T), inputs=[self.q, self.k], outputs=[probe])\n"
         "        s = probe.numpy().astype(np.float64)"),
    ],
})
FIXES.update({
    "b09_circle_silhouette_fit.py": [
        ("b09_circle_silhouette_fit.py", "    tape.backward(grads={err: wp.ones_like(err)})  # expect: seeding",
         "    tape.backward(grads={err: wp.full(err.shape, 1.0 / err.size, dtype=float)})"),
    ],
    "b10_vae_staged_backward.py": [
        ("b10_vae_staged_backward.py", "    enc_tape.backward(grads={mu: mu_in.grad})  # expect: seeding",
         "    enc_tape.backward(grads={mu: mu_in.grad, logvar: logvar_in.grad})"),
    ],
})
FIXES.update({
    "b11_softmax_classifier_sgd.py": [
        ("b11_softmax_classifier_sgd.py",
         "        wp.launch(sgd_update, dim=9, inputs=[theta, theta.grad, lr])  # expect: grad_read\n        tape.backward(loss)\n",
         "        tape.backward(loss)\n        wp.launch(sgd_update, dim=9, inputs=[theta, theta.grad, lr])\n"),
    ],
    "b12_smooth_union_sdf_fit.py": [
        ("b12_smooth_union_sdf_fit.py", "        g = shape.grad.numpy()  # expect: grad_read",
         "        g = shape.grad.numpy().copy()"),
    ],
})

import json as _json
import os as _os

_auto = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "fixes_auto.json")
if _os.path.exists(_auto):
    for _k, _v in _json.load(open(_auto)).items():
        FIXES[_k] = [tuple(x) for x in _v]
