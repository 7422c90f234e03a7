"""A beam model and a survey comparison on two tapes, chained by a gradient seed; the hand-over goes through NumPy.

The survey tape's helper copies the deflection profile with
`base.assign(profile.numpy())`: the survey's backward() gives `base` a
gradient that never reaches `profile` through it, so the model tape is seeded with an
empty gradient (the correction's own path still reaches the profile, half the story).
"""

import numpy as np
import warp as wp

from _survey_helpers import corrected_on_host

N = 20


@wp.kernel
def deflect(ei: wp.array(dtype=float), profile: wp.array(dtype=float)):
    i = wp.tid()
    x = float(i) / float(N - 1)
    profile[i] = x * x * (3.0 - 2.0 * x) / ei[0]


@wp.kernel
def survey(profile: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = profile[i] - obs[i]
    wp.atomic_add(loss, 0, r * r)


def main():
    ei = wp.array([2.0], dtype=float, requires_grad=True)
    obs = wp.array((np.linspace(0.0, 1.0, N) ** 2 * 0.4).astype(np.float32), dtype=float)
    for _ in range(3):
        profile = wp.zeros(N, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        model = wp.Tape()
        with model:
            wp.launch(deflect, dim=N, inputs=[ei], outputs=[profile])
        check = wp.Tape()
        with check:
            hot = corrected_on_host(profile, 15.0)
            wp.launch(survey, dim=N, inputs=[hot, obs], outputs=[loss])
        check.backward(loss)
        model.backward(grads={profile: profile.grad})
        ei.assign(ei.numpy() - 0.1 * ei.grad.numpy())
        model.zero()
        check.zero()


if __name__ == "__main__":
    main()
