"""Cases of tiled-matmul: a (size x k) times b (k x n), float32, k and n from 1 to 24.

The answer is computed in float64, so that the tolerance measures the kernel's float32 error.
"""

import numpy as np


def make_case(size, rng):
    k, n = (int(value) for value in rng.integers(1, 25, size=2))
    return {
        "a": rng.standard_normal((size, k)).astype(np.float32),
        "b": rng.standard_normal((k, n)).astype(np.float32),
    }


def expected(inputs):
    return (inputs["a"].astype(np.float64) @ inputs["b"].astype(np.float64)).astype(np.float32)
