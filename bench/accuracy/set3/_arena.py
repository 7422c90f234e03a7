"""Tiny bump allocator so temporaries do not hit the allocator every iteration."""
import warp as wp


class Arena:
    def __init__(self, capacity, device="cpu"):
        self.block = wp.zeros(capacity, dtype=float, device=device)
        self.capacity = capacity
        self.offset = 0

    def take(self, n):
        if self.offset + n > self.capacity:
            raise MemoryError("arena exhausted")
        view = wp.array(
            ptr=self.block.ptr + self.offset * 4,
            shape=(n,),
            dtype=float,
            device=self.block.device,
            requires_grad=True,
        )
        self.offset += n
        return view

    def reset(self):
        self.offset = 0
