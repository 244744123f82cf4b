"""Wrong: no cuda.syncthreads() after loading the tiles: a thread multiplies elements
that other threads have not loaded yet."""

import numpy as np
from numba import cuda, float32

TILE = 8  # a block is TILE x TILE threads and computes one TILE x TILE tile of c


@cuda.jit
def matmul_kernel(a, b, c):
    tile_a = cuda.shared.array((TILE, TILE), float32)
    tile_b = cuda.shared.array((TILE, TILE), float32)
    x, y = cuda.threadIdx.x, cuda.threadIdx.y
    row, column = cuda.blockIdx.y * TILE + y, cuda.blockIdx.x * TILE + x
    m, k = a.shape
    n = b.shape[1]
    total = float32(0.0)
    for step in range((k + TILE - 1) // TILE):
        # Each thread loads one element of each tile; zero outside the matrices.
        inner = step * TILE + x
        tile_a[y, x] = a[row, inner] if row < m and inner < k else 0.0
        inner = step * TILE + y
        tile_b[y, x] = b[inner, column] if inner < k and column < n else 0.0
        for j in range(TILE):
            total += tile_a[y, j] * tile_b[j, x]
        cuda.syncthreads()  # everyone is done with the tiles before they are overwritten
    if row < m and column < n:
        c[row, column] = total


def solve(a, b):
    m, n = a.shape[0], b.shape[1]
    c = cuda.to_device(np.zeros((m, n), dtype=np.float32))
    grid = ((n + TILE - 1) // TILE, (m + TILE - 1) // TILE)
    matmul_kernel[grid, (TILE, TILE)](cuda.to_device(a), cuda.to_device(b), c)
    return c.copy_to_host()
