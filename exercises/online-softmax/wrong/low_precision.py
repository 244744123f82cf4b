"""Wrong: the running sum is float16, which keeps about 3 significant digits."""

import math

import numpy as np
from numba import cuda, float32

THREADS = 64  # threads per block, one row each


@cuda.jit
def softmax_kernel(x, out):
    row = cuda.blockIdx.x * THREADS + cuda.threadIdx.x
    if row >= x.shape[0]:
        return
    # One pass: the running maximum, and the sum of exp(v - maximum) rescaled when it grows.
    maximum = float32(-math.inf)
    total = np.float16(0.0)
    for j in range(x.shape[1]):
        v = x[row, j]
        if v > maximum:
            total = np.float16(total * math.exp(maximum - v))
            maximum = v
        total = np.float16(total + math.exp(v - maximum))
    for j in range(x.shape[1]):
        out[row, j] = math.exp(x[row, j] - maximum) / total


def solve(x):
    rows = x.shape[0]
    out = cuda.to_device(np.zeros_like(x))
    blocks = (rows + THREADS - 1) // THREADS
    softmax_kernel[blocks, THREADS](cuda.to_device(x), out)
    return out.copy_to_host()
