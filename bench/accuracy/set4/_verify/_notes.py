NOTES = """
## Notes

- Fixes that touch more than the marked line (all verified in the checks):
  `hanging_chain_stiffness` (also allocate STEPS+1 buffers), `ballistic_drag_fit` (fresh struct per step),
  `heat_rod_reaction` (rebind to a fresh array instead of wp.copy), `rope_wind_estimation` and
  `cart_pole_balance` (move the marked statement under `with tape:`), `attention_pooling_fit`
  (normalise in a second launch), `thermistor_polyfit` (evaluate the Horner loop in a `@wp.func`,
  whose adjoint replays the loop; a kernel-level `+=` rewrite is still wrong because `acc` is used
  nonlinearly after the dynamic loop), `airfoil_thickness_opt` / `split_encoder_training` (swap two lines).
- Platform-dependent bugs: `point_cloud_rotation` relies on `array.numpy()` being a view (CPU; on CUDA it is a
  copy and the program is correct); `attention_pooling_fit`'s forward depends on CPU thread order (partial sums).
- Multi-iteration bugs (`cannon_launch_angle`, `spring_mass_calibration`, `catapult_arm_tuning`,
  `orbit_thrust_tuning`) are compared at the iterate where the gradient is used (first iteration is still right).
- `grad_read` is used as the class name for the "retain_grad / grad_read" class.
"""
