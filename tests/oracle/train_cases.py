"""Training fixtures (issue 16), built with real Paddle, the oracle.

    python train_cases.py OUTDIR [CASE ...]

Each case is a training program as users write one (static layers, a loss,
`optimizer.minimize`), saved the way the issue says users save them: in
OUTDIR/<case>/

  main.pdmodel, startup.pdmodel   program.desc.serialize_to_string()
  test.pdmodel                    the evaluation program, main.clone(for_test=True)
                                  before minimize (cases that call for_test())
  collective_main.pdmodel,        main and startup as Paddle's collective training
  collective_startup.pdmodel      writes them for 2 processes (cases marked
                                  collective): what
                                  paddle.distributed.transpiler.collective.GradAllReduce
                                  makes of them, as fleet's collective mode does
  collective_rings_main.pdmodel,  the same with nrings=2 (the gradients take turns on
  collective_rings_startup.pdmodel  rings 0 and 1) and each ring's c_gen_nccl_id and
                                  c_comm_init, as a CUDA build of Paddle writes them
  startup.state               the state Paddle's startup program leaves
                                  (every persistable var of main, one
                                  combined file, byte-wise name order)
  init.pdparams, init.pdopt   the same state (by paddle.static.save: every
                                  persistable var of main in one combined
                                  file, byte-wise name order), with every
                                  float parameter re-drawn at random so that
                                  no zero bias or unit scale hides a bug
  <feed>.npy                      the data set, one per feed (STEPS * BATCH rows)
  <feed>.lengths.npy              each batch's size of the feed's dim 1 (cases with
                                  `lengths`: the data set padded to the bound, a
                                  batch fed cut to its size; the trainer's --lengths)
  paddle_loss.npy                 Paddle's loss at every step, from its
                                  Executor on the saved files
  paddle_final.npz                Paddle's state after the last step
  case.json                       feeds, loss, batch, steps, the build's flags
                                  (a case's `shape`: --shape; `max_shape`:
                                  --max-shape, its data `data_shape`)

Paddle's reference runs the saved main program from init.pdparams on
batch k = rows k*BATCH .. k*BATCH+BATCH-1, as the compiled trainer does."""
import json
import os
import sys
import zlib

os.environ.setdefault("FLAGS_enable_pir_api", "0")
import numpy as np  # noqa: E402
import paddle  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oracle_case import case_registry  # noqa: E402

CASES, case = case_registry()
STEPS = 20
GLOBAL_SEED = 2024
TEST_PROGRAM = {}


def for_test():
    """Keeps the program built so far, cloned for test, as the case's
    evaluation program (what Paddle's docs do before minimize)."""
    TEST_PROGRAM["test"] = paddle.static.default_main_program().clone(for_test=True)


