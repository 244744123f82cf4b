"""Wrong: n // THREADS blocks, so the last n % THREADS values are not counted."""

import numpy as np
from numba import cuda, int32

THREADS = 128  # threads per block
MAX_BINS = 64


@cuda.jit
def histogram_kernel(values, counts):
    block_counts = cuda.shared.array(MAX_BINS, int32)  # this block's histogram
    t = cuda.threadIdx.x
    bins = counts.size
    if t < bins:
        block_counts[t] = 0
    cuda.syncthreads()  # the block's histogram is zero before anyone adds to it
    i = cuda.blockIdx.x * THREADS + t
    if i < values.size:
        cuda.atomic.add(block_counts, values[i], 1)  # many threads add to the same bin
    cuda.syncthreads()  # every thread has added before the block's counts are read
    if t < bins:
        cuda.atomic.add(counts, t, block_counts[t])  # one add per bin and block


def solve(values, bins):
    n = values.size
    counts = cuda.to_device(np.zeros(bins, dtype=np.int32))
    blocks = max(n // THREADS, 1)  # rounds down: the tail has no block
    histogram_kernel[blocks, THREADS](cuda.to_device(values), counts)
    return counts.copy_to_host()
