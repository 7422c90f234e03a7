"""What the probe checks around ``tape.backward()`` (``backward_checks``): kernels without adjoint (TW405),
each launch's adjoint against finite differences (TW404, ``finite_diff``, with each custom adjoint on its
own), non-finite gradients and where they start (TW403, TW407), optimizer steps without zeroing (TW202's
first trigger), and the same checks on a captured graph's replays (``captured``)."""
