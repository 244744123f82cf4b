"""Wrong on a GPU: block_counts[v] += 1 without an atomic add loses counts when threads
add to the same bin at once. Kept out of wrong/: the simulator runs one
thread at a time between its switches, so it rarely shows this race (exercises/README.md)."""

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
        block_counts[values[i]] += 1  # a race: read, add, write
    cuda.syncthreads()  # every thread has added before the block's counts are read
    if t < bins:
        cuda.atomic.add(counts, t, block_counts[t])  # one add per bin and block


def solve(values, bins):
    n = values.size
    counts = cuda.to_device(np.zeros(bins, dtype=np.int32))
    blocks = (n + THREADS - 1) // THREADS
    histogram_kernel[blocks, THREADS](cuda.to_device(values), counts)
    return counts.copy_to_host()
