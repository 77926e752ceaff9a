#!/usr/bin/env python3
"""Training programs paddlec refuses (tests/test_train.py), saved as users
save them (main.pdmodel, startup.pdmodel in OUTDIR/<case>/):

  loop_until_data   a while_loop whose iterations only the data decides
                    (h doubles until its sum passes 100), trained: its
                    while_grad needs every iteration's values, and paddlec
                    cannot size them without --max-iterations.
  run_time_length   ids [None, None]: a sequence length only the data
                    gives, which a trainer takes with --max-shape (a bound)
                    where each op's gradient does; set_value_grad's does
                    not cut it yet (a slice assignment along the length).

    python train_refused.py OUTDIR"""
import os
import sys

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import paddle  # noqa: E402


def loop_until_data():
    x = paddle.static.data("x", [None, 3], "float32")
    fc = paddle.nn.Linear(3, 3)
    h0 = fc(x)

    def body(h):
        return [paddle.tanh(fc(h)) * 2.0]

    (h,) = paddle.static.nn.while_loop(lambda h: paddle.sum(paddle.abs(h)) < 100.0, body, [h0])
    loss = paddle.mean(h)
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)


def run_time_length():
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    e = paddle.nn.Embedding(50, 8)(ids)
    value = paddle.static.nn.fc(y.astype("float32"), 8)  # [B, 8]
    e = paddle.static.setitem(e * 2.0, (slice(None), 0), value)  # set_value cutting the length
    h = paddle.mean(e, axis=1)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(paddle.static.nn.fc(h, 4), y))
    paddle.optimizer.Adam(0.01).minimize(loss)


def main(out):
    paddle.enable_static()
    for name, build in (("loop_until_data", loop_until_data), ("run_time_length", run_time_length)):
        main_p, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main_p, startup):
            build()
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        for f, p in (("main.pdmodel", main_p), ("startup.pdmodel", startup)):
            with open(os.path.join(d, f), "wb") as fh:
                fh.write(p.desc.serialize_to_string())


if __name__ == "__main__":
    main(sys.argv[1])
