"""Reduction: total[0] = x[0] + x[1] + ... + x[n - 1], a tree of sums in each block.

Write the kernel's body. solve() is called with the inputs and returns the output.
"""

import numpy as np
from numba import cuda, float32

THREADS = 128  # threads per block, a power of two


@cuda.jit
def sum_kernel(x, total):
    partial = cuda.shared.array(THREADS, float32)
    # Your code: each thread copies its element of x into partial (zero past the end of x); then,
    # for stride = THREADS / 2, THREADS / 4, ..., 1, threads t < stride add partial[t + stride]
    # into partial[t], the whole block waiting between levels; finally thread 0 adds the
    # block's sum partial[0] into total[0] with cuda.atomic.add.
    pass


def solve(x):
    n = x.size
    total = cuda.to_device(np.zeros(1, dtype=np.float32))
    blocks = (n + THREADS - 1) // THREADS
    sum_kernel[blocks, THREADS](cuda.to_device(x), total)
    return total.copy_to_host()
