"""Paddle's side of tests/test_pickle.py: a small static training program
(two fc layers, Adam) whose checkpoints paddle.static.save writes and
paddle.static.load reads.

  pickle_checkpoint.py save DIR      runs the startup program and two Adam
                                     steps, then paddle.static.save(main,
                                     DIR/pN) for protocols 2, 3 and 4, and
                                     DIR/state.npz: every persistable's value
  pickle_checkpoint.py load PREFIX DIR
                                     builds the same program in this fresh
                                     process, runs its startup (new random
                                     values), then paddle.static.load(main,
                                     PREFIX) and load_program_state(PREFIX) +
                                     set_program_state: every persistable must
                                     equal DIR/state.npz bit for bit"""
import sys

import numpy as np
import paddle


def program():
    paddle.enable_static()
    paddle.seed(7)
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [None, 4], "float32")
        y = paddle.static.data("y", [None, 1], "float32")
        h = paddle.static.nn.fc(x, 8, activation="relu")
        p = paddle.static.nn.fc(h, 1)
        loss = paddle.mean((p - y) ** 2)
        paddle.optimizer.Adam(0.01).minimize(loss)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    return main, exe, loss


def state(main):
    scope = paddle.static.global_scope()
    return {v.name: np.array(scope.find_var(v.name).get_tensor())
            for v in main.list_vars() if v.persistable and v.name not in ("feed", "fetch")
            and scope.find_var(v.name) is not None}


def save(out):
    main, exe, loss = program()
    rng = np.random.default_rng(3)
    for _ in range(2):
        exe.run(main, feed={"x": rng.standard_normal((5, 4), dtype=np.float32),
                            "y": rng.standard_normal((5, 1), dtype=np.float32)}, fetch_list=[loss])
    for proto in (2, 3, 4):
        paddle.static.save(main, f"{out}/p{proto}", protocol=proto)
    np.savez(f"{out}/state.npz", **state(main))


def check(main, want, how):
    got = state(main)
    for name, ref in want.items():
        assert name in got, f"{how}: {name} missing"
        assert got[name].dtype == ref.dtype and got[name].shape == ref.shape, \
            f"{how}: {name} {got[name].dtype}{got[name].shape} != {ref.dtype}{ref.shape}"
        assert got[name].tobytes() == ref.tobytes(), f"{how}: {name} differs"


def load(prefix, ref_dir):
    main, exe, _ = program()
    want = dict(np.load(f"{ref_dir}/state.npz"))
    differs = [n for n, v in state(main).items() if n in want and v.tobytes() != want[n].tobytes()]
    assert differs, "the fresh startup values already equal the saved state"
    paddle.static.load(main, prefix, exe)
    check(main, want, "paddle.static.load")
    main, exe, _ = program()
    paddle.static.set_program_state(main, paddle.static.load_program_state(prefix))
    check(main, want, "load_program_state")
    print("ok", len(want))


if __name__ == "__main__":
    if sys.argv[1] == "save":
        save(sys.argv[2])
    else:
        load(sys.argv[2], sys.argv[3])
