"""Wrong: adds in float16, which keeps about 3 significant digits."""

import numpy as np
from numba import cuda

THREADS = 128


@cuda.jit
def add_kernel(a, b, out):
    i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
    if i < out.size:
        out[i] = np.float16(a[i]) + np.float16(b[i])


def solve(a, b):
    n = a.size
    out = cuda.to_device(np.zeros(n, dtype=np.float32))
    blocks = (n + THREADS - 1) // THREADS
    add_kernel[blocks, THREADS](cuda.to_device(a), cuda.to_device(b), out)
    return out.copy_to_host()
