"""A small CNN whose convolutions take every prepared-weights path of
paddlec (tests/test_ppgemm.py): 3x3 on 24x24 with 128 input channels
(Winograd F(4x4) tiles <= 256), 3x3 on 12x12 with 128 (Winograd F(2x2)),
3x3 stride 2 with 144 rows of im2col (packed GEMM), 3x3 on 7x7 with 128 in
and out (Winograd F(2x2) on an odd image: the smallest that takes it) and a
1x1 with 128 inputs on 7x7 (packed GEMM, the plain product), plus one too
short to pack (1x1 with 40 inputs).  Saved with paddle.jit.save from dygraph, batch left open;
the reference is Paddle's Executor on the saved files, at batch 3.

    python packed_convs.py OUT_DIR"""
import sys

import numpy as np
import paddle

from oracle_case import save_layer_case


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.f4 = paddle.nn.Conv2D(128, 128, 3, padding=1)
        self.f2 = paddle.nn.Conv2D(128, 16, 3, padding=1)
        self.s2 = paddle.nn.Conv2D(16, 128, 3, stride=2, padding=2)
        self.f2_small = paddle.nn.Conv2D(128, 128, 3, padding=1)
        self.pw = paddle.nn.Conv2D(128, 40, 1)
        self.short = paddle.nn.Conv2D(40, 8, 1)

    def forward(self, x):
        y = paddle.nn.functional.relu(self.f4(x))
        y = paddle.nn.functional.max_pool2d(y, 2)
        y = self.s2(paddle.nn.functional.relu(self.f2(y)))
        y = self.f2_small(y)
        return self.short(self.pw(y) + 0.5)


if __name__ == "__main__":
    paddle.seed(7)
    x = np.random.default_rng(7).uniform(-1, 1, (3, 128, 24, 24)).astype("float32")
    save_layer_case(sys.argv[1], Net(), [paddle.static.InputSpec([None, 128, 24, 24], "float32", "x")], [x])
