#!/usr/bin/env python3
"""Programs whose feed has dims only the run gives (issue 19 item 1): image
models exported with InputSpec([None, 3, None, None]) as users export them
(paddle.jit.save of paddle.jit.to_static), compiled with a --max-shape bound
on the feed and run on images of several sizes within it.  Every parameter
and batch_norm statistic is random.  References: Paddle's Executor on the
saved files, one per input size.

    python run_dims_models.py OUTDIR

OUTDIR/<name>/ holds model.pdmodel, model.pdiparams, flags.json (the
compile flags), and for each size k input_k.npy and ref_k_<j>.npy (fetch
j), for each size of the model built with no bound (UNBOUNDED) input_u<k>
and ref_u<k>_<j>; sizes.json lists the sizes."""
import json
import os
import sys

import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F


class Cnn(nn.Layer):
    """conv + bias + batch_norm + relu, max pool, strided conv, adaptive
    average pool to 1, flatten, linear."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2D(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2D(8)
        self.c2 = nn.Conv2D(8, 8, 3, stride=2, padding=1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = F.relu(self.bn(self.c1(x)))
        y = F.max_pool2d(y, 2, 2)
        y = F.relu(self.c2(y))
        return self.fc(paddle.flatten(F.adaptive_avg_pool2d(y, 1), 1))


def conv_bn(cin, cout, k, stride=1, padding=0, groups=1):
    return nn.Sequential(nn.Conv2D(cin, cout, k, stride=stride, padding=padding, groups=groups),
                         nn.BatchNorm2D(cout))


class ResNetish(nn.Layer):
    """A 3x3 stem without padding (sizes below 3 make Paddle fail), an
    identity residual block of 16 channels (Winograd 3x3 convolutions at
    the bound), a downsampling block whose shortcut is a strided 1x1
    convolution beside a strided 3x3 one, a depthwise convolution with a
    squeeze-and-excitation gate (the mean over height and width), a 3x3
    convolution of 128 channels (Winograd tiles of 2 at the bound, kept at
    the smaller sizes, whose own choice would be im2col),
    an average pool with padding, ceil_mode and exclusive=False, an
    adaptive average pool to 2x2; fetches the logits and the feature map
    (whose height and width are the run's)."""

    def __init__(self):
        super().__init__()
        self.stem = conv_bn(3, 16, 3)
        self.a1, self.a2 = conv_bn(16, 16, 3, padding=1), conv_bn(16, 16, 3, padding=1)
        self.b1, self.b2 = conv_bn(16, 32, 3, stride=2, padding=1), conv_bn(32, 32, 3, padding=1)
        self.short = conv_bn(16, 32, 1, stride=2)
        self.dw = conv_bn(32, 32, 3, padding=1, groups=32)
        self.se = nn.Conv2D(32, 32, 1)
        self.wide = conv_bn(32, 128, 1)
        self.wino = conv_bn(128, 128, 3, padding=1)
        self.fc = nn.Linear(128 * 4, 7)

    def forward(self, x):
        y = F.relu(self.stem(x))
        y = F.relu(self.a2(F.relu(self.a1(y))) + y)
        y = F.relu(self.b2(F.relu(self.b1(y))) + self.short(y))
        f = F.relu6(self.dw(y))
        f = f * F.sigmoid(self.se(paddle.mean(f, axis=[2, 3], keepdim=True)))
        p = F.relu(self.wino(F.relu(self.wide(f))))
        p = F.avg_pool2d(p, 3, stride=2, padding=1, ceil_mode=True, exclusive=False)
        p = F.adaptive_avg_pool2d(p, 2)
        return self.fc(paddle.flatten(p, 1)), f


class SegHead(nn.Layer):
    """A segmentation head: a strided convolution, a bilinear upsampling
    by 2 (a scale, align_corners False) and a nearest one by 1.5, a concat
    of two branches of one size along the channels, softmax over the
    classes, their argmax, and the probabilities transposed to NHWC."""

    def __init__(self):
        super().__init__()
        self.down = nn.Conv2D(3, 8, 3, stride=2, padding=1)
        self.side = nn.Conv2D(8, 8, 1)
        self.cls = nn.Conv2D(16, 5, 3, padding=1)

    def forward(self, x):
        y = F.relu(self.down(x))
        y = F.interpolate(y, scale_factor=2, mode="bilinear", align_corners=False)
        y = paddle.concat([y, F.sigmoid(self.side(y))], axis=1)
        y = F.interpolate(self.cls(y), scale_factor=1.5, mode="nearest")
        p = F.softmax(y, axis=1)
        return paddle.transpose(p, [0, 2, 3, 1]), paddle.argmax(y, axis=1)


class UNetish(nn.Layer):
    """Sizes taken from tensors the way segmentation nets write them: the
    decoder resizes to its skip connection's size (size=e1.shape[2:]: the
    program reads it with shape and slice) and concatenates the two; the
    logits go back to the input's size (paddle.shape(x)[2:], cast to
    OutSize).  Any height and width, odd ones too."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2D(3, 8, 3, padding=1)
        self.c2 = nn.Conv2D(8, 16, 3, padding=1)
        self.head = nn.Conv2D(24, 4, 1)

    def forward(self, x):
        e1 = F.relu(self.c1(x))
        e2 = F.relu(self.c2(F.max_pool2d(e1, 2, 2)))
        up = F.interpolate(e2, size=e1.shape[2:], mode="bilinear", align_corners=False)
        y = self.head(paddle.concat([up, e1], axis=1))
        return F.interpolate(F.avg_pool2d(y, 2, 2), size=paddle.shape(x)[2:], mode="bilinear", align_corners=True)


class UNet(nn.Layer):
    """A U-Net as segmentation nets write it: conv + batch_norm + relu, a
    strided convolution down, a 2x2 transposed convolution with stride 2
    back up, concatenated with the skip connection along the channels (two
    maps whose sizes are one only for even heights and widths: Paddle's
    concat stops on odd ones, and so does the run), a 1x1 head and the
    classes' argmax."""

    def __init__(self):
        super().__init__()
        self.enc = conv_bn(3, 8, 3, padding=1)
        self.down = nn.Conv2D(8, 16, 3, stride=2, padding=1)
        self.up = nn.Conv2DTranspose(16, 8, 2, stride=2)
        self.head = nn.Conv2D(16, 4, 1)

    def forward(self, x):
        e = F.relu(self.enc(x))
        u = F.relu(self.up(F.relu(self.down(e))))
        y = self.head(paddle.concat([e, u], axis=1))
        return y, paddle.argmax(y, axis=1)


class UNetSized(UNet):
    """The U-Net with a 3x3 transposed convolution (stride 2, padding 1:
    2h - 1 rows from h) sized to the skip connection (output_size =
    paddle.shape(e)[2:], a tensor of the run's values, within the stride
    Paddle allows): odd heights and widths go too."""

    def __init__(self):
        super().__init__()
        self.up = nn.Conv2DTranspose(16, 8, 3, stride=2, padding=1)

    def forward(self, x):
        e = F.relu(self.enc(x))
        u = F.relu(self.up(F.relu(self.down(e)), output_size=paddle.shape(e)[2:]))
        y = self.head(paddle.concat([e, u], axis=1))
        return y, paddle.argmax(y, axis=1)


class Tokens(nn.Layer):
    """Patches as tokens, the way vision transformers start: a 4x4
    convolution with stride 4, the image's height and width flattened into
    the token axis (flatten(2): a run-time product), the tokens of an 8x8
    patching beside them (concat along the token axis: a run-time sum),
    moved before the channels, the channels' halves swapped (slices of
    the tokens and a concat), layer_norm and an MLP over each token, the
    mean over the tokens, a classifier."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Conv2D(3, 16, 4, stride=4)
        self.coarse = nn.Conv2D(3, 16, 8, stride=8)
        self.norm = nn.LayerNorm(16)
        self.fc1, self.fc2 = nn.Linear(16, 32), nn.Linear(32, 16)
        self.cls = nn.Linear(16, 3)

    def forward(self, x):
        t = paddle.concat([paddle.flatten(self.embed(x), 2), paddle.flatten(self.coarse(x), 2)], axis=2)
        t = t.transpose([0, 2, 1])
        t = paddle.concat([t[:, :, 8:], t[:, :, :8]], axis=2)  # slices off the token axis
        t = t + self.fc2(F.gelu(self.fc1(self.norm(t))))
        return self.cls(t.mean(axis=1))


class Decoder(nn.Layer):
    """Upsampling by transposed convolutions: a strided convolution down,
    then a 4x4 transposed one with stride 2 and padding 1 (twice the size)
    and a 3x3 one with stride 2, padding 1 and output_padding 1, a
    depthwise transposed one (groups = channels) keeping the size."""

    def __init__(self):
        super().__init__()
        self.down = nn.Conv2D(3, 8, 3, stride=2, padding=1)
        self.up1 = nn.Conv2DTranspose(8, 8, 4, stride=2, padding=1)
        self.up2 = nn.Conv2DTranspose(8, 6, 3, stride=2, padding=1, output_padding=1)
        self.dw = nn.Conv2DTranspose(6, 6, 3, padding=1, groups=6)

    def forward(self, x):
        y = F.relu(self.up1(F.relu(self.down(x))))
        return self.dw(F.relu(self.up2(y)))


class Text(nn.Layer):
    """A text encoder over token ids whose length the run gives
    (InputSpec([None, None], "int64")): word embeddings plus position
    embeddings of arange(shape(ids)[1]), a padding mask (ids != 0, cast,
    unsqueezed to [B, 1, 1, L], scaled) added to the attention scores of a
    transformer encoder layer (multi-head attention, layer_norm,
    feed-forward), a learned shift added before it (X [16], Y the tokens),
    then the mean over the tokens and the first token, each through a
    classifier."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 16)
        self.pos = nn.Embedding(32, 16)
        self.enc = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0)
        self.cls = nn.Linear(16, 3)
        self.first = nn.Linear(16, 2)
        self.shift = self.create_parameter([16])

    def forward(self, x):
        pos = paddle.arange(paddle.shape(x)[1]).unsqueeze(0)
        h = self.emb(x) + self.pos(pos)
        mask = (1.0 - (x != 0).astype("float32").unsqueeze([1, 2])) * -1e4
        h = self.shift + self.enc(h, src_mask=mask)  # the run-time extents in Y only
        return self.cls(h.mean(axis=1)), self.first(h[:, 0])


