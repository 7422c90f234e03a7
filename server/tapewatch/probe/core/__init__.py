"""The probe's frame: starting it (``startup``), the patch table on Warp (``patches``), every private
Warp attribute read (``warp_seams``), the tracker's bookkeeping and records, the facts kept per Warp
object, the registry every finding leaves through, the sensor contract, and the readers of call sites,
frames and kernel source that the sensors share."""