@case
def fit_a_line():
    """The docs' example: fc on 13 features, square_error_cost, mean, SGD."""
    x = paddle.static.data("x", [None, 13], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    pred = paddle.static.nn.fc(x, 1)
    loss = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
    paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    return loss, 16


@case
def fixed_batch():
    """Feeds that fix the batch (`static.data("x", [16, 13])`, as Paddle 1.x
    programs written with append_batch_size=False do), with an evaluation
    program: the trainer calls its model with batch 1 (the sizes are the
    program's) and takes the 16 rows they fix each step. It once stopped at
    once with no message."""
    x = paddle.static.data("x", [16, 13], "float32")
    y = paddle.static.data("y", [16, 1], "float32")
    h = paddle.nn.functional.relu(paddle.static.nn.fc(x, 8))
    loss = paddle.mean(paddle.nn.functional.square_error_cost(paddle.static.nn.fc(h, 1), y))
    for_test()
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    return loss, 16


def _token_classifier(test=False):
    """Token ids [None, None] (a length only the data gives): embedding, a
    Linear over each token, relu, the mean over the tokens, a classifier,
    cross_entropy, Adam (`test`: the evaluation program kept before it);
    the loss."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    h = paddle.nn.functional.relu(paddle.static.nn.fc(paddle.nn.Embedding(10, 8)(ids), 8, num_flatten_dims=2))
    logits = paddle.static.nn.fc(paddle.mean(h, axis=1), 4)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, y))
    if test:
        for_test()
    paddle.optimizer.Adam(0.01).minimize(loss)
    return loss


@case
def text_length_fixed():
    """Token ids [None, None] (a sequence length only the data gives), the
    length fixed with `--shape ids=-1,12` (case.json's flags; the batch
    stays the run's): embedding, a Linear over each token, the mean over
    the tokens, a classifier, cross_entropy, Adam."""
    return _token_classifier(), 8


text_length_fixed.shape = {"ids": [-1, 12]}
text_length_fixed.label_classes = 4


def run_sized(fn, max_shape, data_shape, label_classes, **attrs):
    """Case fn compiled with --max-shape `max_shape` (dims the run gives) and
    trained on data of `data_shape` (below the bounds, so that a kernel
    sized by a bound is seen); its labels in [0, label_classes); `attrs`
    its other attributes (int_range, seeded_steps, lengths: {feed: the
    sizes of dim 1 batch by batch})."""
    fn.max_shape, fn.data_shape, fn.label_classes = max_shape, data_shape, label_classes
    for k, v in attrs.items():
        setattr(fn, k, v)


@case
def text_run_length():
    """text_length_fixed's program (token ids [None, None]) compiled with
    `--max-shape ids=-1,16` (case.json's flags): a trainer whose sequence
    length is the data set's, at most 16; the data here has 11 tokens a row,
    below the bound, so that kernels sized by the bound would be seen. The
    gradients of embedding, mul over the tokens, the bias add (summed over
    the batch and the run's tokens), relu and the mean over the tokens; with
    its evaluation program, which takes the data set's length too."""
    return _token_classifier(test=True), 8


run_sized(text_run_length, {"ids": [-1, 16]}, {"ids": [-1, 11]}, 4)


@case
def attention_run_length():
    """Self-attention over token ids [None, None], compiled with
    `--max-shape ids=-1,12` and trained on 7 tokens a row: layer_norm,
    Linear q, k, v, two heads (reshape2, transpose2), the [L, L] scores
    (matmul_v2 with both lengths the run's), softmax, gelu, a residual sum,
    the mean over the tokens, a classifier, Adam."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    h = paddle.nn.LayerNorm(16)(paddle.nn.Embedding(30, 16)(ids))
    # no bias on k: softmax ignores what it adds to a row of scores, so its gradient is rounding noise (~1e-10),
    # which Adam's normalized step would turn into updates of the learning rate's size, different from Paddle's
    q, k, v = [paddle.nn.Linear(16, 16, bias_attr=None if i != 1 else False)(h) for i in range(3)]

    def heads(t):
        return paddle.transpose(paddle.reshape(t, [0, 0, 2, 8]), [0, 2, 1, 3])

    p = paddle.nn.functional.softmax(paddle.matmul(heads(q), heads(k), transpose_y=True) * 0.35)
    o = paddle.reshape(paddle.transpose(paddle.matmul(p, heads(v)), [0, 2, 1, 3]), [0, 0, 16])
    h = h + paddle.nn.functional.gelu(paddle.nn.Linear(16, 16)(o))
    loss = paddle.mean(paddle.nn.functional.cross_entropy(paddle.nn.Linear(16, 4)(paddle.mean(h, axis=1)), y))
    paddle.optimizer.Adam(0.01).minimize(loss)
    return loss, 4


run_sized(attention_run_length, {"ids": [-1, 12]}, {"ids": [-1, 7]}, 4)


@case
def bucketed_run_length():
    """attention_run_length's program over batches of their own lengths, as
    a bucketing reader makes them (the trainer's --lengths): compiled with
    --max-shape ids=-1,16, the data set padded to 14 tokens, batch k fed its
    first lengths[k] tokens (1 to 14, a different length most steps), as
    Paddle's Executor is fed each batch's own array."""
    return attention_run_length()


run_sized(bucketed_run_length, {"ids": [-1, 16]}, {"ids": [-1, 14]}, 4,
          lengths={"ids": [(5 * k) % 14 + 1 for k in range(STEPS)]})


@case
def tagger_run_length():
    """A label per token: ids and labels [None, None], each bounded with
    --max-shape 12 and fed 9 tokens a row (the run checks the two lengths
    agree): token and position embeddings (arange over shape(ids)[1]),
    dropout (its mask drawn over the run's tokens), concat with tanh, a
    Linear, a slice of its features, token logits, cross_entropy over every
    token (softmax_with_cross_entropy on [B, L, 5] logits), Adam."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, None], "int64")
    e = paddle.nn.Embedding(30, 16)(ids) + paddle.nn.Embedding(40, 16)(paddle.arange(paddle.shape(ids)[1]))
    h = paddle.nn.functional.dropout(e, 0.1)
    h = paddle.nn.Linear(32, 16)(paddle.concat([h, paddle.tanh(h)], axis=-1))[:, :, :8]
    logits = paddle.nn.Linear(8, 5)(h)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, paddle.unsqueeze(y, -1)))
    paddle.optimizer.Adam(0.01).minimize(loss)
    return loss, 4


run_sized(tagger_run_length, {"ids": [-1, 12], "y": [-1, 12]}, {"ids": [-1, 9], "y": [-1, 9]}, 5, seeded_steps=True)


@case
def gru_run_length():
    """A GRU over token embeddings of a length the run gives (--max-shape
    ids=-1,12, data of 5 tokens): rnn_grad steps through the run's tokens;
    attention weights over the tokens (reduce_sum keeping the length, softmax
    along it), the weighted sum and the max over the tokens (reduce_sum and
    reduce_max reducing it), stack, flatten, a classifier, Adam."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    out, _ = paddle.nn.GRU(8, 8)(paddle.nn.Embedding(30, 8)(ids))
    w = paddle.nn.functional.softmax(paddle.sum(out * 0.5, axis=-1), axis=-1)
    pooled = paddle.stack([paddle.sum(out * paddle.unsqueeze(w, -1), axis=1), paddle.max(out, axis=1)], axis=1)
    loss = paddle.nn.functional.cross_entropy(paddle.nn.Linear(16, 4)(paddle.flatten(pooled, 1)), y).mean()
    paddle.optimizer.Adam(0.01).minimize(loss)
    return loss, 4


run_sized(gru_run_length, {"ids": [-1, 12]}, {"ids": [-1, 5]}, 4)


@case
def encoder_run_length():
    """paddle.nn.TransformerEncoder over token ids of a length the run
    gives (--max-shape ids=-1,12, data of 10 tokens), with the padding mask
    made from the ids (ids != 0, unsqueeze, scaled into an additive bias on
    the [L, L] scores), a pooler on the first token (a slice dropping the
    length), index_select of token 1, Momentum.  The key projection has no
    bias: softmax ignores what it adds to a row of scores, so its gradient
    is zero in exact arithmetic and Paddle's and paddlec's are rounding
    noise of different summation orders (1e-10 against 1e-9: no comparison
    of them says anything)."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    bias = (paddle.unsqueeze(paddle.cast(ids != 0, "float32"), [1, 2]) - 1.0) * 1e4
    layer = paddle.nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0)
    layer.self_attn.k_proj.bias = None
    enc = paddle.nn.TransformerEncoder(layer, 1)
    h = enc(paddle.nn.Embedding(30, 16)(ids), bias)
    pooled = paddle.tanh(paddle.nn.Linear(16, 16)(h[:, 0]))
    second = paddle.squeeze(paddle.index_select(h, paddle.to_tensor([1]), axis=1), 1)
    loss = paddle.nn.functional.cross_entropy(paddle.nn.Linear(16, 4)(pooled + second), y).mean()
    paddle.optimizer.Momentum(0.05, 0.9).minimize(loss)
    return loss, 4


# the ids in [0, 4) too: zeros among them are padding the mask hides
run_sized(encoder_run_length, {"ids": [-1, 12]}, {"ids": [-1, 10]}, 4)


@case
def ops_run_length():
    """More gradients over a length the run gives (--max-shape ids=-1,12,
    data of 6 tokens): cumsum along the tokens, where (with the mask of
    the ids, expand_as), tile (along the length too), expand_v2, unstack
    and stack beside the length, a softmax of their mean, the max over the
    tokens."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    e = paddle.nn.Embedding(30, 8)(ids)
    c = paddle.cumsum(e, axis=1) * 0.3
    w = paddle.where(paddle.expand_as(paddle.unsqueeze(ids != 0, -1), c), c, paddle.zeros_like(c))
    t = paddle.nn.Linear(16, 16)(paddle.tile(w, [1, 2, 2]))  # along the length too: [B, 2 L, 16]
    # the weights and the second term tell the four copies apart (else their gradients cancel to rounding noise)
    ex = paddle.expand(t[:, :, :1], [-1, -1, 4]) * paddle.to_tensor([1.0, 2.0, 3.0, 4.0]) + t[:, :, 4:8]
    u = paddle.unstack(paddle.reshape(ex, [0, 0, 2, 2]), axis=2)
    s = paddle.stack([u[0] * 2.0, u[1]], axis=1)
    sm = paddle.nn.functional.softmax(paddle.mean(s, axis=[1, 2]), axis=-1)
    logits = paddle.nn.Linear(2, 4)(sm) + paddle.nn.Linear(8, 4)(paddle.max(e, axis=1))
    loss = paddle.nn.functional.cross_entropy(logits, y).mean()
    paddle.optimizer.Adam(0.01).minimize(loss)
    return loss, 4


# the ids in [0, 4) too: zeros among them are masked out by the where
run_sized(ops_run_length, {"ids": [-1, 12]}, {"ids": [-1, 6]}, 4)


@case
def textcnn_run_length():
    """TextCNN over token ids of a length the run gives (--max-shape
    ids=-1,12, data of 7 tokens): Conv2D windows of 2 and 3 tokens across
    the whole embedding, relu, the max over the tokens, and a SAME stride-2
    convolution (its padding the run's) averaged over its output."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    e = paddle.unsqueeze(paddle.nn.Embedding(30, 8)(ids), 1)
    feats = [paddle.max(paddle.squeeze(paddle.nn.functional.relu(paddle.nn.Conv2D(1, 4, (k, 8))(e)), 3), axis=2)
             for k in (2, 3)]
    feats.append(paddle.mean(paddle.nn.Conv2D(1, 3, 3, padding="SAME", stride=2)(e), axis=[2, 3]))
    loss = paddle.nn.functional.cross_entropy(paddle.nn.Linear(11, 4)(paddle.concat(feats, axis=1)), y).mean()
    paddle.optimizer.Adam(0.01).minimize(loss)
    return loss, 4


# ids from the whole vocabulary: a bigram seen twice in a row gives the max over the tokens a tie, which GEMMs
# that round the two windows differently break differently (Paddle's grad goes to every tied element)
run_sized(textcnn_run_length, {"ids": [-1, 12]}, {"ids": [-1, 7]}, 4, int_range={"ids": 30})


@case
def cnn_run_size():
    """Images [None, 3, None, None] of sizes the run gives (--max-shape
    x=-1,3,16,16, data of 12 x 10): convolutions (padding 1; SAME with
    stride 2), batch_norm with the batch's statistics over the run's
    pixels, relu, max pooling, average pooling with padding, adaptive
    average pooling to 1 x 1, a classifier, Momentum."""
    x = paddle.static.data("x", [None, 3, None, None], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    # no bias before batch_norm: it takes the mean away, so the bias's gradient is rounding noise
    h = paddle.nn.functional.relu(paddle.nn.BatchNorm2D(8)(paddle.nn.Conv2D(3, 8, 3, padding=1, bias_attr=False)(x)))
    h = paddle.nn.MaxPool2D(2, 2)(h)
    h = paddle.nn.AvgPool2D(2, 1, padding=1)(paddle.nn.Conv2D(8, 8, 3, stride=2, padding="SAME")(h))
    logits = paddle.nn.Linear(8, 4)(paddle.flatten(paddle.nn.AdaptiveAvgPool2D(1)(h), 1))
    loss = paddle.nn.functional.cross_entropy(logits, y).mean()
    paddle.optimizer.Momentum(0.05, 0.9).minimize(loss)
    return loss, 4


run_sized(cnn_run_size, {"x": [-1, 3, 16, 16]}, {"x": [-1, 3, 12, 10]}, 4)


@case
def seg_run_size():
    """Segmentation over images of sizes the run gives (x and its
    per-pixel labels y each bounded with --max-shape, data of 12 x 10): a
    stride-2 convolution, bilinear upsampling by 2 beside a stride-2
    transposed convolution, nearest by 1 (their grads at the run's sizes),
    a 1 x 1 classifier, cross_entropy over the channel axis of every
    pixel."""
    x = paddle.static.data("x", [None, 3, None, None], "float32")
    y = paddle.static.data("y", [None, 1, None, None], "int64")
    h = paddle.nn.functional.relu(paddle.nn.Conv2D(3, 8, 3, stride=2, padding=1)(x))
    h = paddle.nn.functional.interpolate(h, scale_factor=2, mode="bilinear", align_corners=False) + \
        paddle.nn.Conv2DTranspose(8, 8, 4, stride=2, padding=1)(h)
    h = h + paddle.nn.functional.interpolate(h, scale_factor=1.0, mode="nearest")
    loss = paddle.nn.functional.cross_entropy(paddle.nn.Conv2D(8, 4, 1)(h), y, axis=1).mean()
    paddle.optimizer.Momentum(0.05, 0.9).minimize(loss)
    return loss, 4


run_sized(seg_run_size, {"x": [-1, 3, 16, 16], "y": [-1, 1, 16, 16]}, {"x": [-1, 3, 12, 10], "y": [-1, 1, 12, 10]}, 4)


@case
def norm_pad_run_size():
    """Images of sizes the run gives (--max-shape x=-1,3,16,16, data of
    12 x 10): reflect and constant padding (pad3d), group_norm, PReLU per
    channel, instance_norm (a relu after it: the mean of its output alone
    would not depend on its input), the mean over the pixels."""
    x = paddle.static.data("x", [None, 3, None, None], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = paddle.nn.functional.pad(x, [1, 2, 1, 0], mode="reflect")
    h = paddle.nn.PReLU(8)(paddle.nn.GroupNorm(2, 8)(paddle.nn.Conv2D(3, 8, 3, bias_attr=False)(h)))
    h = paddle.nn.functional.relu(paddle.nn.InstanceNorm2D(8)(paddle.nn.Conv2D(8, 8, 3, padding=1, bias_attr=False)(h)))
    h = paddle.nn.functional.pad(h, [1, 1, 1, 1], mode="constant", value=0.5)
    loss = paddle.nn.functional.cross_entropy(paddle.nn.Linear(8, 4)(paddle.mean(h, axis=[2, 3])), y).mean()
    paddle.optimizer.Momentum(0.05, 0.9).minimize(loss)
    return loss, 4


run_sized(norm_pad_run_size, {"x": [-1, 3, 16, 16]}, {"x": [-1, 3, 12, 10]}, 4)


@case
def norms_run_length():
    """Token ids of a length the run gives (--max-shape ids=-1,12, data
    of 8 tokens): F.normalize over the features (p_norm, elementwise_max and
    _div grads), logsumexp over the tokens, trunc (a zero gradient) beside
    its input, the mean over the tokens."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    e = paddle.nn.Embedding(30, 8)(ids)
    lse = paddle.logsumexp(paddle.nn.Linear(8, 8)(paddle.nn.functional.normalize(e, axis=-1)), axis=1)
    t = paddle.trunc(e * 3.0) + e
    loss = paddle.nn.functional.cross_entropy(paddle.nn.Linear(8, 4)(lse + paddle.mean(t, axis=1)), y).mean()
    paddle.optimizer.Adam(0.01).minimize(loss)
    return loss, 4


run_sized(norms_run_length, {"ids": [-1, 12]}, {"ids": [-1, 8]}, 4, int_range={"ids": 30})


def _four_classes(feats, y, optimizer):
    """The loss of a 4-class classifier over feats ([B, n]) with labels y,
    minimized by `optimizer`; the case's (loss, batch 4)."""
    logits = paddle.nn.Linear(feats.shape[-1], 4)(feats)
    loss = paddle.nn.functional.cross_entropy(logits, y).mean()
    optimizer.minimize(loss)
    return loss, 4


@case
def shifts_run_length():
    """More gradients over a length the run gives (--max-shape ids=-1,12,
    data of 7 tokens): roll along the tokens, lerp between the tokens and
    the rolled ones by a gate, tril of the token-by-token scores, their
    diagonal, cumprod of them down the tokens, logcumsumexp along the
    tokens."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    e = paddle.nn.Embedding(30, 8)(ids)
    r = paddle.roll(e, 2, axis=1)
    g = paddle.nn.functional.sigmoid(paddle.nn.Linear(8, 8)(e))
    m = paddle.lerp(e, r, g)
    s = paddle.tril(paddle.matmul(m, m, transpose_y=True) * 0.3)  # [B, L, L]
    d = paddle.diagonal(s, axis1=1, axis2=2)  # [B, L]
    c = paddle.cumprod(paddle.nn.functional.sigmoid(s), dim=1)
    lc = paddle.logcumsumexp(m, axis=1)
    feats = paddle.concat([paddle.mean(m, axis=1), paddle.mean(lc, axis=1) * 0.2,
                           paddle.mean(c, axis=[1, 2]).unsqueeze(1), paddle.mean(d, axis=1, keepdim=True)], axis=1)
    return _four_classes(feats, y, paddle.optimizer.Adam(0.01))


run_sized(shifts_run_length, {"ids": [-1, 12]}, {"ids": [-1, 7]}, 4, int_range={"ids": 30})


@case
def grids_run_length():
    """meshgrid over a length the run gives (--max-shape ids=-1,12, data of
    7 tokens): a grid of the first sequence's first feature against a
    parameter vector, its grads at the run's length.  (unpool over the
    run's sizes is not here: Paddle 2.6's own unpool fails on a map whose
    sizes its program does not give, "The meta data must be valid".)"""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    e = paddle.nn.Embedding(30, 8)(ids)  # [B, L, 8]
    p = paddle.static.create_parameter([5], "float32")
    ga, gb = paddle.meshgrid(e[0, :, 0], p)  # [L, 5] each
    grid = paddle.mean(paddle.tanh(ga * gb + ga), axis=0)  # [5]
    h = paddle.mean(e, axis=1)
    feats = paddle.concat([h, paddle.nn.Linear(8, 5)(h) + grid], axis=1)
    return _four_classes(feats, y, paddle.optimizer.Adam(0.01))


run_sized(grids_run_length, {"ids": [-1, 12]}, {"ids": [-1, 7]}, 4, int_range={"ids": 30})


@case
def picks_run_length():
    """Gradients that pick elements, over a length the run gives
    (--max-shape ids=-1,12, data of 7 tokens): sort and take_along_axis
    across each token's features (no ties there), put_along_axis of twice
    its two smallest features back in place, kthvalue and mode across them,
    cummax and topk along the tokens, repeat_interleave of the tokens,
    gather_nd of a (row, token) pair a feed gives (pos, in [0, 4)). A
    token repeated in a row ties cummax and topk, but the tied rows are
    copies of one embedding row: either pick gives it the same gradient."""
    ids = paddle.static.data("ids", [None, None], "int64")
    pos = paddle.static.data("pos", [None, 2], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    e = paddle.nn.Embedding(30, 8)(ids)
    h = paddle.nn.Linear(8, 8)(e)
    srt = paddle.sort(h, axis=2)
    tk = paddle.take_along_axis(e, paddle.argsort(h, axis=2), axis=2)
    kv, _ = paddle.kthvalue(h, 3, axis=2)  # [B, L]
    md, _ = paddle.mode(h, axis=2)
    tv, _ = paddle.topk(h, 3, axis=1)  # [B, 3, 8]: k of the run's tokens
    low = paddle.argsort(h, axis=2)[:, :, :2]
    pa = paddle.put_along_axis(h, low, paddle.take_along_axis(h, low, axis=2) * 2.0, axis=2)
    cm, _ = paddle.cummax(h, axis=1)
    ri = paddle.repeat_interleave(h, 2, axis=1)  # [B, 2 L, 8]
    weights = paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    feats = paddle.concat([paddle.mean(srt * weights, axis=1), paddle.mean(tk, axis=1),
                           paddle.mean(kv, axis=1, keepdim=True), paddle.mean(cm, axis=1),
                           paddle.mean(ri * paddle.cumsum(paddle.ones_like(ri), axis=1) * 0.1, axis=1),
                           paddle.mean(md, axis=1, keepdim=True), paddle.mean(pa, axis=1), paddle.mean(tv, axis=1),
                           paddle.gather_nd(h, pos)], axis=1)
    return _four_classes(feats, y, paddle.optimizer.Adam(0.01))


run_sized(picks_run_length, {"ids": [-1, 12]}, {"ids": [-1, 7]}, 4, int_range={"ids": 30, "pos": 4})


@case
def einsum_run_length():
    """Attention written with einsum over a length the run gives
    (--max-shape ids=-1,12, data of 7 tokens): the scores "bld,bmd->blm",
    softmax, the mix "blm,bmd->bld", a sum over the tokens "bld->bd" (one
    operand); einsum_grad of each at the run's length. No key bias: softmax
    takes a per-row constant away, so its gradient is rounding noise."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    e = paddle.nn.Embedding(30, 16)(ids)
    q, k, v = paddle.nn.Linear(16, 16)(e), paddle.nn.Linear(16, 16, bias_attr=False)(e), paddle.nn.Linear(16, 16)(e)
    p = paddle.nn.functional.softmax(paddle.einsum("bld,bmd->blm", q, k) * 0.25, axis=-1)
    o = paddle.einsum("blm,bmd->bld", p, v)
    loss = paddle.nn.functional.cross_entropy(paddle.nn.Linear(16, 4)(paddle.einsum("bld->bd", o) * 0.1), y).mean()
    paddle.optimizer.Adam(0.01).minimize(loss)
    return loss, 4


run_sized(einsum_run_length, {"ids": [-1, 12]}, {"ids": [-1, 7]}, 4, int_range={"ids": 30})


@case
def setitem_run_length():
    """Slice assignment over a length the run gives (--max-shape ids=-1,12,
    data of 7 tokens): paddle.static.setitem (set_value with a ValueTensor)
    of feature 0 of every token from a [B, 1] value, and of features 2:5
    from a [3] value, both broadcast along the run's tokens; set_value_grad
    gives Input@GRAD and each value's gradient summed over the tokens."""
    ids = paddle.static.data("ids", [None, None], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    e = paddle.nn.Embedding(30, 8)(ids) * 2.0
    g = paddle.nn.Linear(8, 4)(paddle.mean(e, axis=1))  # [B, 4]
    e = paddle.static.setitem(e, (slice(None), slice(None), 0), g[:, :1])
    e = paddle.static.setitem(e, (slice(None), slice(None), slice(2, 5)), paddle.mean(g[:, 1:], axis=0))
    loss = paddle.nn.functional.cross_entropy(paddle.nn.Linear(8, 4)(paddle.mean(paddle.tanh(e), axis=1)), y).mean()
    paddle.optimizer.Adam(0.01).minimize(loss)
    return loss, 4


run_sized(setitem_run_length, {"ids": [-1, 12]}, {"ids": [-1, 7]}, 4, int_range={"ids": 30})


@case
def maps_run_size():
    """More gradients over images of sizes the run gives (--max-shape
    x=-1,3,12,12, data of 8 x 10): maxout of a convolution, channel_shuffle,
    temporal_shift (2 frames a clip), pixel_shuffle by 2 then max pooling
    back to the run's sizes, roll along the height,
    max pooling with its mask (max_pool2d_with_index), unfold's 2 x 2 patches
    of it, a Momentum step."""
    x = paddle.static.data("x", [None, 3, None, None], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = paddle.nn.functional.maxout(paddle.nn.Conv2D(3, 8, 3, padding=1)(x), groups=2)  # 4 channels
    h = paddle.nn.functional.temporal_shift(paddle.nn.functional.channel_shuffle(h, 2), seg_num=2, shift_ratio=0.25)
    up = paddle.nn.MaxPool2D(2, 2)(paddle.nn.functional.pixel_shuffle(h, 2))  # [B, 1, H, W]
    h = paddle.roll(h, 1, axis=2) * paddle.to_tensor([1.0, 2.0, 3.0, 4.0]).reshape([4, 1, 1]) + up
    h, _ = paddle.nn.functional.max_pool2d(h, 2, 2, return_mask=True)
    u = paddle.nn.functional.unfold(h, [2, 2])  # [B, 16, (H - 1) (W - 1)]
    feats = paddle.concat([paddle.mean(h, axis=[2, 3]), paddle.mean(u, axis=2)], axis=1)
    return _four_classes(feats, y, paddle.optimizer.Momentum(0.05, 0.9))


run_sized(maps_run_size, {"x": [-1, 3, 12, 12]}, {"x": [-1, 3, 8, 10]}, 4)


@case
def warp_run_size():
    """A spatial transformer over images of sizes the run gives (--max-shape
    x=-1,3,12,12, data of 8 x 10): a convolution, theta from its pooled
    features (near the identity), affine_grid over the feature map's own
    shape (paddle.shape: OutputShape the run's), grid_sample (bilinear,
    zeros outside), a classifier; grid_sampler_grad into the map and the
    grid, affine_grid_grad into theta."""
    x = paddle.static.data("x", [None, 3, None, None], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = paddle.nn.functional.relu(paddle.nn.Conv2D(3, 4, 3, padding=1)(x))
    eye = paddle.to_tensor([1.0, 0.0, 0.0, 0.0, 1.0, 0.0])
    theta = paddle.reshape(paddle.nn.Linear(4, 6)(paddle.mean(h, axis=[2, 3])) * 0.1 + eye, [-1, 2, 3])
    grid = paddle.nn.functional.affine_grid(theta, paddle.shape(h), align_corners=False)
    w = paddle.nn.functional.grid_sample(h, grid, align_corners=False)  # declared 5-D (the grid's rank unknown)
    pooled = paddle.reshape(paddle.mean(w, axis=[2, 3]), [-1, 4])
    return _four_classes(pooled, y, paddle.optimizer.Momentum(0.05, 0.9))


run_sized(warp_run_size, {"x": [-1, 3, 12, 12]}, {"x": [-1, 3, 8, 10]}, 4)


@case
def clip_run_size():
    """Clips [None, 3, None, None, None] of frames, height and width the run
    gives (--max-shape x=-1,3,6,8,8, data of 4 x 6 x 7): 3-D convolutions
    (padding 1; SAME with stride 2), relu, max and average 3-D pooling
    (padding 1), a stride-2 transposed 3-D convolution, adaptive average
    pooling to 1 x 1 x 1, a classifier, Momentum: conv3d_grad,
    conv3d_transpose_grad and pool3d_grad over the run's sizes."""
    x = paddle.static.data("x", [None, 3, None, None, None], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    h = paddle.nn.functional.relu(paddle.nn.Conv3D(3, 4, 3, padding=1)(x))
    h = paddle.nn.MaxPool3D(2, 2)(h)
    h = paddle.nn.AvgPool3D(2, 1, padding=1)(paddle.nn.Conv3D(4, 4, 3, stride=2, padding="SAME")(h))
    h = paddle.nn.Conv3DTranspose(4, 4, 2, stride=2)(h)
    return _four_classes(paddle.flatten(paddle.nn.AdaptiveAvgPool3D(1)(h), 1), y, paddle.optimizer.Momentum(0.05, 0.9))


run_sized(clip_run_size, {"x": [-1, 3, 6, 8, 8]}, {"x": [-1, 3, 4, 6, 7]}, 4)


@case
def scale_update():
    """The trainer's plumbing with ops that compile without any grad kernel:
    loss = mean(x * w) seeds its gradient (a Backward|Loss fill_constant, as
    append_backward writes it), and an Optimize-role `scale` updates w in
    place (w *= 0.9) where an optimizer would."""
    x = paddle.static.data("x", [None, 3], "float32")
    w = paddle.static.create_parameter([3], "float32", default_initializer=paddle.nn.initializer.Constant(0.5))
    loss = paddle.mean(x * w)
    blk = paddle.static.default_main_program().global_block()
    g = blk.create_var(name=loss.name + "@GRAD", shape=loss.shape, dtype="float32")
    blk.append_op(type="fill_constant", outputs={"Out": [g]},
                  attrs={"shape": list(loss.shape), "value": 1.0, "dtype": 5, "op_role": 257})
    blk.append_op(type="scale", inputs={"X": [w]}, outputs={"Out": [w]}, attrs={"scale": 0.9, "op_role": 2})
    return loss, 4


@case
def cnn_manual_sgd():
    """A small CNN trained with what a CNN's backward needs: conv2d (no
    bias) + batch_norm in training (its running statistics are state,
    updated in place every step) + relu + max pool + depthwise conv + avg
    pool + layer_norm + fc, softmax_with_cross_entropy, mean; plain SGD
    written as Optimize-role ops (w -= 0.1 * w@GRAD), which compile without
    an optimizer kernel."""
    import paddle.nn.functional as F
    from oracle_case import append_op
    x = paddle.static.data("x", [None, 2, 8, 8], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    y = paddle.static.nn.conv2d(x, 4, 3, padding=1, bias_attr=False)
    y = F.relu(paddle.static.nn.batch_norm(y, is_test=False, momentum=0.8))
    y = F.max_pool2d(y, 2)
    y = paddle.static.nn.conv2d(y, 4, 3, padding=1, groups=4)
    y = paddle.static.nn.layer_norm(F.avg_pool2d(y, 2), begin_norm_axis=1)
    logits = paddle.static.nn.fc(y, 10)
    loss = append_op("mean", {"X": F.softmax_with_cross_entropy(logits, label)}, {"Out": ["float32"]}, {})[0]
    blk = paddle.static.default_main_program().global_block()
    for p, g in paddle.static.append_backward(loss):
        t = blk.create_var(name=p.name + "@STEP", shape=p.shape, dtype="float32")
        blk.append_op(type="scale", inputs={"X": [g]}, outputs={"Out": [t]}, attrs={"scale": 0.1, "op_role": 2})
        blk.append_op(type="elementwise_sub", inputs={"X": [p], "Y": [t]}, outputs={"Out": [p]}, attrs={"op_role": 2})
    return loss, 4


def _mlp(optimizer):
    """An MLP classifier: fc 16 -> 32 relu -> 10, softmax_with_cross_entropy
    on int64 labels, mean; batch 8."""
    x = paddle.static.data("x", [None, 16], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    h = paddle.static.nn.fc(x, 32, activation="relu")
    logits = paddle.static.nn.fc(h, 10)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
    for_test()
    optimizer.minimize(loss)
    return loss, 8


@case
def mlp_sgd():
    return _mlp(paddle.optimizer.SGD(learning_rate=0.1))


mlp_sgd.collective = True


@case
def mlp_momentum():
    return _mlp(paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9))


@case
def mlp_momentum_nesterov_l2():
    return _mlp(paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9, use_nesterov=True,
                                          weight_decay=paddle.regularizer.L2Decay(1e-3)))


@case
def mlp_adam():
    return _mlp(paddle.optimizer.Adam(learning_rate=0.01))


mlp_adam.global_seed = True


@case
def mlp_adamw():
    return _mlp(paddle.optimizer.AdamW(learning_rate=0.01, weight_decay=0.05))


@case
def mlp_adagrad():
    return _mlp(paddle.optimizer.Adagrad(learning_rate=0.05))


@case
def mlp_rmsprop_centered():
    return _mlp(paddle.optimizer.RMSProp(learning_rate=0.01, momentum=0.5, centered=True))


@case
def mlp_adamax():
    return _mlp(paddle.optimizer.Adamax(learning_rate=0.01))


@case
def mlp_adadelta():
    return _mlp(paddle.optimizer.Adadelta(learning_rate=1.0))


@case
def mlp_lamb():
    return _mlp(paddle.optimizer.Lamb(learning_rate=0.01))


@case
def mlp_lars():
    """LARS momentum (paddle.incubate's LarsMomentumOptimizer: a lars_momentum
    op per parameter), its layer-wise rate from |Param| and |Grad|; the
    biases excluded from its weight decay (lars_weight_decay 0: plain
    momentum for them)."""
    return _mlp(paddle.incubate.optimizer.LarsMomentumOptimizer(
        learning_rate=0.5, momentum=0.9, lars_coeff=0.01, lars_weight_decay=0.001,
        exclude_from_weight_decay=["b_0"]))


@case
def fit_a_line_f64_adam():
    """fit_a_line in float64 (data, parameters, Adam's accumulators and
    learning rate: Paddle's double kernels) with Adam."""
    x = paddle.static.data("x", [None, 13], "float64")
    y = paddle.static.data("y", [None, 1], "float64")
    pred = paddle.static.nn.fc(x, 1)
    loss = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    return loss, 16


@case
def mlp_f64_adam():
    """A float64 MLP classifier (data, parameters, Adam's accumulators and
    learning rate: Paddle's double kernels): fc 16 -> 32 relu -> 10,
    F.cross_entropy (softmax_with_cross_entropy on int64 labels, a float64
    loss), mean, Adam; batch 8."""
    x = paddle.static.data("x", [None, 16], "float64")
    label = paddle.static.data("label", [None, 1], "int64")
    h = paddle.static.nn.fc(x, 32, activation="relu")
    logits = paddle.static.nn.fc(h, 10)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    return loss, 8


@case
def mlp_dropout():
    """An MLP with dropout in training (its mask from the op's fixed seed)."""
    x = paddle.static.data("x", [None, 16], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    h = paddle.nn.functional.dropout(paddle.static.nn.fc(x, 32, activation="relu"), p=0.3)
    logits = paddle.static.nn.fc(h, 10)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return loss, 8


@case
def mlp_rrelu():
    """An MLP with rrelu in training: each step draws the slopes of the
    hidden layer's negative elements from the global generator
    (paddle.seed(GLOBAL_SEED) before the first step, the trainer's --seed);
    rrelu_grad reads them from Noise.  The program's one random op, so
    Paddle's executor draws in program order every step."""
    x = paddle.static.data("x", [None, 16], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    h = paddle.nn.functional.rrelu(paddle.static.nn.fc(x, 32), 0.05, 0.5, training=True)
    logits = paddle.static.nn.fc(h, 10)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    return loss, 8


mlp_rrelu.seeded_steps = True


@case
def mlp_clip_l2():
    """Adam with global-norm gradient clipping and L2 decay: the clip and
    regularizer ops Paddle's optimizer appends."""
    x = paddle.static.data("x", [None, 16], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    h = paddle.static.nn.fc(x, 32, activation="tanh")
    logits = paddle.static.nn.fc(h, 10)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
    paddle.optimizer.Adam(learning_rate=0.01, grad_clip=paddle.nn.ClipGradByGlobalNorm(0.5),
                          weight_decay=paddle.regularizer.L2Decay(1e-3)).minimize(loss)
    return loss, 8


@case
def mlp_clip_norm():
    """Momentum with each gradient clipped to its own L2 norm
    (paddle.nn.ClipGradByNorm: a clip_by_norm op per gradient), max_norm
    small enough that the clip bites at every step, and one parameter it
    leaves alone (need_clip=False)."""
    x = paddle.static.data("x", [None, 16], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    h = paddle.static.nn.fc(x, 32, activation="tanh")
    w = paddle.static.create_parameter([32, 10], "float32",
                                       attr=paddle.ParamAttr(name="free_w", need_clip=False))
    loss = paddle.mean(paddle.nn.functional.cross_entropy(paddle.matmul(h, w), label))
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9,
                              grad_clip=paddle.nn.ClipGradByNorm(0.05)).minimize(loss)
    return loss, 8


@case
def cnn_bn_momentum():
    """A small CNN: conv2d + batch_norm (training statistics) + relu +
    max pool, fc, softmax cross-entropy, Momentum.  The conv has no bias, as
    before a batch_norm it should not: the batch mean removes it, so its
    gradient is 0 in exact arithmetic and its velocity rounding noise in
    Paddle as in paddlec (~1e-8, no scale to compare against)."""
    x = paddle.static.data("x", [None, 3, 8, 8], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    h = paddle.static.nn.conv2d(x, 4, 3, padding=1, bias_attr=False)
    h = paddle.nn.functional.relu(paddle.static.nn.batch_norm(h))
    h = paddle.nn.functional.max_pool2d(h, 2)
    logits = paddle.static.nn.fc(paddle.flatten(h, 1), 10)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, label))
    for_test()
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    return loss, 4


@case
def transformer_adamw():
    """A Transformer encoder classifier: two paddle.nn.TransformerEncoderLayer
    (2 heads, dropout 0.1 in attention and feed-forward, layer_norm, gelu)
    over 8 tokens of 16 features, mean over tokens, fc to 10 classes;
    AdamW (decoupled decay 0.01) with global-norm clipping, and an L2Decay
    regularizer on the classifier's weight (the scale + sum ops a
    regularizer appends).  The attention projections have no biases: the key
    projection's bias gets a gradient that is 0 in exact arithmetic (softmax
    over keys ignores a per-query constant, and q.(k + b) adds one), so its
    value is rounding noise in Paddle as in paddlec, which Adam's
    normalization then turns into steps of the learning rate's size (the
    same reason cnn_bn_momentum's conv has no bias); the feed-forward
    layers keep theirs."""
    nn = paddle.nn
    x = paddle.static.data("x", [None, 8, 16], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    layer = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.1, activation="gelu", bias_attr=[False, None])
    h = nn.TransformerEncoder(layer, 2)(x)
    head = nn.Linear(16, 10, weight_attr=paddle.ParamAttr(regularizer=paddle.regularizer.L2Decay(1e-3)))
    loss = paddle.mean(nn.functional.cross_entropy(head(paddle.mean(h, axis=1)), label))
    paddle.optimizer.AdamW(learning_rate=0.005, weight_decay=0.01,
                           grad_clip=nn.ClipGradByGlobalNorm(1.0)).minimize(loss)
    return loss, 4


def _fit_a_line_lr(schedule, optimizer):
    """fit_a_line trained with a learning rate the program computes, as fluid
    1.x scripts wrote it: `schedule()` appends the decay ops (the counter
    `increment`, arithmetic, and for some the small conditional_blocks that
    paddlec inlines) and the optimizer reads the Variable it returns.
    paddle.optimizer takes only a float or an LRScheduler, so the Variable is
    handed to it the way its own _create_global_learning_rate keeps one."""
    x = paddle.static.data("x", [None, 13], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    pred = paddle.static.nn.fc(x, 1)
    loss = paddle.mean(paddle.nn.functional.square_error_cost(pred, y))
    lr = schedule()
    optimizer._learning_rate_map[paddle.static.default_main_program()] = lr
    optimizer.minimize(loss)
    return loss, 8


def _lr_case(name, schedule, make_optimizer):
    def fn():
        return _fit_a_line_lr(schedule, make_optimizer())
    fn.__name__ = name
    fn.__doc__ = f"fit_a_line under a fluid learning-rate schedule ({name[3:]})."
    case(fn)


_LR = paddle.optimizer.lr
_lr_case("lr_piecewise", lambda: _LR.piecewise_decay([3, 6], [0.1, 0.01, 0.001]),
         lambda: paddle.optimizer.SGD(learning_rate=0.1))
_lr_case("lr_warmup_exponential", lambda: _LR.linear_lr_warmup(_LR.exponential_decay(0.05, 5, 0.5), 4, 0.0, 0.05),
         lambda: paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9))
_lr_case("lr_noam", lambda: _LR.noam_decay(16, 4, 0.5), lambda: paddle.optimizer.Adam(learning_rate=0.1))
_lr_case("lr_cosine", lambda: _LR.cosine_decay(0.05, 3, 10), lambda: paddle.optimizer.SGD(learning_rate=0.1))
_lr_case("lr_polynomial_cycle", lambda: _LR.polynomial_decay(0.05, 4, 0.001, 2.0, cycle=True),
         lambda: paddle.optimizer.SGD(learning_rate=0.1))
_lr_case("lr_natural_exp", lambda: _LR.natural_exp_decay(0.05, 3, 0.5, staircase=True),
         lambda: paddle.optimizer.SGD(learning_rate=0.1))
_lr_case("lr_inverse_time", lambda: _LR.inverse_time_decay(0.05, 3, 0.5), lambda: paddle.optimizer.SGD(learning_rate=0.1))


@case
def wide_deep():
    """A wide & deep click model: an 8-wide embedding of 4 ids (in [0, 10),
    _data) joined with 5 dense features through a relu layer (deep), a
    linear layer on the dense features (wide), their logits added, and
    binary_cross_entropy_with_logits (sigmoid_cross_entropy_with_logits,
    mean); Adagrad.  The labels are _data's standard normal floats: the
    loss takes any real label."""
    ids = paddle.static.data("ids", [None, 4], "int64")
    dense = paddle.static.data("dense", [None, 5], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    emb = paddle.nn.Embedding(100, 8)(ids)
    deep = paddle.nn.functional.relu(paddle.nn.Linear(37, 16)(paddle.concat([emb.reshape([-1, 32]), dense], 1)))
    wide = paddle.nn.Linear(5, 1)(dense)
    logit = paddle.nn.Linear(16, 1)(deep) + wide
    loss = paddle.nn.functional.binary_cross_entropy_with_logits(logit, y).mean()
    paddle.optimizer.Adagrad(learning_rate=1e-2).minimize(loss)
    return loss, 8

@case
def lstm_cls():
    """A sequence classifier: paddle.nn.LSTM over 6 steps of 5 features,
    its last step's output through a Linear to 3 classes, cross-entropy,
    Adam (the rnn op in training mode, rnn_grad, slice_grad)."""
    x = paddle.static.data("x", [None, 6, 5], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    out, _ = paddle.nn.LSTM(5, 8)(x)
    logits = paddle.nn.Linear(8, 3)(out[:, -1, :])
    loss = paddle.nn.functional.cross_entropy(logits, y).mean()
    paddle.optimizer.Adam(learning_rate=1e-2).minimize(loss)
    return loss, 8


lstm_cls.label_classes = 3


@case
def cond_branches():
    """paddle.static.nn.cond in the forward pass: the batch's mean of
    feature 0 picks 2 * fc(x) or tanh(fc2(x)) (a branch with its own
    parameters), so the steps take both; the backward is
    conditional_block_grad over each branch's grad block (zeros for the
    branch not taken) and select_output; momentum."""
    x = paddle.static.data("x", [None, 4], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    fc, fc2 = paddle.nn.Linear(4, 1), paddle.nn.Linear(4, 1)
    s = paddle.mean(x[:, 0])
    out = paddle.static.nn.cond(s > 0, lambda: fc(x) * 2.0, lambda: paddle.tanh(fc2(x)))
    loss = paddle.mean((out - y) ** 2)
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    return loss, 4


@case
def while_rnn():
    """An RNN written as paddle.static.nn.while_loop over the time steps
    (a Linear cell on [x_t, h], tanh; a counter i < 5), an fc on the last
    h, SGD: the backward is while_grad, which runs the grad block once per
    iteration in reverse on that iteration's values (Paddle's step scopes)
    and sums the cell's parameter grads over the iterations."""
    x = paddle.static.data("x", [None, 5, 4], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    cell = paddle.nn.Linear(4 + 3, 3)
    h0 = paddle.static.nn.fc(x[:, 0], 3)
    i = paddle.full([], 0, "int64")
    n = paddle.full([], 5, "int64")

    def body(i, h):
        h = paddle.tanh(cell(paddle.concat([x[:, i], h], 1)))
        return i + 1, h

    _, h = paddle.static.nn.while_loop(lambda i, h: i < n, body, [i, h0])
    loss = paddle.mean((paddle.static.nn.fc(h, 1) - y) ** 2)
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return loss, 4, [h]  # h fetched after the step: the loop's last value, which while_grad gives back


@case
def loop_until_data():
    """A while_loop whose iterations only the data decides (h grows by
    half and a tanh layer's tenth until its largest element passes 8: about
    seven trips, a number that moves as the layer trains), trained: the
    trainer keeps at most --max-iterations 16 of them for while_grad (the
    case's flags); SGD."""
    x = paddle.static.data("x", [None, 3], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    fc = paddle.nn.Linear(3, 3)
    h0 = paddle.abs(paddle.static.nn.fc(x, 3)) + 0.5

    def body(h):
        return [h * 1.5 + paddle.tanh(fc(h)) * 0.1]

    (h,) = paddle.static.nn.while_loop(lambda h: paddle.max(h) < 8.0, body, [h0])
    loss = paddle.mean((paddle.static.nn.fc(h, 1) * 0.1 - y) ** 2)
    paddle.optimizer.SGD(learning_rate=0.01).minimize(loss)
    return loss, 4


loop_until_data.flags = ["--max-iterations", "16"]


@case
def nested_while():
    """A while_loop inside a while_loop, trained: 3 outer steps, each
    running 2 inner steps of a tanh Linear cell over the state and the
    outer step's input x[:, i]; the backward is a while_grad inside a
    while_grad's grad block, which runs the inner grad block once per
    inner iteration of that outer iteration (Paddle's step scopes nested);
    the cell's grads summed over both; SGD."""
    x = paddle.static.data("x", [None, 3, 4], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    cell = paddle.nn.Linear(4 + 3, 3)
    mix = paddle.nn.Linear(3, 3)
    h0 = paddle.static.nn.fc(x[:, 0], 3)
    i = paddle.full([], 0, "int64")

    def outer(i, h):
        j = paddle.full([], 0, "int64")

        def inner(j, g):
            return j + 1, paddle.tanh(cell(paddle.concat([x[:, i], g], 1)))

        _, g = paddle.static.nn.while_loop(lambda j, g: j < 2, inner, [j, h])
        return i + 1, paddle.tanh(mix(g)) + h * 0.5

    _, h = paddle.static.nn.while_loop(lambda i, h: i < 3, outer, [i, h0])
    loss = paddle.mean((paddle.static.nn.fc(h, 1) - y) ** 2)
    paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)
    return loss, 4


@case
def rnn_custom_cell():
    """paddle.nn.RNN over a custom cell (a Layer with its own Linear
    layers and a tanh/sigmoid gate, two states), which static mode writes
    as a while over the time steps with tensor arrays; the last step's
    output into an fc, Adam.  The backward is while_grad over the arrays'
    grads."""

    class Cell(paddle.nn.RNNCellBase):
        def __init__(self):
            super().__init__()
            self.ih, self.hh = paddle.nn.Linear(4, 6), paddle.nn.Linear(3, 6)

        @property
        def state_shape(self):
            return ((3,), (3,))

        def forward(self, x, states):
            h, c = states
            z = self.ih(x) + self.hh(h)
            g, a = paddle.split(z, 2, axis=1)
            c = paddle.nn.functional.sigmoid(g) * c + paddle.tanh(a)
            h = paddle.tanh(c) * 0.5
            return h, (h, c)

    x = paddle.static.data("x", [None, 5, 4], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    out, _ = paddle.nn.RNN(Cell())(x)
    loss = paddle.mean((paddle.static.nn.fc(out[:, -1], 1) - y) ** 2)
    paddle.optimizer.Adam(learning_rate=0.02).minimize(loss)
    return loss, 4


@case
def rnn_cell_masked_reverse():
    """paddle.nn.RNN over paddle.nn.SimpleRNNCell, reversed, with
    sequence_length (each row's steps past its length keep the state:
    the masking ops run inside the loop) into an fc; Momentum."""
    x = paddle.static.data("x", [None, 4, 3], "float32")
    lens = paddle.static.data("lens", [None], "int64")
    y = paddle.static.data("y", [None, 1], "float32")
    _, h = paddle.nn.RNN(paddle.nn.SimpleRNNCell(3, 5), is_reverse=True)(x, sequence_length=lens)
    loss = paddle.mean((paddle.static.nn.fc(h, 1) - y) ** 2)
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    return loss, 4


rnn_cell_masked_reverse.label_classes = 5  # lengths 0 to 4 of the 4 steps


@case
def while_attention_decoder():
    """A decoder written as a while_loop over 3 steps that attends over
    an encoder's outputs (a dense tensor every iteration reads: its grad
    is summed over the iterations) and branches with cond on the step
    (a conditional_block and its grad inside the loop); Adam."""
    x = paddle.static.data("x", [None, 4, 6], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    enc = paddle.tanh(paddle.static.nn.fc(x, 5, num_flatten_dims=2))
    cell = paddle.nn.GRUCell(5, 5)
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 3, "int64")
    h0 = paddle.mean(enc, axis=1)

    def body(i, h):
        score = paddle.nn.functional.softmax(paddle.matmul(enc, h.unsqueeze(2)).squeeze(2), axis=1)
        ctx = paddle.matmul(score.unsqueeze(1), enc).squeeze(1)
        ctx = paddle.static.nn.cond(i < 1, lambda: ctx * 2.0, lambda: paddle.tanh(ctx))
        h, _ = cell(ctx, h)
        return i + 1, h

    _, h = paddle.static.nn.while_loop(lambda i, h: i < n, body, [i, h0])
    loss = paddle.mean((paddle.static.nn.fc(h, 1) - y) ** 2)
    paddle.optimizer.Adam(learning_rate=0.01).minimize(loss)
    return loss, 4


@case
def while_bounded_by_data():
    """A while_loop that stops when its state grows past a threshold or
    after 6 steps (`i < 6 and sum(|h|) < 4`): the data ends it sooner on
    some batches, so while_grad runs the grad block for the iterations the
    run took, not the bound; RMSProp."""
    x = paddle.static.data("x", [None, 3], "float32")
    y = paddle.static.data("y", [None, 1], "float32")
    fc = paddle.nn.Linear(3, 3)
    i = paddle.full([1], 0, "int64")

    def cond(i, h):
        return paddle.logical_and(i < 6, paddle.sum(paddle.abs(h)) < 4.0)

    def body(i, h):
        return i + 1, paddle.tanh(fc(h)) * 1.5 + h * 0.5

    _, h = paddle.static.nn.while_loop(cond, body, [i, paddle.static.nn.fc(x, 3)])
    loss = paddle.mean((paddle.static.nn.fc(h, 1) - y) ** 2)
    paddle.optimizer.RMSProp(learning_rate=0.01).minimize(loss)
    return loss, 2


@case
def rnn_stacked_embedding():
    """Words (an embedding) into two stacked paddle.nn.RNN layers over
    SimpleRNNCell and GRUCell, a classifier on the last state, Adam: the
    second loop's input needs a grad, so its grad block holds slice_grad
    with the time step's start from a tensor (x[:, i] in the loop)."""
    ids = paddle.static.data("ids", [None, 4], "int64")
    y = paddle.static.data("y", [None, 1], "int64")
    x = paddle.nn.Embedding(6, 3)(ids)
    o1, _ = paddle.nn.RNN(paddle.nn.SimpleRNNCell(3, 5))(x)
    _, h = paddle.nn.RNN(paddle.nn.GRUCell(5, 4))(o1)
    loss = paddle.nn.functional.cross_entropy(paddle.static.nn.fc(h, 6), y).mean()
    paddle.optimizer.Adam(learning_rate=0.02).minimize(loss)
    return loss, 4


rnn_stacked_embedding.label_classes = 6  # the words and the classes


@case
def gru_cls():
    """lstm_cls with a bidirectional GRU (both directions' last-step
    outputs, 16 features, into the Linear)."""
    x = paddle.static.data("x", [None, 6, 5], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    out, _ = paddle.nn.GRU(5, 8, direction="bidirect")(x)
    logits = paddle.nn.Linear(16, 3)(out[:, -1, :])
    loss = paddle.nn.functional.cross_entropy(logits, y).mean()
    paddle.optimizer.Adam(learning_rate=1e-2).minimize(loss)
    return loss, 8


gru_cls.label_classes = 3


def _resnet(layout, hw=8):
    """hw: the image's height and width (None: the run's)."""
    F = paddle.nn.functional

    def bn(h):
        return paddle.static.nn.batch_norm(h, data_layout=layout)

    def conv(h, c, k=3, stride=1):
        return paddle.static.nn.conv2d(h, c, k, stride=stride, padding=k // 2, bias_attr=False, data_format=layout)

    def block(h, c, stride):
        out = F.relu(bn(conv(h, c, stride=stride)))
        out = bn(conv(out, c))
        short = h if stride == 1 else bn(conv(h, c, 1, stride))
        return F.relu(paddle.add(out, short))

    x = paddle.static.data("x", [None, 3, hw, hw] if layout == "NCHW" else [None, hw, hw, 3], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    h = F.relu(bn(conv(x, 4)))
    h = block(block(h, 4, 1), 8, 2)
    logits = paddle.static.nn.fc(paddle.flatten(F.adaptive_avg_pool2d(h, 1, data_format=layout), 1), 10)
    loss = paddle.mean(F.cross_entropy(logits, label))
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    return loss, 4


@case
def resnet_block_momentum():
    """A tiny ResNet: a conv + batch_norm + relu stem, a basic block with an
    identity shortcut (conv-bn-relu-conv-bn, + the block's input, relu) and
    one that halves the image with a projection shortcut (a strided 1x1 conv
    + batch_norm, so the residual add joins two batch_norms' outputs), avg
    pool, fc, softmax cross-entropy, Momentum.  The convs have no bias (see
    cnn_bn_momentum).  batch_norm + residual add + relu is the pattern of
    BuildStrategy.fuse_bn_add_act_ops (tests/test_train_strategy.py)."""
    return _resnet("NCHW")


@case
def resnet_run_size():
    """resnet_block_momentum over images of sizes the run gives (--max-shape
    x=-1,3,12,12, data of 8 x 10): the batch_norms' statistics over the
    run's pixels, the strided block's SAME-like padding the run's; with
    fuse_bn_act_ops and fuse_bn_add_act_ops (tests/test_train_strategy.py)
    the fused grads take the run's sizes too."""
    return _resnet("NCHW", None)


run_sized(resnet_run_size, {"x": [-1, 3, 12, 12]}, {"x": [-1, 3, 8, 10]}, 10)


@case
def resnet_block_nhwc():
    """resnet_block_momentum channels-last (NHWC convs, batch_norms and
    pool): the layout Paddle's fuse_bn_add_act_pass asks for."""
    return _resnet("NHWC")


@case
def resnet_linear_f64():
    """float64 (data, parameters, statistics, AdamW's accumulators: Paddle's
    double kernels), with the pattern of every training fusion, for
    tests/test_fuse64.py: a conv + batch_norm + relu stem (fuse_bn_act_ops),
    a basic block whose second batch_norm + residual add + relu is
    fuse_bn_add_act_ops' (the block's first, conv-bn-relu, fuse_bn_act_ops'),
    avg pool, paddle.nn.Linear + relu and + gelu (fuse_gemm_epilogue), an fc
    with tanh (mul + elementwise_add + tanh: fuse_elewise_add_act_ops), an
    fc, square error, AdamW (fuse_adamw); batch 4.  The fusions
    take float32 alone, so they must leave this program as it is."""
    F = paddle.nn.functional
    x = paddle.static.data("x", [None, 3, 6, 6], "float64")
    y = paddle.static.data("y", [None, 1], "float64")

    def bn(h):
        return paddle.static.nn.batch_norm(h)

    def conv(h, c):
        return paddle.static.nn.conv2d(h, c, 3, padding=1, bias_attr=False)

    h = F.relu(bn(conv(x, 4)))
    out = bn(conv(F.relu(bn(conv(h, 4))), 4))
    h = F.relu(paddle.add(out, h))
    h = paddle.flatten(F.adaptive_avg_pool2d(h, 1), 1)
    paddle.set_default_dtype("float64")  # the Linear layers' parameters
    try:
        h = F.relu(paddle.nn.Linear(4, 16)(h))
        h = F.gelu(paddle.nn.Linear(16, 12)(h), approximate=True)
    finally:
        paddle.set_default_dtype("float32")
    h = paddle.static.nn.fc(h, 8, activation="tanh")
    loss = paddle.mean(F.square_error_cost(paddle.static.nn.fc(h, 1), y))
    paddle.optimizer.AdamW(learning_rate=0.01, weight_decay=0.01).minimize(loss)
    return loss, 4


@case
def linear_relu_gelu():
    """paddle.nn.Linear layers (matmul_v2 + elementwise_add, the pattern
    of BuildStrategy.fuse_gemm_epilogue in training) over 3 tokens of 16
    features: 16 -> 128 relu -> 64 gelu (tanh approximation) -> 32 relu,
    mean over tokens, -> 10, cross-entropy, Momentum; batch 8.  The widths
    meet Paddle's training rules where they should: the relu after 128
    columns and the gelu after 64 join their GEMMs (and their grads the next
    layer's), the relu after 32 (not a multiple of 128) does not.
    (transformer_adamw has the exact gelu.)"""
    nn = paddle.nn
    x = paddle.static.data("x", [None, 3, 16], "float32")
    label = paddle.static.data("label", [None, 1], "int64")
    h = nn.functional.relu(nn.Linear(16, 128)(x))
    h = nn.functional.gelu(nn.Linear(128, 64)(h), approximate=True)
    h = nn.functional.relu(nn.Linear(64, 32)(h))
    logits = nn.Linear(32, 10)(paddle.mean(h, axis=1))
    loss = paddle.mean(nn.functional.cross_entropy(logits, label))
    paddle.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
    return loss, 8


@case
def lstm_dropout():
    """A two-layer LSTM with dropout 0.3 between the layers, in training:
    the rnn op draws its mask (DropoutState) from the global generator each
    step, which Paddle's Executor and the trainer seed alike
    (paddle.seed(GLOBAL_SEED) before the first step, the trainer's --seed),
    and rnn_grad passes the gradient down through the same mask."""
    x = paddle.static.data("x", [None, 6, 5], "float32")
    y = paddle.static.data("y", [None, 1], "int64")
    out, _ = paddle.nn.LSTM(5, 8, num_layers=2, dropout=0.3)(x)
    logits = paddle.nn.Linear(8, 3)(out[:, -1, :])
    loss = paddle.nn.functional.cross_entropy(logits, y).mean()
    paddle.optimizer.Adam(learning_rate=1e-2).minimize(loss)
    return loss, 8


lstm_dropout.label_classes = 3
lstm_dropout.seeded_steps = True


def _data(feed, rows, rng, classes=10, fixed=None):
    """Rows of a feed: integer feeds (labels) uniform in [0, classes) (a
    case's `label_classes` attribute, 10 by default), floats standard
    normal; `fixed`: the feed's dims as a case's `shape` fixes them."""
    shape = [rows] + list(fixed[1:] if fixed else feed.shape[1:])
    if "int" in str(feed.dtype):
        return rng.integers(0, classes, size=shape).astype(str(feed.dtype).replace("paddle.", ""))
    return rng.standard_normal(shape).astype(str(feed.dtype).replace("paddle.", ""))


def _persistables(main):
    return sorted((v for v in main.list_vars() if v.persistable and v.name not in ("feed", "fetch")),
                  key=lambda v: v.name.encode())


def _collective(d, main, startup, nrings=1, prefix="collective"):
    """PREFIX_main/startup.pdmodel: copies of main and startup after
    GradAllReduce for rank 0 of 2 (loss@GRAD scaled by 1/2, a c_sync_calc_stream
    and c_allreduce_sum after each parameter gradient's backward op, on ring
    k % nrings for the k-th gradient, a c_sync_comm_stream per ring before
    the optimizer; the startup's parameters c_broadcast from rank 0).
    wait_port=False: nothing is launched."""
    from paddle.distributed.transpiler.collective import GradAllReduce
    main, startup = main.clone(), startup.clone()
    GradAllReduce(nrings=nrings).transpile(startup_program=startup, main_program=main, rank=0,
                                           endpoints=["127.0.0.1:6170", "127.0.0.1:6171"],
                                           current_endpoint="127.0.0.1:6170", wait_port=False)
    if nrings > 1:
        _comm_init(startup, nrings)
    for prog, fname in ((main, prefix + "_main.pdmodel"), (startup, prefix + "_startup.pdmodel")):
        with open(os.path.join(d, fname), "wb") as f:
            f.write(prog.desc.serialize_to_string())


def _comm_init(startup, nrings):
    """Each ring's communicator set-up, before the first c_broadcast: what
    GradAllReduce._init_communicator writes under core.is_compiled_with_cuda()
    (the CPU wheel writes none, and has no c_gen_nccl_id to append with
    append_op, so the ops are written at the desc level, attribute for
    attribute: a RAW persistable nccl_id var, c_gen_nccl_id -> it,
    c_comm_init(X = it) with nranks 2, rank 0, ring_id)."""
    from paddle.base import core
    blk = startup.global_block()
    at = [op.type for op in blk.ops].index("c_broadcast")
    for ring in range(nrings):
        name = "nccl_id_%d" % ring
        var = blk.desc.var(name.encode())
        var.set_type(core.VarDesc.VarType.RAW)
        var.set_persistable(True)
        gen = blk.desc._insert_op(at)
        gen.set_type("c_gen_nccl_id")
        gen.set_output("Out", [name])
        for k, v in (("rank", 0), ("endpoint", "127.0.0.1:6170"), ("other_endpoints", ["127.0.0.1:6171"]),
                     ("ring_id", ring), ("op_role", 0)):
            gen._set_attr(k, v)
        init = blk.desc._insert_op(at + 1)
        init.set_type("c_comm_init")
        init.set_input("X", [name])
        for k, v in (("nranks", 2), ("rank", 0), ("ring_id", ring), ("op_role", 0)):
            init._set_attr(k, v)
        at += 2


def build(out_dir, name):
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    main, startup = paddle.static.Program(), paddle.static.Program()
    # a case marked global_seed draws its initializers from the global generator after paddle.seed(GLOBAL_SEED)
    # (the trainer's --seed); the others from op seeds (program.random_seed)
    global_seed = getattr(CASES[name], "global_seed", False)
    if not global_seed:
        main.random_seed = startup.random_seed = 7
    TEST_PROGRAM.clear()
    with paddle.static.program_guard(main, startup):
        loss, batch, *extra = CASES[name]()
    fetch = [v.name for v in (extra[0] if extra else [])]
    saved = [(main, "main.pdmodel"), (startup, "startup.pdmodel")]
    if "test" in TEST_PROGRAM:
        saved.append((TEST_PROGRAM["test"], "test.pdmodel"))
    for prog, fname in saved:
        with open(os.path.join(d, fname), "wb") as f:
            f.write(prog.desc.serialize_to_string())
    if getattr(CASES[name], "collective", False):
        _collective(d, main, startup)
        _collective(d, main, startup, nrings=2, prefix="collective_rings")
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    feeds = [v for v in main.global_block().vars.values() if v.is_data]
    feeds.sort(key=lambda v: v.name.encode())
    classes = getattr(CASES[name], "label_classes", 10)
    shapes = getattr(CASES[name], "shape", {})  # --shape of feeds with unknown dims
    bounds = getattr(CASES[name], "max_shape", {})  # --max-shape: the data's dims (data_shape) the run's
    data_shapes = {**shapes, **getattr(CASES[name], "data_shape", {})}
    ranges = getattr(CASES[name], "int_range", {})  # an integer feed's own range, else label_classes
    data = {f.name: _data(f, STEPS * batch, rng, ranges.get(f.name, classes), data_shapes.get(f.name)) for f in feeds}
    for k, a in data.items():
        np.save(os.path.join(d, f"{k}.npy"), a)
    lengths = getattr(CASES[name], "lengths", {})  # each batch's size of dim 1 (the data padded to the bound)
    for k, v in lengths.items():
        np.save(os.path.join(d, f"{k}.lengths.npy"), np.array(v, np.int64))
    exe = paddle.static.Executor(paddle.CPUPlace())
    state = _persistables(main)
    with paddle.static.scope_guard(paddle.static.Scope()):
        paddle.seed(GLOBAL_SEED)
        exe.run(startup)
        paddle.static.save_vars(exe, d, main, vars=state, filename="startup.state")
        scope = paddle.static.global_scope()
        for v in state:
            t = scope.find_var(v.name).get_tensor()
            a = np.array(t)
            if a.dtype in (np.float32, np.float64) and v.name in {p.name for p in main.all_parameters()}:
                t.set(rng.uniform(-0.5, 0.5, a.shape).astype(a.dtype), paddle.CPUPlace())
        paddle.static.save(main, os.path.join(d, "init"))
    with open(os.path.join(d, "case.json"), "w") as f:
        # seeded_steps: the training steps draw from the global generator,
        # seeded with `seed` before the first (the trainer's --seed)
        json.dump({"feeds": [f.name for f in feeds], "loss": loss.name, "batch": batch, "steps": STEPS,
                   "seed": GLOBAL_SEED, "seeded_steps": getattr(CASES[name], "seeded_steps", False),
                   "fetch": fetch, "lengths": sorted(lengths),
                   "flags": [a for opt, m in (("--shape", shapes), ("--max-shape", bounds)) for k, s in m.items()
                             for a in (opt, k + "=" + ",".join(map(str, s)))] + getattr(CASES[name], "flags", [])},
                  f, indent=1)
    reference(d)


def _batch(d, meta, name, a, j):
    """Batch j of feed `name`'s data set `a`, cut to its --lengths size."""
    b = meta["batch"]
    rows = a[j * b:(j + 1) * b]
    if name in meta.get("lengths", []):
        rows = rows[:, :int(np.load(os.path.join(d, f"{name}.lengths.npy"))[j])]
    return rows


def reference(d):
    """Paddle's Executor on the saved main program from the init checkpoint."""
    meta = json.load(open(os.path.join(d, "case.json")))
    with open(os.path.join(d, "main.pdmodel"), "rb") as f:
        main = paddle.static.Program.parse_from_string(f.read())
    exe = paddle.static.Executor(paddle.CPUPlace())
    data = {k: np.load(os.path.join(d, f"{k}.npy")) for k in meta["feeds"]}
    fetch = meta.get("fetch", [])
    losses, fetched = [], [[] for _ in fetch]
    with paddle.static.scope_guard(paddle.static.Scope()):
        state = _persistables(main)
        paddle.static.load(main, os.path.join(d, "init"), exe)
        if meta.get("seeded_steps"):
            paddle.seed(meta["seed"])
        for k in range(meta["steps"]):
            feed = {n: _batch(d, meta, n, a, k) for n, a in data.items()}
            out, *more = exe.run(main, feed=feed, fetch_list=[meta["loss"]] + fetch)
            losses.append(np.asarray(out))
            for i, a in enumerate(more):
                fetched[i].append(np.asarray(a))
        scope = paddle.static.global_scope()
        final = {v.name: np.array(scope.find_var(v.name).get_tensor()) for v in state}
    np.save(os.path.join(d, "paddle_loss.npy"), np.stack(losses))
    for i, a in enumerate(fetched):  # a case's extra fetches (its third result), after each step
        np.save(os.path.join(d, f"paddle_fetch_{i}.npy"), np.stack(a))
    np.savez(os.path.join(d, "paddle_final.npz"), **final)


def step_from(d, prefix, k):
    """Paddle's loss at step k of case d, starting from the checkpoint
    PREFIX.pdparams + .pdopt (paddlec's --save): does Paddle go on from where
    paddlec stopped?"""
    meta = json.load(open(os.path.join(d, "case.json")))
    with open(os.path.join(d, "main.pdmodel"), "rb") as f:
        main = paddle.static.Program.parse_from_string(f.read())
    exe = paddle.static.Executor(paddle.CPUPlace())
    b = meta["batch"]
    feed = {}
    for n in meta["feeds"]:
        a = np.load(os.path.join(d, f"{n}.npy"))
        feed[n] = _batch(d, meta, n, a, k % (a.shape[0] // b))
    with paddle.static.scope_guard(paddle.static.Scope()):
        paddle.static.load(main, prefix, exe)
        if meta.get("seeded_steps"):
            paddle.seed(meta["seed"])
        out, = exe.run(main, feed=feed, fetch_list=[meta["loss"]])
    return float(np.asarray(out).reshape(-1)[0])


if __name__ == "__main__":
    paddle.enable_static()
    if sys.argv[1] == "--step-from":
        print(repr(step_from(sys.argv[2], sys.argv[3], int(sys.argv[4]))))
    else:
        for n in sys.argv[2:] or list(CASES):
            build(sys.argv[1], n)
