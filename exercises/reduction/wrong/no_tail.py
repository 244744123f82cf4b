"""Wrong: n // THREADS blocks, so the last n % THREADS elements are not summed."""

import numpy as np
from numba import cuda, float32

THREADS = 128  # threads per block, a power of two


@cuda.jit
def sum_kernel(x, total):
    partial = cuda.shared.array(THREADS, float32)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * THREADS + t
    partial[t] = x[i] if i < x.size else 0.0  # threads past the end add zero
    cuda.syncthreads()
    stride = THREADS // 2
    while stride > 0:
        if t < stride:
            partial[t] += partial[t + stride]
        cuda.syncthreads()  # this level is done before the next one reads it
        stride //= 2
    if t == 0:
        cuda.atomic.add(total, 0, partial[0])  # one atomic add per block


def solve(x):
    n = x.size
    total = cuda.to_device(np.zeros(1, dtype=np.float32))
    blocks = max(n // THREADS, 1)  # rounds down: the tail has no block
    sum_kernel[blocks, THREADS](cuda.to_device(x), total)
    return total.copy_to_host()