class Bert(nn.Layer):
    """A BERT-style encoder fed three arrays of one length the run gives:
    token ids x, segment ids and an attention mask (1 keep, 0 padding,
    float32), as ERNIE/BERT programs are fed.  Word, segment and position
    embeddings summed (two feeds' extents: the run checks them equal),
    layer_norm, two encoder layers whose scores get the mask
    [B, 1, 1, L] of the third feed, a tanh pooler over the first token
    and a classifier, and the sequence output."""

    def __init__(self):
        super().__init__()
        self.word, self.seg, self.pos = nn.Embedding(40, 16), nn.Embedding(2, 16), nn.Embedding(32, 16)
        self.norm = nn.LayerNorm(16)
        self.enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(16, 4, 32, dropout=0.0), 2)
        self.pool, self.cls = nn.Linear(16, 16), nn.Linear(16, 2)

    def forward(self, x, seg, mask):
        pos = paddle.arange(paddle.shape(x)[1]).unsqueeze(0)
        h = self.norm(self.word(x) + self.seg(seg) + self.pos(pos))
        h = self.enc(h, src_mask=(mask.unsqueeze([1, 2]) - 1.0) * 1e4)
        return self.cls(paddle.tanh(self.pool(h[:, 0]))), h


class Gpt(nn.Layer):
    """A decoder-only language model over ids of the run's length: a causal
    mask paddle.tril(paddle.ones([L, L])) with L = paddle.shape(ids)[1]
    (fill_constant of a shape read from the run, tril_triu), a pre-norm
    encoder layer masked by it, the logits of every token."""

    def __init__(self):
        super().__init__()
        self.emb, self.pos = nn.Embedding(40, 16), nn.Embedding(32, 16)
        self.dec = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, normalize_before=True)
        self.head = nn.Linear(16, 40)

    def forward(self, x):
        n = paddle.shape(x)[1]
        h = self.emb(x) + self.pos(paddle.arange(n).unsqueeze(0))
        causal = paddle.tril(paddle.ones([n, n], "float32"))
        return self.head(self.dec(h, src_mask=(causal - 1.0) * 1e4))


class Rnn(nn.Layer):
    """Recurrent layers over ids of the run's length: embeddings, a
    bidirectional LSTM and a GRU (Paddle's `rnn` op over [T, N, I], the
    time steps the run's), the mean over time and the GRU's last state."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(40, 8)
        self.lstm = nn.LSTM(8, 12, direction="bidirect")
        self.gru = nn.GRU(24, 6)
        self.fc = nn.Linear(6, 3)

    def forward(self, x):
        h, _ = self.lstm(self.emb(x))
        g, last = self.gru(h)
        return self.fc(g.mean(axis=1)), last


class Qkv(nn.Layer):
    """Attention written by hand, as model code often is: one projection
    to queries, keys and values reshaped with sizes read from the run
    (x.reshape([b, n, 3, 2, 8]) with b, n = paddle.shape(x)[0], [1]: a
    ShapeTensor list), transposed and sliced per head, scores, softmax,
    the heads merged back with reshape([b, n, 16])."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(40, 16)
        self.qkv, self.out = nn.Linear(16, 48), nn.Linear(16, 4)

    def forward(self, x):
        b, n = paddle.shape(x)[0], paddle.shape(x)[1]
        qkv = self.qkv(self.emb(x)).reshape([b, n, 3, 2, 8]).transpose([2, 0, 3, 1, 4])
        a = F.softmax(paddle.matmul(qkv[0], qkv[1], transpose_y=True) * 0.35, axis=-1)
        return self.out(paddle.matmul(a, qkv[2]).transpose([0, 2, 1, 3]).reshape([b, n, 16]))


