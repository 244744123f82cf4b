"""Wrong: the kernel does nothing (the starter as given)."""

import math

import numpy as np
from numba import cuda, float32

THREADS = 64  # threads per block, one row each


@cuda.jit
def softmax_kernel(x, out):
    pass


def solve(x):
    rows = x.shape[0]
    out = cuda.to_device(np.zeros_like(x))
    blocks = (rows + THREADS - 1) // THREADS
    softmax_kernel[blocks, THREADS](cuda.to_device(x), out)
    return out.copy_to_host()
