"""beam_search_decode over tensor arrays of LoD tensors
(compiler/ops/beam_search_decode.c, ops/tensor_array.c): what the compiler
refuses (tests/oracle/beam_decode_refused.py's programs) and what stops a
run where Paddle stops or crashes.  tests/oracle/e2e_beam_decode.py checks
the numbers against Paddle (tests/test_e2e_ops.py)."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import BUILD, ROOT, generated
from test_bad_input import bad
from test_e2e import build
from test_e2e_ops import cases


def programs():
    script = os.path.join(ROOT, "tests", "oracle", "beam_decode_refused.py")
    out = os.path.join(BUILD, "e2e_refused", "beam_decode")
    return generated(out, [sys.executable, script, out], [script])


@pytest.mark.parametrize("name,messages", [
    ("ids_one_level", ["(beam_search_decode -> ", "Ids 'array_0.out' is written by block 0 op 3 (write_to_array -> ",
                       "with 'ids', which carries a LoD of one level: Paddle's kernel takes elements with a LoD of "
                       "two levels"]),
    ("int_scores", ["(beam_search_decode -> ", "holds int64: paddlec takes float32 and float64 scores"]),
    ("join_lod_array", ["(tensor_array_to_tensor -> ", "holds LoD tensors (or elements whose rows only the run "
                        "knows): paddlec reads such an array with read_from_array (without X_W), beam_search_decode "
                        "and lod_array_length only yet"]),
    ("levels_apart", ["(write_to_array -> ", "writes X 'y', whose LoD has 2 levels, into array", "whose elements' "
                      "have 1: paddlec keeps the elements of an array of LoD tensors with LoDs of one depth"]),
    ("loop_var_lod", ["block 0 op 7 (sequence_pool -> ", "is written by block 1 op 5 (assign -> ", "and by block 0 op 4 "
                      "(scale -> ", "in another block (a loop's var written before the loop and in its body): the "
                      "LoD it carries depends on the trip; paddlec does not follow it"]),
    ("mixed", ["(write_to_array -> ", "writes X 'x', a LoD tensor, into array", "whose elements are not"]),
    ("expand_ref_level_0", ["(sequence_expand -> ", "ref_level 0 of Y's two levels: Out would have a row per "
                            "sequence of level 0; paddlec takes the last level (ref_level -1 or 1)"]),
    ("rows_apart", ["(write_to_array -> ", "X ('x') has B rows and array", "room for 8 a element: its writes' rows "
                    "grow apart with the batch; fix the batch with --shape"]),
])
def test_arrays_of_lod_tensors_paddlec_does_not_take_are_refused(tmp_path, name, messages):
    bad(["compile", f"{programs()}/{name}/model.pdmodel", "-o", str(tmp_path / "o")], *messages)


def run(binary, d, tmp_path, ids, lod, extra=()):
    np.save(tmp_path / "ids.npy", ids)
    args = [str(binary), "--input", f"init_ids={tmp_path}/ids.npy", "--input", f"init_scores={d}/input_1.npy",
            *extra, "--lod", f"init_ids={lod}", "--lod", f"init_scores={lod}", "--output-dir", str(tmp_path / "o")]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def test_a_source_ending_with_fewer_sentences_than_the_beam_stops_the_run(tmp_path):
    """e2e_beam_decode's two_sources (beam 2) with source 0's init id END:
    its one prefix ended, beam_search prunes it at once, and the backtrace
    gives it one sentence where Paddle's sort then reads the score of an
    empty one (a crash; tests/oracle/e2e_beam_decode.py shows Paddle
    segfaulting on too narrow a beam); paddlec stops the run naming the
    kernel.  The fed ids as they are match Paddle."""
    out, _ = cases("beam_decode")
    d = f"{out}/two_sources"
    binary = build(d, tmp_path, "--blas=none")
    extra = ["--input", f"w={d}/input_2.npy", "--input", f"u={d}/input_3.npy"]
    ids = np.load(f"{d}/input_0.npy")
    assert run(binary, d, tmp_path, ids, "0,1,2/0,1,2", extra).returncode == 0
    ids[0, 0] = 0
    r = run(binary, d, tmp_path, ids, "0,1,2/0,1,2", extra)
    assert r.returncode != 0 and "beam_search_decode" in r.stderr and "fewer sentences than beam_size" in r.stderr, \
        r.stderr


def test_a_source_with_more_candidates_than_the_beam_stops_the_run(tmp_path):
    """e2e_beam_decode's one_step (beam 1, the arrays hold the fed rows
    only) fed one source of two prefixes: its sentences start with two
    candidates, past the beam, which Paddle reports as out of range
    (vector::_M_range_check, seen); paddlec stops the run."""
    out, _ = cases("beam_decode")
    d = f"{out}/one_step"
    binary = build(d, tmp_path, "--blas=none")
    ids = np.load(f"{d}/input_0.npy")
    assert run(binary, d, tmp_path, ids, "0,1,2/0,1,2").returncode == 0
    r = run(binary, d, tmp_path, ids, "0,2/0,1,2")
    assert r.returncode != 0 and "beam_search_decode" in r.stderr and "more candidates than beam_size" in r.stderr, \
        r.stderr


def decoder_sizes(family, name, tmp_path):
    """The sizes of the selected outputs of every beam_search step and of
    the arrays' elements in the compiled model.c of family's case `name`."""
    out, _ = cases(family)
    from conftest import run as paddlec
    p = paddlec(["compile", f"{out}/{name}/model.pdmodel", "-o", str(tmp_path / "src")])
    assert p.returncode == 0, p.stderr
    text = (tmp_path / "src" / "model.c").read_text()
    sizes = re.findall(r"out selected_(?:ids|scores) +\S+ +\S+ +\[m->runtime_dims\[\d+\] <= ([^\]]+?), 1\]", text)
    return sizes, re.findall(r"out Out +array_\d\.out +\S+ +\[4, ([^,]+), 1\]", text)


@pytest.mark.parametrize("family,name", [("beam_decode", "two_sources"), ("lod_array", "decoder_reads")])
def test_the_decoder_steps_keep_one_size(tmp_path, family, name):
    """Each beam_search step of e2e_beam_decode's two_sources (beam 2, two
    sources fed as the batch B) keeps at most beam_size candidates a
    source: its outputs are sized 2 * B, the sources of the fed LoD times
    the beam, at every step -- not beam_size times the rows of the step
    before (2B, 4B, 8B) -- and so are the arrays' elements.  e2e_lod_array's
    decoder_reads reads each step's prefixes back from the arrays
    (read_from_array, as the 1.x while loop's body does): the sources
    bound follows the read to the writes before it (the fed LoD's B
    sources, then beam_search's), and the sizes are the same."""
    sizes, arrays = decoder_sizes(family, name, tmp_path)
    assert len(sizes) == 6 and set(sizes) == {"(2 * B)"}, sizes
    assert arrays and set(arrays) == {"(2 * B)"}, arrays