class QkvEinsum(nn.Layer):
    """Attention written with einsum over the run's length: scores
    "bhqd,bhkd->bhqk" (two operands of the run's length), softmax, the
    values "bhqk,bhkd->bqhd" (a transpose in the output term), and a sum
    over the length "bld->bd" beside it."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(40, 16)
        self.q, self.k, self.v, self.out = nn.Linear(16, 16), nn.Linear(16, 16), nn.Linear(16, 16), nn.Linear(16, 4)

    def forward(self, x):
        b, n = paddle.shape(x)[0], paddle.shape(x)[1]
        e = self.emb(x)
        q, k, v = (f(e).reshape([b, n, 2, 8]).transpose([0, 2, 1, 3]) for f in (self.q, self.k, self.v))
        a = F.softmax(paddle.einsum("bhqd,bhkd->bhqk", q, k) * 0.35, axis=-1)
        o = paddle.einsum("bhqk,bhkd->bqhd", a, v).reshape([b, n, 16])
        return self.out(o), paddle.einsum("bld->bd", e)


class VisionOps(nn.Layer):
    """Layers vision nets put between their convolutions, over the run's
    height and width: PReLU per channel and shared, dropout scaling at
    inference (downscale_in_infer), a CBAM-style spatial attention (the max
    and mean over channels kept as maps), a split along channels into
    instance_norm and group_norm, where of the two halves (logical_and and
    logical_not of comparisons), flip, batch_norm and relu (not after a
    convolution: fused_batch_norm_act), cumsum along the width, roll along
    the height and width, the mean map expanded to the run's size
    (expand_as) and subtracted, reflect and constant padding (pad3d), L2
    normalization over channels; fetches the logits, the feature map, its
    sum over the height (the width kept, the run's), a strided slice of
    the image (every other row from the second, columns backwards by 2) and
    the channels of the 3 largest values at each position among 5 gathered
    (gather, top_k), the feature map's channels shuffled into pixels twice
    its height and width (pixel_shuffle), and the map (where isfinite)
    stacked with a full_like of it."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2D(3, 8, 3, padding=1)
        self.act = nn.PReLU(8)
        self.act1 = nn.PReLU()
        self.sa = nn.Conv2D(2, 1, 7, padding=3)
        self.inorm = nn.InstanceNorm2D(4)
        self.gnorm = nn.GroupNorm(2, 4)
        self.bn = nn.BatchNorm2D(8)
        self.c2 = nn.Conv2D(8, 8, 3)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = self.act(self.c1(x))
        y = F.dropout(y, 0.25, training=False, mode="downscale_in_infer")
        att = paddle.concat([paddle.max(y, axis=1, keepdim=True), paddle.mean(y, axis=1, keepdim=True)], axis=1)
        y = y * F.sigmoid(self.sa(att))
        a, b = paddle.split(y, 2, axis=1)
        a, b = self.inorm(a), self.gnorm(b)
        keep = paddle.logical_and(a > 0, paddle.logical_not(b > 0.5))
        y = paddle.concat([paddle.where(keep, a, b), paddle.flip(b, axis=[2])], axis=1)
        y = paddle.cumsum(F.relu(self.bn(y)), axis=3) * 0.2
        y = paddle.roll(y, shifts=[1, -2], axis=[2, 3])
        y = y - paddle.expand_as(paddle.mean(y, axis=[2, 3], keepdim=True), y)
        y = self.c2(F.pad(y, [1, 1, 2, 2], mode="reflect"))
        y = F.pad(F.normalize(self.act1(y), axis=1), [0, 1, 1, 0], value=0.5)
        return (self.fc(paddle.mean(y, axis=[2, 3])), y, paddle.sum(y, axis=2), paddle.tanh(x[:, :, 1::2, ::-2]),
                paddle.topk(paddle.gather(y, paddle.to_tensor([0, 2, 4, 6, 7]), axis=1), 3, axis=1)[1],
                F.pixel_shuffle(y, 2),
                paddle.stack([paddle.where(paddle.isfinite(y), y, paddle.zeros_like(y)), paddle.full_like(y, 0.5)], 2))


class Same(nn.Layer):
    """SAME padding, as models ported from TensorFlow write it: the padding
    follows from the run's size (out = ceil(in / stride), the extra row or
    column at the end): a strided 3x3 convolution, a dilated 5x5 one (SAME
    forces dilation 1, as Paddle's UpdatePaddingAndDilation does), a 1x1
    with stride 2 (no padding), a depthwise 4x4 with stride 3, max pooling
    and average pooling with and without the padding counted."""

    def __init__(self):
        super().__init__()
        self.a = nn.Conv2D(3, 8, 3, stride=2, padding="SAME")
        self.b = nn.Conv2D(8, 8, 5, stride=1, padding="SAME", dilation=2)
        self.c = nn.Conv2D(8, 16, 1, stride=2, padding="SAME")
        self.d = nn.Conv2D(16, 16, 4, stride=3, padding="SAME", groups=16)

    def forward(self, x):
        y = self.b(F.relu(self.a(x)))
        return (F.max_pool2d(y, 3, stride=2, padding="SAME"), F.avg_pool2d(y, 2, stride=2, padding="SAME"),
                F.avg_pool2d(y, 3, stride=2, padding="SAME", exclusive=False), self.d(self.c(y)))


class MoreOps(nn.Layer):
    """Ops along or beside the run's sizes: argsort along the channels,
    sort along the height (a line of the run's length), cummax / cummin,
    cumprod, logsumexp over the channels and over height and width, mode
    and kthvalue over the channels, kthvalue along the height, maxout, label_smooth over the channels
    moved last, a bool mask cast to float (several run-time dims), unbind
    along the channels, and index_select of channels and of rows (the
    indices checked against the run's height)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1)

    def forward(self, x):
        y = self.conv(x)
        return (paddle.argsort(y, axis=1).astype("float32") + paddle.sort(y, axis=2),
                paddle.cummax(y, axis=1)[0] + paddle.cummin(y, axis=3)[0] + paddle.cumprod(paddle.tanh(y), dim=1),
                paddle.logsumexp(y, axis=1, keepdim=True) + paddle.logsumexp(y, axis=[2, 3], keepdim=True),
                paddle.logsumexp(y, axis=1),
                paddle.mode(paddle.round(y * 2), axis=1)[0] + paddle.kthvalue(y, 3, axis=1)[0],
                F.maxout(y, 2, axis=1), F.label_smooth(F.softmax(y, 1).transpose([0, 2, 3, 1]), epsilon=0.1),
                (y > 0).astype("float32"), paddle.unbind(y, axis=1)[2],
                paddle.index_select(paddle.index_select(y, paddle.to_tensor([5, 0, 2]), axis=1),
                                    paddle.to_tensor([2, 0, 1]), axis=2),
                paddle.kthvalue(y, 2, axis=2)[0])


class MoreVision(nn.Layer):
    """More ops over the run's height and width: channel_shuffle (NCHW and
    NHWC), a channel-last convolution with SAME padding, stride 2, bias and
    relu, channel-last max (ceil_mode) and average pooling, max pooling
    returning its mask, adaptive max pooling, arg_max over the channels
    and along the height, arg_min along the width, tile and
    repeat_interleave along the width, temporal_shift of two frames (the
    batch doubled by a concat), and anchor centres from meshgrid over
    aranges of the feature map's height and width."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1)
        self.nhwc = nn.Conv2D(8, 6, 3, stride=2, padding="SAME", data_format="NHWC")

    def forward(self, x):
        y = F.channel_shuffle(self.conv(x), 2)
        t = F.relu(self.nhwc(F.channel_shuffle(y.transpose([0, 2, 3, 1]), 4, data_format="NHWC")))
        t = F.max_pool2d(t, 2, 2, ceil_mode=True, data_format="NHWC") + \
            F.avg_pool2d(t, 3, 1, padding=1, data_format="NHWC").mean(axis=[1, 2], keepdim=True)
        p, mask = F.max_pool2d(y, 3, 2, padding=1, return_mask=True)
        arg = paddle.argmax(y, axis=1, keepdim=True).astype("float32") + \
            paddle.argmax(y, axis=2, keepdim=True).astype("float32") + \
            paddle.argmin(y, axis=3, keepdim=True).astype("float32")
        rep = paddle.tile(y[:, :2], [1, 2, 1, 2]) + paddle.repeat_interleave(y[:, 4:], 2, axis=3)
        shift = F.temporal_shift(paddle.concat([y, y * 2]), seg_num=2, shift_ratio=0.25)
        h, w = paddle.shape(y)[2], paddle.shape(y)[3]
        grid = paddle.meshgrid(paddle.arange(h).astype("float32"), paddle.arange(w).astype("float32"))
        anchors = paddle.stack(grid, -1).reshape([-1, 2]) * 8 + 4
        return (t, p + mask.astype("float32") * 0.01, F.adaptive_max_pool2d(y, [2, 3]), arg, rep, shift, anchors)


