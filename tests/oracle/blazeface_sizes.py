#!/usr/bin/env python3
"""blazeface_det (../shared/models, its own weights) at several image sizes,
as a detector is fed (issue 19 item 3): the image [N, 3, H, W] of any size,
im_shape its size, scale_factor the resize from the original.  Built with
no bound on the image (size classes), one binary runs them all.
References: Paddle's Executor on the saved files.

    python blazeface_sizes.py OUTDIR

OUTDIR gets, for size k, input_k_<feed>.npy and ref_k_<j>.npy (fetch j:
the kept boxes [rows, 6] and the per-image counts), and sizes.json."""
import json
import os
import sys

import numpy as np
import paddle

MODEL = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "models",
                                      "blazeface_det"))
# sizes crossing size classes (32 .. 256), wide and tall, a batch of 2
SIZES = [[1, 128, 128], [2, 96, 160], [1, 224, 64], [1, 40, 40]]


def main(out):
    os.makedirs(out, exist_ok=True)
    paddle.enable_static()
    exe = paddle.static.Executor(paddle.CPUPlace())
    prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(MODEL, "model"), exe)
    rng = np.random.default_rng(23)
    for k, (n, h, w) in enumerate(SIZES):
        # a face-like blob on noise, so that some boxes score above the threshold
        image = rng.standard_normal((n, 3, h, w)).astype("float32") * 0.3
        image[:, :, h // 4:h // 2, w // 4:w // 2] += 1.5
        fed = {"image": image, "im_shape": np.tile(np.array([[h, w]], "float32"), (n, 1)),
               "scale_factor": rng.uniform(0.5, 1.5, (n, 2)).astype("float32")}
        for f in feeds:
            np.save(os.path.join(out, f"input_{k}_{f}.npy"), fed[f])
        for j, o in enumerate(exe.run(prog, feed=fed, fetch_list=fetches)):
            np.save(os.path.join(out, f"ref_{k}_{j}.npy"), o)
    with open(os.path.join(out, "sizes.json"), "w") as f:
        json.dump({"sizes": SIZES, "feeds": feeds, "fetches": [v.name for v in fetches]}, f)


if __name__ == "__main__":
    main(sys.argv[1])
