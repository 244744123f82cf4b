"""Wrong: the tile is float16, which keeps about 3 significant digits."""

import numpy as np
from numba import cuda

TILE = 8  # a block is TILE x TILE threads and transposes one TILE x TILE tile


@cuda.jit
def transpose_kernel(a, out):
    tile = cuda.shared.array((TILE, TILE), np.float16)
    x, y = cuda.threadIdx.x, cuda.threadIdx.y
    rows, columns = a.shape
    row, column = cuda.blockIdx.y * TILE + y, cuda.blockIdx.x * TILE + x
    if row < rows and column < columns:
        tile[y, x] = a[row, column]  # neighbouring threads read neighbouring elements of a
    cuda.syncthreads()  # the whole tile is loaded before anyone reads another thread's element
    out_row, out_column = cuda.blockIdx.x * TILE + y, cuda.blockIdx.y * TILE + x
    if out_row < columns and out_column < rows:
        out[out_row, out_column] = tile[x, y]  # and write neighbouring elements of out


def solve(a):
    rows, columns = a.shape
    out = cuda.to_device(np.zeros((columns, rows), dtype=np.float32))
    grid = ((columns + TILE - 1) // TILE, (rows + TILE - 1) // TILE)
    transpose_kernel[grid, (TILE, TILE)](cuda.to_device(a), out)
    return out.copy_to_host()
