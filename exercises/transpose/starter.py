"""Transpose: out[j, i] = a[i, j], reading a and writing out a row of threads at a time.

Write the kernel's body. solve() is called with the inputs and returns the output.
"""

import numpy as np
from numba import cuda, float32

TILE = 8  # a block is TILE x TILE threads and transposes one TILE x TILE tile


@cuda.jit
def transpose_kernel(a, out):
    tile = cuda.shared.array((TILE, TILE), float32)
    # Your code: thread (x, y) of block (bx, by) reads a[by * TILE + y, bx * TILE + x] into the
    # tile (if inside a), waits for the whole tile, then writes the tile's transpose into out so
    # that neighbouring threads (neighbouring x) write neighbouring elements of a row of out.
    pass


def solve(a):
    rows, columns = a.shape
    out = cuda.to_device(np.zeros((columns, rows), dtype=np.float32))
    grid = ((columns + TILE - 1) // TILE, (rows + TILE - 1) // TILE)
    transpose_kernel[grid, (TILE, TILE)](cuda.to_device(a), out)
    return out.copy_to_host()
