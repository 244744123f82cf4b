"""Cases of reduction: a float32 vector of `size` elements in [0, 1); the answer is its sum.

The sum is computed in float64 and given as an array of one element, the kernel's output.
"""

import numpy as np


def make_case(size, rng):
    return {"x": rng.random(size, dtype=np.float32)}


def expected(inputs):
    return np.array([inputs["x"].astype(np.float64).sum()])
