"""Cases of histogram: `size` int32 values in [0, bins), bins from 1 to 64, most values in a few
bins (so that many threads add to the same bin at once); the answer counts each bin's values.
"""

import numpy as np


def make_case(size, rng):
    bins = int(rng.integers(1, 65))
    values = np.minimum(rng.geometric(0.3, size) - 1, bins - 1).astype(np.int32)
    return {"values": values, "bins": bins}


def expected(inputs):
    return np.bincount(inputs["values"], minlength=inputs["bins"]).astype(np.int32)
