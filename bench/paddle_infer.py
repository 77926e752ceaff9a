"""Paddle Inference on one fixture, in a process of its own (so that its peak
resident memory can be read): the faster of oneDNN and native with ir_optim
on, at the given thread count.

    python paddle_infer.py MODEL_DIR THREADS REPEAT FEED=INPUT.npy ...

Prints one line: "median_ms MS maxrss_kb KB config NAME"."""
import os
import resource
import sys
import time

import numpy as np
import paddle.inference as pi


def main():
    model, threads, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    inputs = [(a.split("=", 1)[0], np.load(a.split("=", 1)[1])) for a in sys.argv[4:]]
    best, name = None, None
    for mkldnn in (True, False):
        cfg = pi.Config(os.path.join(model, "model.pdmodel"), os.path.join(model, "model.pdiparams"))
        cfg.disable_gpu()
        cfg.switch_ir_optim(True)
        cfg.set_cpu_math_library_num_threads(threads)
        cfg.disable_glog_info()
        if mkldnn:
            cfg.enable_mkldnn()
        pred = pi.create_predictor(cfg)
        for feed, x in inputs:
            pred.get_input_handle(feed).copy_from_cpu(x)
        for _ in range(3):
            pred.run()
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            pred.run()
            times.append((time.perf_counter() - t) * 1e3)
        med = float(np.median(times))
        if best is None or med < best:
            best, name = med, "oneDNN" if mkldnn else "native"
    print(f"median_ms {best:.4f} maxrss_kb {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss} config {name}")


if __name__ == "__main__":
    main()
