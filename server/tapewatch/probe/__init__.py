"""The probe: runs a user's Warp script with the overwrite tracker on.

Runs *inside the user's interpreter* (``python -m tapewatch.probe``), so it
imports only the standard library, Warp and NumPy.  It reports what the
program really did as JSON Lines events on a private channel; the user's
stdout and stderr are never touched.
"""
