from _harness import load, fd, report

NAME = "image_denoise_tv"
FIX = [(NAME, "            wp.launch(blend, dim=H * W, inputs=[tmp.reshape(H * W), 1.0], outputs=[u_flat])",
        "            u = tmp")]
m = load(NAME)
clean, noisy = m.images()
ad = m.denoise_grad(1.0, clean, noisy)[1]
ref = fd(lambda l: m.denoise_grad(l[0], clean, noisy)[0], [1.0])
mf = load(NAME, FIX, "fixed")
fad = mf.denoise_grad(1.0, clean, noisy)[1]
report(NAME, "overwrite", [ad], ref, [fad], ref)
