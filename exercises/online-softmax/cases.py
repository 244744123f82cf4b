"""Cases of online-softmax: `size` rows of 1 to 49 float32 scores, spread wide (up to about
±150) so that exp() of a score overflows float32 unless the row's maximum is taken off first.
The answer is each row's softmax, computed in float64.
"""

import numpy as np


def make_case(size, rng):
    columns = int(rng.integers(1, 50))
    return {"x": (rng.standard_normal((size, columns)) * 40).astype(np.float32)}


def expected(inputs):
    x = inputs["x"].astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
