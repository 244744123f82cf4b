"""Wrong: the kernel does nothing (the starter as given)."""

import numpy as np
from numba import cuda, float32

TILE = 8  # a block is TILE x TILE threads and transposes one TILE x TILE tile


@cuda.jit
def transpose_kernel(a, out):
    pass


def solve(a):
    rows, columns = a.shape
    out = cuda.to_device(np.zeros((columns, rows), dtype=np.float32))
    grid = ((columns + TILE - 1) // TILE, (rows + TILE - 1) // TILE)
    transpose_kernel[grid, (TILE, TILE)](cuda.to_device(a), out)
    return out.copy_to_host()