class Gathers(nn.Layer):
    """Gathers and scatters over the run's height and width:
    take_along_axis and put_along_axis along the height at each column's
    argmax (their Index broadcast by an expand_v2 that keeps the run's
    sizes), gather_nd of two channel planes of the first image, and
    unfold (im2col) with padding, and with strides, dilations and uneven
    padding, and a Gram matrix of y.reshape([b, c, h * w])."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1)

    def forward(self, x):
        y = self.conv(x)
        idx = paddle.argmax(y, axis=2, keepdim=True)
        return (paddle.take_along_axis(y, idx, axis=2),
                paddle.put_along_axis(y, idx, y[:, :, :1] * 0 + 5.0, axis=2),
                paddle.gather_nd(y, paddle.to_tensor([[0, 1], [0, 3]])),
                F.unfold(y, [3, 3], paddings=1),
                F.unfold(y, [2, 3], strides=[2, 1], paddings=[1, 2, 0, 1], dilations=[1, 2]),
                self.gram(y))

    @staticmethod
    def gram(y):
        b, c, h, w = paddle.shape(y)[0], paddle.shape(y)[1], paddle.shape(y)[2], paddle.shape(y)[3]
        f = y.reshape([b, c, h * w])  # an entry that is a product of the run's sizes
        return paddle.matmul(f, f, transpose_y=True) / 100.0


class Stn(nn.Layer):
    """A spatial transformer over the run's sizes: theta from pooled
    features, affine_grid(theta, paddle.shape(y)) (an OutputShape the run
    gives), grid_sample of y on it added back to y; and a flow field from a
    convolution (a Grid of the run's sizes) sampled nearest with border
    padding."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1)
        self.theta = nn.Linear(4, 6)
        self.flow = nn.Conv2D(4, 2, 3, padding=1)

    def forward(self, x):
        y = F.relu(self.conv(x))
        t = self.theta(paddle.flatten(F.adaptive_avg_pool2d(y, 1), 1)) * 0.3
        t = t.reshape([-1, 2, 3]) + paddle.to_tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
        warped = F.grid_sample(y, F.affine_grid(t, paddle.shape(y), align_corners=False), align_corners=False)
        flow = paddle.tanh(self.flow(y)).transpose([0, 2, 3, 1])
        return warped + y, F.grid_sample(y, flow, mode="nearest", padding_mode="border")


class YoloV3Head(nn.Layer):
    """A YOLOv3 head over two levels of the run's sizes: yolo_box on each
    (one with iou_aware, clipping to an image size computed in the graph),
    the levels' boxes and scores concatenated, and matrix_nms over them (as
    many boxes as the run's maps give)."""

    def __init__(self):
        super().__init__()
        self.l1 = nn.Conv2D(3, 2 * (5 + 3), 3, stride=2, padding=1)
        self.down = nn.Conv2D(3, 8, 3, stride=4, padding=1)
        self.l2 = nn.Conv2D(8, 3 * (6 + 3), 1)

    def forward(self, x):
        img = (paddle.ones_like(x[:, :2, 0, 0]) * 64).astype("int32")
        b1, s1 = paddle.vision.ops.yolo_box(self.l1(x), img, [4, 6, 10, 8], 3, 0.2, 2, scale_x_y=1.05)
        b2, s2 = paddle.vision.ops.yolo_box(self.l2(F.relu(self.down(x))), img, [12, 10, 20, 24, 30, 16], 3, 0.2, 4,
                                            clip_bbox=False, iou_aware=True, iou_aware_factor=0.4)
        boxes, scores = paddle.concat([b1, b2], 1), paddle.concat([s1, s2], 1)
        out, num, index = paddle.vision.ops.matrix_nms(boxes, scores.transpose([0, 2, 1]), 0.25, 0.2, 30, 12,
                                                       use_gaussian=True, background_label=-1, return_index=True)
        return boxes, scores, out, num, index


class YoloeHead(nn.Layer):
    """A PP-YOLOE-style anchor-free head over two levels of the run's
    sizes: anchor points from meshgrid over aranges of each level's height
    and width, the strides from paddle.full([h * w, 1], stride) (a shape
    that is a product of the run's sizes), the levels' predictions
    flattened and concatenated, distances decoded into boxes around the
    points, sigmoid class scores; and the second level resized to twice its
    run sizes (an OutSize of shape * 2) and to [h * 2, w * 3] (SizeTensor)."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2D(3, 8, 3, stride=2, padding=1)
        self.down = nn.Conv2D(8, 8, 3, stride=2, padding=1)
        self.reg = nn.Conv2D(8, 4, 1)
        self.cls = nn.Conv2D(8, 3, 1)

    def forward(self, x):
        p1 = F.relu(self.stem(x))
        p2 = F.relu(self.down(p1))
        points, strides, regs, clss = [], [], [], []
        for stride, f in ((2, p1), (4, p2)):
            h, w = paddle.shape(f)[2], paddle.shape(f)[3]
            sy, sx = paddle.meshgrid(paddle.arange(end=h).astype("float32") + 0.5,
                                     paddle.arange(end=w).astype("float32") + 0.5)
            points.append(paddle.stack([sx, sy], -1).reshape([-1, 2]) * stride)
            strides.append(paddle.full([h * w, 1], stride, "float32"))
            regs.append(self.reg(f).flatten(2))
            clss.append(self.cls(f).flatten(2))
        anchors, stride_t = paddle.concat(points), paddle.concat(strides)
        dist = F.softplus(paddle.concat(regs, 2).transpose([0, 2, 1])) * stride_t
        boxes = paddle.concat([anchors - dist[:, :, :2], anchors + dist[:, :, 2:]], -1)
        h2, w2 = paddle.shape(p2)[2], paddle.shape(p2)[3]
        up = F.interpolate(p2, size=paddle.shape(p2)[2:] * 2, mode="bilinear")  # OutSize: products of the run's
        up3 = F.interpolate(p2, size=[h2 * 2, w2 * 3], mode="nearest")  # SizeTensor
        return boxes, F.sigmoid(paddle.concat(clss, 2)), up, up3


class TokenMaps(nn.Layer):
    """Tokens made back into feature maps, as vision transformers' decoders
    and attention blocks write it: a map's tokens [b, h * w, c] attend to
    the keys and values of its pooled 4 x 4 map (SegFormer's reduced
    attention), then o.transpose([0, 2, 1]).reshape([b, 8, h, w]) with b,
    h, w read by paddle.shape (a target shape of another tensor's sizes the
    run gives), projected and added back to the map; and a spatial softmax
    over y.reshape([b, c, h * w]) made back with reshape([b, -1, h, w])."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1)
        self.q = nn.Linear(8, 8)
        self.kv = nn.Linear(8, 16)
        self.proj = nn.Conv2D(8, 8, 1)

    def forward(self, x):
        y = F.relu(self.conv(x))
        s = paddle.shape(y)
        b, c, h, w = s[0], s[1], s[2], s[3]
        t = y.flatten(2).transpose([0, 2, 1])
        kv = self.kv(F.adaptive_avg_pool2d(y, 4).flatten(2).transpose([0, 2, 1]))
        a = F.softmax(paddle.matmul(self.q(t), kv[:, :, :8], transpose_y=True) * 0.35, -1)
        back = paddle.matmul(a, kv[:, :, 8:]).transpose([0, 2, 1]).reshape([b, 8, h, w])
        g = F.softmax(y.reshape([b, c, h * w]), -1).reshape([b, -1, h, w])
        return y + self.proj(back), g * 10.0


class FlatFc(nn.Layer):
    """A map flattened into a Linear made for one size (AlexNet's
    classifier, GoogLeNet's auxiliary heads): a stride-2 conv and a 2x2 max
    pool to 4 x 4, flatten, Linear(8 * 4 * 4): exported with any height
    and width, it runs on the sizes that pool to 4 x 4 (15 or 16) and
    Paddle's matmul stops on the others."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, stride=2, padding=1)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        return self.fc(F.max_pool2d(F.relu(self.conv(x)), 2).flatten(1))


class TextCuts(nn.Layer):
    """Slices of a sequence of the run's length whose cut moves with it:
    the last token (x[:, -1], a classifier's), the steps' differences
    (x[:, 1:] - x[:, :-1], two extents checked against each other), the
    last three tokens, the third token, and the inner ones."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(40, 8)
        self.fc = nn.Linear(8, 4)

    def forward(self, ids):
        x = self.emb(ids)
        return self.fc(x[:, -1]), (x[:, 1:] - x[:, :-1]).mean(axis=1), x[:, -3:], x[:, 2], x[:, 1:-1].sum(axis=1)


class TextSelect(nn.Layer):
    """Ops that size their outputs by the data over ids of the run's length:
    one_hot (the ids' counts per class), nonzero, masked_select of the
    embeddings, sorted unique with its inverse and counts, unique_consecutive."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(40, 4)

    def forward(self, ids):
        x = self.emb(ids)
        u, inv, cnt = paddle.unique(ids, return_inverse=True, return_counts=True)
        return (F.one_hot(ids, 40).sum(1), paddle.nonzero(ids > 20), paddle.masked_select(x, x > 0), u, inv, cnt,
                paddle.unique_consecutive(ids))


class TopkHw(nn.Layer):
    """The 3 strongest positions of each channel of a map of the run's size
    (topk along h * w, a run-time axis, with a fixed k), their values and
    indices, and the mean of the values."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1)

    def forward(self, x):
        v, i = paddle.topk(self.conv(x).flatten(2), 3, axis=-1)
        return v, i, v.mean(axis=-1)


class TextResize(nn.Layer):
    """1-D resizes of a sequence of the run's length ([b, c, L] after a
    Conv1D, as TTS and audio models upsample): linear by 2, linear with
    align_corners by 1.5, to a fixed 20, channel last (NWC) by 3, and a
    half-length pooled sequence back to the sequence's length
    (size=paddle.shape(y)[2:]); and layer_norm over all of [c, L]
    (F.layer_norm(y, y.shape[1:]): normalized dims of the run's length)."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(40, 8)
        self.conv = nn.Conv1D(8, 6, 3, padding=1)

    def forward(self, ids):
        y = self.conv(self.emb(ids).transpose([0, 2, 1]))
        back = F.interpolate(F.avg_pool1d(y, 2, ceil_mode=True), size=paddle.shape(y)[2:], mode="linear",
                             data_format="NCW")
        return (F.interpolate(y, scale_factor=2, mode="linear", data_format="NCW"),
                F.interpolate(y, scale_factor=1.5, mode="linear", align_corners=True, data_format="NCW"),
                F.interpolate(y, size=[20], mode="linear", data_format="NCW"),
                F.interpolate(y.transpose([0, 2, 1]), scale_factor=3, mode="linear", data_format="NWC"),
                back - y, F.layer_norm(y, y.shape[1:]))


class ResizeNhwc(nn.Layer):
    """Channel-last (NHWC) 2-D resizes of a map of the run's size: bilinear
    by 2, nearest to a fixed 7 x 5, bicubic by 1.5 x 2, and a pooled map
    back to the map's size (size=paddle.shape(t)[1:3])."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1)

    def forward(self, x):
        t = self.conv(x).transpose([0, 2, 3, 1])
        back = F.interpolate(F.max_pool2d(t, 2, ceil_mode=True, data_format="NHWC"), size=paddle.shape(t)[1:3],
                             mode="bilinear", data_format="NHWC")
        return (F.interpolate(t, scale_factor=2, mode="bilinear", data_format="NHWC"),
                F.interpolate(t, size=[7, 5], mode="nearest", data_format="NHWC"),
                F.interpolate(t, scale_factor=[1.5, 2], mode="bicubic", data_format="NHWC"), back - t)


class SwinBlock(nn.Layer):
    """A shifted-window attention block as Swin backbones for detection and
    segmentation write it for maps of any size: the map padded to whole
    4 x 4 windows by F.pad with paddings (4 - W % 4) % 4 computed from its
    shape (pad3d's Paddings a tensor), rolled by 2, the attention mask
    built on paddle.zeros([1, Hp, Wp, 1]) by slice assignments (set_value
    over the run's sizes), windows partitioned and reversed with reshapes
    to [B, Hp // 4, 4, Wp // 4, 4, C] (floordiv of the run's sizes),
    multi-head attention with a relative position bias, rolled back, cut
    to [:, :H, :W] and added to the block's input, then an MLP.  (Written with
    paddle.static.setitem: Paddle 2.6's to_static turns `img[...] = k`
    into set_value ops whose result the later ops do not read, a mask of
    zeros, measured.)"""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1)
        self.ln = nn.LayerNorm(8)
        self.qkv = nn.Linear(8, 24)
        self.proj = nn.Linear(8, 8)
        self.bias = self.create_parameter([2, 16, 16])
        self.ln2 = nn.LayerNorm(8)
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 8)

    @staticmethod
    def partition(x):
        b, h, w, c = x.shape
        return x.reshape([b, h // 4, 4, w // 4, 4, c]).transpose([0, 1, 3, 2, 4, 5]).reshape([-1, 16, c])

    def forward(self, x):
        y = self.conv(x)
        b, c, h, w = y.shape
        t = y.transpose([0, 2, 3, 1])
        shortcut = t
        pad_r, pad_b = (4 - w % 4) % 4, (4 - h % 4) % 4
        pads = paddle.stack([pad_r * 0, pad_r, pad_b * 0, pad_b]).reshape([-1])
        t = F.pad(self.ln(t).transpose([0, 3, 1, 2]), pads).transpose([0, 2, 3, 1])
        hp, wp = t.shape[1], t.shape[2]
        t = paddle.roll(t, shifts=(-2, -2), axis=(1, 2))
        img = paddle.zeros([1, hp, wp, 1])
        cnt = 0
        for hs in (slice(0, -4), slice(-4, -2), slice(-2, None)):
            for ws in (slice(0, -4), slice(-4, -2), slice(-2, None)):
                img = paddle.static.setitem(img, (slice(None), hs, ws, slice(None)), float(cnt))
                cnt += 1
        mw = self.partition(img).reshape([-1, 16])
        mask = mw.unsqueeze(1) - mw.unsqueeze(2)
        mask = paddle.where(mask != 0, paddle.full_like(mask, -100.0), paddle.zeros_like(mask))
        qkv = self.qkv(self.partition(t)).reshape([-1, 16, 3, 2, 4]).transpose([2, 0, 3, 1, 4])
        a = paddle.matmul(qkv[0] * 0.5, qkv[1], transpose_y=True) + self.bias.unsqueeze(0)
        a = a.reshape([-1, mask.shape[0], 2, 16, 16]) + mask.unsqueeze(1).unsqueeze(0)
        o = paddle.matmul(F.softmax(a.reshape([-1, 2, 16, 16]), -1), qkv[2])
        o = self.proj(o.transpose([0, 2, 1, 3]).reshape([-1, 16, 8]))
        t = o.reshape([b, hp // 4, wp // 4, 4, 4, 8]).transpose([0, 1, 3, 2, 4, 5]).reshape([b, hp, wp, 8])
        t = shortcut + paddle.roll(t, shifts=(2, 2), axis=(1, 2))[:, :h, :w, :]
        t = t + self.fc2(F.gelu(self.fc1(self.ln2(t))))
        return t.transpose([0, 3, 1, 2])


class VitSized(nn.Layer):
    """A ViT whose position embeddings (a 3 x 3 grid) are resized to the
    run's patch grid, F.interpolate(pos, size=[h // 4, w // 4],
    mode="bicubic") with h, w read from the image's shape (floordiv of the
    run's sizes), added to the 4 x 4 patches (a stride-4 conv: a grid of
    another extent, checked equal by the run), flattened to tokens behind
    a class token, through a transformer encoder layer."""

    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2D(3, 8, 4, stride=4)
        self.pos = self.create_parameter([1, 8, 3, 3])
        self.cls = self.create_parameter([1, 1, 8])
        self.enc = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)

    def forward(self, x):
        h, w = x.shape[2], x.shape[3]
        pos = F.interpolate(self.pos, size=[h // 4, w // 4], mode="bicubic", align_corners=False)
        t = (self.patch(x) + pos).flatten(2).transpose([0, 2, 1])
        return self.enc(paddle.concat([self.cls.expand([t.shape[0], 1, 8]), t], 1))


class ConvNextDetr(nn.Layer):
    """A ConvNeXt block (a 7 x 7 depthwise conv, LayerNorm and Linear
    layers over the channels of the channel-last map: a GEMM over rows
    of the run's height times width) plus DETR's sine position embedding
    of the map (cumsum of paddle.ones([b, h, w]) along each axis, divided
    by its last row or column, x[:, -1:, :]: a cut that moves with the
    run's size and keeps one element; sin and cos of every other channel,
    x[..., 0::2]); and the map's total variation, y[:, :, 1:] - y[:, :, :-1]
    (cuts that move with the run's height beside its width), and its last
    two rows without the first and last column."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1)
        self.dw = nn.Conv2D(8, 8, 7, padding=3, groups=8)
        self.ln = nn.LayerNorm(8)
        self.fc1 = nn.Linear(8, 16)
        self.fc2 = nn.Linear(16, 8)

    def forward(self, x):
        y = self.conv(x)
        t = self.fc2(F.gelu(self.fc1(self.ln(self.dw(y).transpose([0, 2, 3, 1])))))
        y = y + t.transpose([0, 3, 1, 2])
        b, c, h, w = y.shape
        mask = paddle.ones([b, h, w])
        ye, xe = mask.cumsum(1), mask.cumsum(2)
        ye = ye / (ye[:, -1:, :] + 1e-6) * 6.283185307179586
        xe = xe / (xe[:, :, -1:] + 1e-6) * 6.283185307179586
        dt = 10000 ** (2 * (paddle.arange(4, dtype="float32") // 2) / 4)
        px, py = xe.unsqueeze(-1) / dt, ye.unsqueeze(-1) / dt
        px = paddle.stack([px[:, :, :, 0::2].sin(), px[:, :, :, 1::2].cos()], 4).flatten(3)
        py = paddle.stack([py[:, :, :, 0::2].sin(), py[:, :, :, 1::2].cos()], 4).flatten(3)
        tv = (y[:, :, 1:] - y[:, :, :-1]).abs().mean(axis=[2, 3]) + (y[:, :, :, 1:] - y[:, :, :, :-1]).abs().mean(axis=[2, 3])
        return y + paddle.concat([py, px], 3).transpose([0, 3, 1, 2]), tv, y[:, :, -2:, 1:-1] * 2



class SegNetBits(nn.Layer):
    """A SegNet decoder step on a map of the run's size: max pooling with
    its indices, a conv, max_unpool2d back to the encoder's map
    (output_size=y.shape[2:], tensors under to_static), paddle.lerp of the
    two maps by a per-channel weight and by a gate of the map's size, and a
    histogram of the result."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1)
        self.mid = nn.Conv2D(4, 4, 3, padding=1)
        self.w = self.create_parameter([1, 4, 1, 1])

    def forward(self, x):
        y = self.conv(x)
        p, i = F.max_pool2d(y, 2, return_mask=True)
        up = F.max_unpool2d(self.mid(p), i, 2, output_size=y.shape[2:])
        z = paddle.lerp(y, up, F.sigmoid(self.w))
        return z, paddle.histogram(z, bins=6, min=-2, max=2), paddle.lerp(y, up, F.sigmoid(y[:, :1]))


class LengthRegulator(nn.Layer):
    """A TTS length regulator (FastSpeech): each token's hidden state
    repeated by its predicted duration, paddle.repeat_interleave(h[0],
    dur[0], axis=0) over a sequence of the run's length, the durations
    (0 to 3) computed from the states: Out's length is their sum, read by
    the run within a --max-shape bound on it."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(40, 8)
        self.conv = nn.Conv1D(8, 8, 3, padding=1)
        self.dur = nn.Linear(8, 1)
        self.out = nn.Linear(8, 4)

    def forward(self, ids):
        h = self.conv(self.emb(ids).transpose([0, 2, 1])).transpose([0, 2, 1])
        dur = (F.sigmoid(self.dur(h)[:, :, 0] * 4) * 3.99).astype("int64")
        return self.out(paddle.repeat_interleave(h[0], dur[0], axis=0)), dur


class Video3d(nn.Layer):
    """A small video net over clips of the run's frames, height and width
    ([b, 3, t, h, w]): conv3d + batch_norm + relu, max_pool3d over space,
    a strided conv3d with SAME padding, a grouped conv3d with uneven
    paddings, avg_pool3d with SAME padding, conv3d_transpose back up
    (channel first and channel last), the frames folded into the batch
    (reshape to [-1, c, h, w] with h, w read from the map's shape, as
    temporal-shift nets write it) for a conv2d, a global
    adaptive_avg_pool3d into a Linear, and trilinear resizes (back to the
    pooled map's size, size=y.shape[2:], and by scales)."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv3D(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm3D(8)
        self.down = nn.Conv3D(8, 8, (3, 2, 4), stride=2, padding="same")
        self.grouped = nn.Conv3D(8, 8, 3, padding=[1, 1, 0, 2, 1, 0], groups=4)
        self.up = nn.Conv3DTranspose(8, 4, (2, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1), output_padding=(0, 1, 1))
        self.up_last = nn.Conv3DTranspose(8, 4, 2, stride=2, data_format="NDHWC")
        self.frame = nn.Conv2D(8, 4, 3, padding=1)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        y = F.relu(self.bn(self.stem(x)))
        y = F.max_pool3d(y, (1, 2, 2), (1, 2, 2))
        z = F.avg_pool3d(self.grouped(F.relu(self.down(y))), (2, 3, 2), (1, 2, 1), padding="SAME")
        frames = y.transpose([0, 2, 1, 3, 4]).reshape([-1, 8, y.shape[3], y.shape[4]])
        logits = self.fc(F.adaptive_avg_pool3d(z, 1).flatten(1))
        back = F.interpolate(z, size=y.shape[2:], mode="trilinear", data_format="NCDHW")
        wide = F.interpolate(z, scale_factor=[1, 2, 1.5], mode="trilinear", align_corners=True, data_format="NCDHW")
        return logits, self.up(y), self.up_last(y.transpose([0, 2, 3, 4, 1])), self.frame(frames), back, wide


class TextDiag(nn.Layer):
    """Diagonals over a sequence of the run's length: of its
    self-similarity [b, L, L] (paddle.diagonal, the main one and one below
    it with the axes swapped), of a [b, 8, 8, L] product along 8 and L
    (min(8, L) long), and paddle.diag_embed of the features above the
    main diagonal ([b, 8, L + 1, L + 1])."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(40, 8)
        self.conv = nn.Conv1D(8, 8, 3, padding=1)

    def forward(self, ids):
        y = self.conv(self.emb(ids).transpose([0, 2, 1]))
        s = paddle.matmul(y, y, transpose_x=True)
        g = paddle.matmul(y, y, transpose_y=True).unsqueeze(3) * y.unsqueeze(1)
        return (paddle.diagonal(s, axis1=1, axis2=2), paddle.diagonal(s, offset=-2, axis1=2, axis2=1),
                paddle.diagonal(g, axis1=1, axis2=3), paddle.diag_embed(y, offset=1))


class ShapeArith(nn.Layer):
    """Sizes computed from the run's height and width with the arithmetic
    model code uses besides + - * // %: paddle.clip and paddle.minimum of
    a size as a slice's end, paddle.maximum(8 - w, 0) and paddle.abs(h -
    w) as F.pad's paddings (pad up to 8, pad by the difference), and
    floor / ceil / truncation of a float division (h / 2, written as in
    Python) as slice bounds."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 4, 3, padding=1)

    def forward(self, x):
        y = self.conv(x)
        h, w = paddle.shape(y)[2], paddle.shape(y)[3]
        z = paddle.zeros([1], "int32")
        clipped = y[:, :, :paddle.clip(h - 2, 1, 6), :paddle.minimum(w, paddle.full([1], 5, "int32"))]
        padded = F.pad(y, paddle.concat([z, paddle.maximum(8 - w, z), z, paddle.abs(h - w).reshape([1])]))
        rounded = y[:, :, paddle.floor(h / 4).astype("int32"):, :paddle.ceil(w / 3).astype("int32")]
        halves = y[:, :, :(h / 2).astype("int32") + 1, (w / 2).astype("int32"):]
        return clipped, padded, rounded, halves


def MobileNetV3():
    """paddle.vision's MobileNetV3-Small (a half-width one): squeeze-and-
    excite blocks multiply each map by its [b, c, 1, 1] gates, hardswish."""
    return paddle.vision.models.mobilenet_v3_small(scale=0.5, num_classes=10)


def SqueezeNet():
    """paddle.vision's SqueezeNet 1.0: fire modules (a 1x1 squeeze, then
    1x1 and 3x3 expands concatenated), ceil-mode max pools, a conv
    classifier averaged to [b, classes]."""
    return paddle.vision.models.squeezenet1_0(num_classes=10)


MODELS = {
    "cnn": (Cnn, [2, 3, 32, 32], [[2, 3, 32, 32], [1, 3, 17, 23], [2, 3, 5, 9], [1, 3, 1, 2]]),
    "resnetish": (ResNetish, [2, 3, 32, 32], [[2, 3, 32, 32], [1, 3, 19, 27], [2, 3, 7, 6], [1, 3, 3, 3]]),
    "unetish": (UNetish, [2, 3, 32, 32], [[2, 3, 32, 32], [1, 3, 17, 23], [2, 3, 5, 4], [1, 3, 2, 3]]),
    "unet": (UNet, [2, 3, 32, 32], [[2, 3, 32, 32], [1, 3, 18, 24], [2, 3, 6, 4], [1, 3, 2, 2]]),
    "tokens": (Tokens, [2, 3, 32, 32], [[2, 3, 32, 32], [1, 3, 17, 23], [2, 3, 8, 9], [1, 3, 8, 8]]),
    "decoder": (Decoder, [2, 3, 16, 16], [[2, 3, 16, 16], [1, 3, 9, 14], [2, 3, 3, 2], [1, 3, 1, 1]]),
    "seghead": (SegHead, [2, 3, 24, 24], [[2, 3, 24, 24], [1, 3, 13, 19], [2, 3, 5, 2], [1, 3, 1, 1]]),
    "text": (Text, [2, 16], [[2, 16], [1, 7], [2, 11], [2, 1]]),
    "text_unfused": (Text, [2, 16], [[2, 16], [1, 9], [2, 3], [1, 1]]),
    "bert": (Bert, [2, 16], [[2, 16], [1, 5], [2, 12], [1, 1]]),
    "bert_unfused": (Bert, [2, 16], [[2, 16], [2, 7], [1, 3], [2, 1]]),
    "gpt": (Gpt, [2, 16], [[2, 16], [1, 6], [2, 13], [1, 1]]),
    "gpt_unfused": (Gpt, [2, 16], [[2, 16], [2, 4], [1, 11], [2, 1]]),
    "rnn": (Rnn, [2, 10], [[2, 10], [1, 4], [2, 1], [1, 7]]),
    "qkv": (Qkv, [2, 12], [[2, 12], [1, 5], [2, 1], [3, 9]]),
    "qkv_einsum": (QkvEinsum, [2, 12], [[2, 12], [1, 5], [2, 1], [3, 9]]),
    "visionops": (VisionOps, [2, 3, 24, 24], [[2, 3, 24, 24], [1, 3, 13, 19], [2, 3, 5, 7], [1, 3, 3, 2]]),
    "same": (Same, [2, 3, 24, 24], [[2, 3, 24, 24], [1, 3, 17, 23], [2, 3, 6, 7], [1, 3, 1, 1]]),
    "moreops": (MoreOps, [2, 3, 16, 16], [[2, 3, 16, 16], [1, 3, 9, 13], [2, 3, 3, 5]]),
    "morevision": (MoreVision, [2, 3, 24, 24], [[2, 3, 24, 24], [1, 3, 13, 19], [2, 3, 5, 7], [1, 3, 3, 2]]),
    "gathers": (Gathers, [2, 3, 24, 24], [[2, 3, 24, 24], [1, 3, 13, 19], [2, 3, 5, 7], [1, 3, 1, 2]]),
    "stn": (Stn, [2, 3, 24, 24], [[2, 3, 24, 24], [1, 3, 13, 19], [2, 3, 5, 7], [1, 3, 1, 2]]),
    "yolov3head": (YoloV3Head, [2, 3, 32, 32], [[2, 3, 32, 32], [1, 3, 17, 23], [2, 3, 5, 7], [1, 3, 1, 2]]),
    "yoloehead": (YoloeHead, [2, 3, 32, 32], [[2, 3, 32, 32], [1, 3, 17, 23], [2, 3, 5, 7], [1, 3, 1, 2]]),
    "tokenmaps": (TokenMaps, [2, 3, 24, 24], [[2, 3, 24, 24], [1, 3, 13, 19], [2, 3, 5, 7], [1, 3, 1, 2]]),
    "unet_sized": (UNetSized, [2, 3, 32, 32], [[2, 3, 32, 32], [1, 3, 17, 23], [2, 3, 6, 5], [1, 3, 1, 2]]),
    "text_cuts": (TextCuts, [2, 16], [[2, 16], [1, 3], [2, 9]]),
    "text_select": (TextSelect, [2, 16], [[2, 16], [1, 3], [2, 9]]),
    "topk_hw": (TopkHw, [2, 3, 16, 16], [[2, 3, 16, 16], [1, 3, 5, 7], [2, 3, 1, 3]]),
    "flatfc": (FlatFc, [2, 3, 16, 16], [[2, 3, 16, 16], [1, 3, 15, 16], [2, 3, 16, 15]]),
    "mobilenetv3": (MobileNetV3, [2, 3, 64, 64], [[2, 3, 64, 64], [1, 3, 37, 45], [1, 3, 17, 33]]),
    "squeezenet": (SqueezeNet, [2, 3, 64, 64], [[2, 3, 64, 64], [1, 3, 57, 45], [1, 3, 49, 63]]),
    "text_resize": (TextResize, [2, 16], [[2, 16], [1, 7], [2, 1]]),
    "resize_nhwc": (ResizeNhwc, [2, 3, 16, 16], [[2, 3, 16, 16], [1, 3, 7, 9], [2, 3, 1, 3]]),
    "swin": (SwinBlock, [2, 3, 16, 16], [[2, 3, 16, 16], [1, 3, 9, 13], [2, 3, 5, 7], [1, 3, 1, 2]]),
    "vit_sized": (VitSized, [2, 3, 16, 16], [[2, 3, 16, 16], [1, 3, 12, 9], [2, 3, 5, 7], [1, 3, 4, 15]]),
    "convnext_detr": (ConvNextDetr, [2, 3, 16, 16], [[2, 3, 16, 16], [1, 3, 9, 13], [2, 3, 5, 7], [1, 3, 2, 3]]),
    "text_lenreg": (LengthRegulator, [2, 16], [[2, 16], [1, 7], [2, 1], [1, 12]]),
    "segnet_bits": (SegNetBits, [2, 3, 16, 16], [[2, 3, 16, 16], [1, 3, 9, 13], [2, 3, 5, 7], [1, 3, 2, 3]]),
    "shape_arith": (ShapeArith, [2, 3, 16, 16], [[2, 3, 16, 16], [1, 3, 9, 13], [2, 3, 5, 7], [1, 3, 1, 2]]),
    "text_diag": (TextDiag, [2, 16], [[2, 16], [1, 7], [2, 1], [1, 12]]),
    "video3d": (Video3d, [2, 3, 8, 16, 16], [[2, 3, 8, 16, 16], [1, 3, 5, 9, 13], [2, 3, 3, 5, 7], [1, 3, 2, 4, 6]]),
}
# sizes of the same models built with no bound (size classes of 32, 64, 128,
# 256, ...: each list crosses several), saved as input_u<k>.npy and
# ref_u<k>_<j>.npy; the text encoders' positions stop at 32
UNBOUNDED = {
    "cnn": [[1, 3, 40, 70], [2, 3, 100, 33], [1, 3, 9, 13], [1, 3, 200, 20]],
    "resnetish": [[1, 3, 70, 40], [1, 3, 16, 16], [2, 3, 130, 9]],
    "seghead": [[1, 3, 40, 66], [2, 3, 9, 5], [1, 3, 140, 30]],
    "unet": [[1, 3, 40, 66], [2, 3, 10, 6], [1, 3, 140, 30]],
    "visionops": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "bert": [[2, 20], [1, 32], [2, 7]],
    "gpt": [[2, 30], [1, 5], [2, 32]],
    "rnn": [[2, 50], [1, 130], [2, 7], [1, 300]],
    "qkv": [[2, 40], [1, 7], [3, 90]],
    "qkv_einsum": [[2, 40], [1, 7], [3, 90]],
    "same": [[1, 3, 64, 33], [2, 3, 40, 9]],
    "moreops": [[1, 3, 40, 20], [2, 3, 5, 7]],
    "morevision": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "gathers": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "stn": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "yolov3head": [[1, 3, 64, 96], [2, 3, 9, 13], [1, 3, 250, 40]],
    "yoloehead": [[1, 3, 64, 96], [2, 3, 9, 13], [1, 3, 250, 40]],
    "tokenmaps": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "flatfc": [[1, 3, 15, 15], [2, 3, 16, 16]],
    "topk_hw": [[1, 3, 40, 70], [2, 3, 3, 1]],
    "text_cuts": [[2, 40], [1, 3], [2, 200]],
    "text_select": [[2, 40], [1, 1], [2, 200]],
    "unet_sized": [[1, 3, 41, 67], [2, 3, 9, 5], [1, 3, 140, 31]],
    "mobilenetv3": [[1, 3, 96, 80], [2, 3, 40, 33], [1, 3, 224, 160]],
    "squeezenet": [[1, 3, 96, 80], [2, 3, 50, 47], [1, 3, 224, 160]],
    "text_resize": [[2, 40], [1, 3], [2, 200]],
    "resize_nhwc": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "swin": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "vit_sized": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "convnext_detr": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "segnet_bits": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "shape_arith": [[1, 3, 40, 70], [2, 3, 9, 13], [1, 3, 150, 20]],
    "text_diag": [[2, 40], [1, 3], [2, 200]],
    "video3d": [[1, 3, 6, 40, 70], [2, 3, 3, 9, 13], [1, 3, 20, 100, 20]],
}
# feeds besides x (name, dtype), each of x's shape, saved as input_<k>_<name>.npy
MORE_FEEDS = {name: [("seg", "int64"), ("mask", "float32")] for name in ("bert", "bert_unfused")}
# compile flags besides the bound: the attention as Paddle wrote it
# (matmul_v2 of two run-time operands, the mask added to the scores,
# softmax over the keys) rather than the fused_attention pass's kernel
EXTRA_FLAGS = {name: ["--build-strategy", "fused_attention=false"]
               for name in ("text_unfused", "bert_unfused", "gpt_unfused")}
# the length regulator's output: its length is the durations' sum, which only the run knows
EXTRA_FLAGS["text_lenreg"] = ["--max-shape", "repeat_interleave_0.tmp_0=64,8"]


def model_input(name, shape, rng):
    """An image, or token ids (0, padding, in places; never the first)."""
    if not name.startswith(("text", "bert", "gpt", "rnn", "qkv")):
        return rng.standard_normal(shape).astype("float32")
    ids = rng.integers(0, 40, shape).astype("int64")
    ids[:, 0] = 1 + ids[:, 0] % 39
    return ids


def more_input(feed, shape, rng):
    """Segment ids (0 then 1) or a mask keeping a random prefix of each row
    (at least one token)."""
    if feed == "seg":
        return (np.arange(shape[1])[None, :] >= rng.integers(0, shape[1] + 1, (shape[0], 1))).astype("int64")
    keep = rng.integers(1, shape[1] + 1, (shape[0], 1))
    return (np.arange(shape[1])[None, :] < keep).astype("float32")


def randomize(layer, rng):
    for p in layer.parameters():  # scaled by the fan-in, so that deep outputs stay of order 1
        fan_in = int(np.prod(p.shape[1:])) if len(p.shape) > 1 else 1
        p.set_value((rng.standard_normal(p.shape) * min(0.3, 1.5 / np.sqrt(fan_in))).astype("float32"))
    for m in layer.sublayers():
        if isinstance(m, (nn.BatchNorm2D, nn.BatchNorm3D)):
            m._mean.set_value(rng.standard_normal(m._mean.shape).astype("float32") * 0.2)
            m._variance.set_value((rng.random(m._variance.shape) + 0.5).astype("float32"))


def main(out):
    rng = np.random.default_rng(19)
    for name, (cls, bound, sizes) in MODELS.items():
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        paddle.disable_static()
        paddle.seed(1)
        layer = cls()
        randomize(layer, rng)
        layer.eval()
        spec = [paddle.static.InputSpec([None, None], "int64", "x") if len(bound) == 2 else
                paddle.static.InputSpec([None, 3] + [None] * (len(bound) - 2), "float32", "x")]
        spec += [paddle.static.InputSpec([None, None], t, f) for f, t in MORE_FEEDS.get(name, [])]
        paddle.jit.save(paddle.jit.to_static(layer, input_spec=spec), os.path.join(d, "model"))
        paddle.enable_static()
        exe = paddle.static.Executor(paddle.CPUPlace())
        prog, feeds, fetches = paddle.static.load_inference_model(os.path.join(d, "model"), exe)
        unbounded_rng = np.random.default_rng(20)  # its own: the bounded runs' inputs stay as they were
        runs = [(str(k), shape, rng) for k, shape in enumerate(sizes)]
        runs += [(f"u{k}", shape, unbounded_rng) for k, shape in enumerate(UNBOUNDED.get(name, []))]
        for k, shape, r in runs:
            x = model_input(name, shape, r)
            np.save(os.path.join(d, f"input_{k}.npy"), x)
            fed = {feeds[0]: x}
            for f, _ in MORE_FEEDS.get(name, []):
                fed[f] = more_input(f, shape, r)
                np.save(os.path.join(d, f"input_{k}_{f}.npy"), fed[f])
            outs = exe.run(prog, feed=fed, fetch_list=fetches)
            for j, o in enumerate(outs):
                np.save(os.path.join(d, f"ref_{k}_{j}.npy"), o)
        with open(os.path.join(d, "flags.json"), "w") as f:
            bounds = [["--max-shape", f"{f}=" + ",".join(map(str, bound))] for f in feeds]
            json.dump(sum(bounds, []) + EXTRA_FLAGS.get(name, []), f)
        with open(os.path.join(d, "sizes.json"), "w") as f:
            json.dump({"sizes": sizes, "unbounded": UNBOUNDED.get(name, []), "fetches": [v.name for v in fetches],
                       "feeds": feeds}, f)


if __name__ == "__main__":
    main(sys.argv[1])
