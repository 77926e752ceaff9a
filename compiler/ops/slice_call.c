/* The C printer of kernels over a box of a tensor (slice_call.h). */
#include "slice_call.h"

#include <string.h>

#include "../util.h"
#include "tensor_util.h"

/* phi SliceGradKernel / StridedSliceGradKernel: zeros, then dout's
 * elements in order where the forward read its elements. */
static void print_slice_grad(Printer *p, const SliceCall *c) {
  const char *t = c->type;
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", c->numel);
  if (c->empty) return;
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *at = dx + %s;", t, c->offset);
  pr_line(p, "int64_t k = 0;");
  const char *dst = "0";
  int nl = 0;
  for (int a = 0; a < c->rank; a++) {
    if (!strcmp(c->dims[a], "1")) continue;
    pr_line(p, "for (int64_t i%d = 0; i%d < %s; i%d++) {", a, a, c->dims[a], a);
    dst = tu_add(dst, tu_mul(pool_printf("i%d", a), c->strides[a]));
    nl++;
  }
  pr_line(p, "at[%s] = dout[k++];", dst);
  pr_close(p, nl);
}

/* phi CropTensorGradKernel: zeros, then dout at the offsets. */
static void print_crop_grad(Printer *p, const SliceCall *c) {
  const char *t = c->type, *at = "0";
  for (int i = 0; i < c->rank; i++) at = tu_add(at, tu_mul(pool_printf("(i%d + %s)", i, c->offsets[i]), c->strides[i]));
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  pr_line(p, "for (int64_t q = 0; q < %s; q++) dx[q] = 0;", c->numel);
  pr_line(p, "int64_t p = 0;");
  for (int i = 0; i < c->rank; i++) pr_line(p, "for (int64_t i%d = 0; i%d < %s; i%d++)", i, i, c->dims[i], i);
  pr_line(p, "  dx[%s] = dout[p++];", at);
}

/* Loops over set_value's slice, s<d> counting the elements taken along
 * dim d (down: from the last one, so the addresses go up); *oi: the
 * element's offset in the sliced tensor, *vi: in the value.  Returns the
 * loops opened. */
static int open_set_loops(Printer *p, const SliceCall *c, const char **oi, const char **vi) {
  int loops = 0;
  *oi = "0", *vi = "0";
  for (int d = 0; d < c->rank; d++) {
    const char *n = c->dims[d], *pos;
    if (!strcmp(n, "1")) {
      pos = c->start[d] ? c->start[d] : "0";
    } else {
      if (c->down[d]) pr_line(p, "for (int64_t s%d = %s - 1; s%d >= 0; s%d--) {", d, n, d, d);
      else pr_line(p, "for (int64_t s%d = 0; s%d < %s; s%d++) {", d, d, n, d);
      loops++;
      const char *sv = pool_printf("s%d", d);
      pos = c->start[d] ? tu_add(c->start[d], tu_mul(sv, c->step[d])) : sv;
      if (c->vstrides[d]) *vi = tu_add(*vi, tu_mul(sv, c->vstrides[d]));
    }
    if (strcmp(pos, "0")) *oi = tu_add(*oi, tu_mul(pool_printf("(%s)", pos), c->strides[d]));
  }
  return loops;
}

/* phi SetValueKernel: Out (already Input) takes the broadcast value over
 * the slice. */
static void print_set(Printer *p, const SliceCall *c) {
  const char *t = c->type, *oi, *vi;
  if (c->empty) {
    pr_line(p, "/* the slice is empty: Out = Input */");
    return;
  }
  pr_line(p, "{");
  pr_line(p, "%s *out = %s;", t, c->out);
  if (c->val) {
    pr_line(p, "const %s *val = %s;", t, c->val);
  } else {
    const char *list = "";
    for (int i = 0; i < c->nvals; i++) list = pool_printf("%s%s%s", list, i ? ", " : "", c->vals[i]);
    pr_line(p, "static const %s val[%d] = {%s};", t, c->nvals, list);
  }
  int loops = open_set_loops(p, c, &oi, &vi);
  pr_line(p, "out[%s] = val[%s];", oi, vi);
  pr_close(p, loops);
  pr_line(p, "}");
}

/* phi SetValueGradKernel's ValueTensor@GRAD: the slice of dout summed
 * into the value's dims. */
static void print_set_grad(Printer *p, const SliceCall *c) {
  const char *t = c->type, *oi, *vi;
  pr_line(p, "{");
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dv = %s;", t, c->dv);
  pr_line(p, "memset(dv, 0, (size_t)(%s) * sizeof *dv);", c->numel);
  if (!c->empty) {
    int loops = open_set_loops(p, c, &oi, &vi);
    pr_line(p, "dv[%s] += dout[%s];", vi, oi);
    pr_close(p, loops);
  }
  pr_line(p, "}");
}

/* set_value_grad's Input@GRAD: the slice's elements 0. */
static void print_set_zero(Printer *p, const SliceCall *c) {
  const char *oi, *vi;
  pr_line(p, "{");
  pr_line(p, "%s *dx = %s;", c->type, c->dx);
  int loops = open_set_loops(p, c, &oi, &vi);
  pr_line(p, "dx[%s] = (%s)0;", oi, c->type);
  pr_close(p, loops);
  pr_line(p, "}");
}

/* pad: Out filled with the value, then each row (last dim) of X copied to
 * its place, the offset of X's element (i0, ..., i{r-2}, 0) in Out built
 * dim by dim; pad_grad copies the same rows back. */
static void print_pad(Printer *p, const SliceCall *c) {
  const char *t = c->type, *off = "0";
  const int r = c->rank, grad = c->kind == SLICE_PAD_GRAD;
  if (grad) {
    pr_line(p, "const %s *dout = %s;", t, c->dout);
    pr_line(p, "%s *dx = %s;", t, c->dx);
  } else {
    pr_line(p, "const %s *x = %s;", t, c->x);
    pr_line(p, "%s *out = %s;", t, c->out);
    pr_line(p, "const %s v = (%s)%s;", t, t, c->value);
    pr_line(p, "for (int64_t i = 0; i < %s; i++) out[i] = v;", c->numel);
  }
  for (int i = 0; i < r - 1; i++) {
    pr_line(p, "for (int64_t i%d = 0; i%d < %s; i%d++) {", i, i, c->dims[i], i);
    off = pool_printf("(%s) * %s + i%d + %s", off, c->odims[i], i, c->offsets[i]);
  }
  if (grad) {
    pr_line(p, "memcpy(dx, dout + (%s) * %s + %s, sizeof(%s) * (size_t)%s);", off, c->odims[r - 1], c->offsets[r - 1],
            t, c->dims[r - 1]);
    pr_line(p, "dx += %s;", c->dims[r - 1]);
  } else {
    pr_line(p, "memcpy(out + (%s) * %s + %s, x, sizeof(%s) * (size_t)%s);", off, c->odims[r - 1], c->offsets[r - 1], t,
            c->dims[r - 1]);
    pr_line(p, "x += %s;", c->dims[r - 1]);
  }
  pr_close(p, r - 1);
}

/* The repeating copies' grads: dout walked once in memory order, each
 * element added to the dx element it was copied from. */
static void print_repeat_grad(Printer *p, const SliceCall *c) {
  const char *t = c->type;
  pr_line(p, "const %s *dout = %s;", t, c->dout);
  pr_line(p, "%s *dx = %s;", t, c->dx);
  if (!c->reduce) {
    pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = dout[i];", c->numel);
    return;
  }
  pr_line(p, "for (int64_t i = 0; i < %s; i++) dx[i] = 0;", c->numel);
  for (int k = 0; k < c->rank; k++) pr_line(p, "const int64_t n%d = %s;", k, c->dims[k]);
  pr_line(p, "int64_t at = 0;");
  const char *xi = "0";
  for (int k = 0; k < c->rank; k++) {
    pr_line(p, "for (int64_t i%d = 0; i%d < n%d; i%d++) {", k, k, k, k);
    xi = tu_add(xi, tu_mul(pool_printf("i%d", k), c->strides[k]));
  }
  pr_line(p, "dx[%s] += dout[at++];", xi);
  pr_close(p, c->rank);
}

/* Paddle's slice kernel (SliceRawKernel, then CheckAndUpdateSliceAttrs,
 * step 1): start -1 with end 0 on a dropped axis whose infer_flags entry is
 * -1 is the last element (x[-1] with the index a tensor); a negative
 * bound counts from the end, the start is clamped into [0, dim], the end to
 * at most dim; an end before the start, or a dropped axis not of one
 * element, stops it. */
static void print_bounds(Printer *p, const SliceCall *c) {
  for (int a = 0; a < c->rank; a++) {
    if (!c->bstart[a]) continue;
    pr_line(p, "const int64_t dim%d = %s;", a, c->bdim[a]);
    pr_line(p, "int64_t start%d = %s, end%d = %s;", a, c->bstart[a], a, c->bend[a]);
    if (c->blast[a]) pr_line(p, "if (start%d == -1 && end%d == 0) end%d = dim%d; /* x[-1] */", a, a, a, a);
    pr_line(p, "if (start%d < 0) start%d += dim%d;", a, a, a);
    pr_line(p, "start%d = start%d < 0 ? 0 : start%d > dim%d ? dim%d : start%d;", a, a, a, a, a, a);
    pr_line(p, "if (end%d < 0) end%d += dim%d;", a, a, a);
    pr_line(p, "if (end%d > dim%d) end%d = dim%d;", a, a, a, a);
    if (!c->bkeep[a]) {
      pr_line(p, "if (end%d - start%d != 1) return 1; /* Paddle stops: not one element on a dropped axis */", a, a);
      continue;
    }
    pr_line(p, "if (end%d < start%d) return 1; /* Paddle stops: the end before the start */", a, a);
    if (c->bmost[a]) pr_line(p, "if (end%d - start%d > %s) return 1; /* past the bound planned */", a, a, c->bmost[a]);
    if (c->bextent[a]) pr_line(p, "%s = end%d - start%d;", c->bextent[a], a, a);
  }
}

/* phi StridedSliceOutDims (the count) and StridedSliceFunctor (where the
 * reading starts; a negative stride walks back from min(start, dim - 1)). */
static void print_strided_bounds(Printer *p, const SliceCall *c) {
  for (int a = 0; a < c->rank; a++) {
    if (!c->bstart[a]) continue;
    pr_line(p, "const int64_t dim%d = %s, step%d = %s;", a, c->bdim[a], a, c->bstep[a]);
    pr_line(p, "int64_t start%d = %s, end%d = %s, begin%d, cnt%d;", a, c->bstart[a], a, c->bend[a], a, a);
    pr_line(p, "if (step%d == 0) return 1; /* Paddle stops: a stride of 0 */", a);
    if (c->bsingle[a]) pr_line(p, "const int last%d = start%d == -1 && end%d == 0; /* x[-1] */", a, a, a);
    pr_line(p, "if (start%d < 0 && (start%d += dim%d) < 0) start%d = 0;", a, a, a, a);
    if (c->bsingle[a]) {
      pr_line(p, "if (last%d) {", a);
      pr_line(p, "begin%d = start%d, cnt%d = 1;", a, a, a);
      pr_line(p, "} else {");
    } else {
      pr_line(p, "{");
    }
    pr_line(p, "if (end%d < 0 && !(end%d == -1 && step%d < 0) && (end%d += dim%d) < 0) end%d = 0;", a, a, a, a, a, a);
    pr_line(p, "const int64_t s = step%d < 0 ? start%d + 1 : start%d, e = step%d < 0 ? end%d + 1 : end%d;", a, a, a, a,
            a, a);
    pr_line(p, "if ((step%d < 0 && s < e) || (step%d > 0 && s > e)) return 1; /* Paddle stops: against the stride */",
            a, a);
    pr_line(p, "const int64_t lo = s < e ? (s < 0 ? 0 : s) : (e < 0 ? 0 : e), hi = s < e ? (e > dim%d ? dim%d : e) "
            ": (s > dim%d ? dim%d : s);", a, a, a, a);
    pr_line(p, "const int64_t k = step%d < 0 ? -step%d : step%d;", a, a, a);
    pr_line(p, "cnt%d = ((hi - lo < 0 ? lo - hi : hi - lo) + k - 1) / k;", a);
    pr_line(p, "begin%d = step%d > 0 || start%d < dim%d - 1 ? start%d : dim%d - 1;", a, a, a, a, a, a);
    pr_line(p, "}");
    pr_line(p, "if (cnt%d > 0 && (begin%d < 0 || begin%d >= dim%d)) return 1; /* a read outside the axis */", a, a, a, a);
    if (!c->bkeep[a])
      pr_line(p, "if (cnt%d != 1) return 1; /* Paddle stops: a dropped axis of more than one element */", a);
    else if (c->bnozero)
      pr_line(p, "if (cnt%d == 0) return 1; /* Paddle would drop the empty axis too */", a);
    if (c->bkeep[a] && c->bextent[a]) pr_line(p, "%s = cnt%d;", c->bextent[a], a);
    else if (c->bkeep[a]) pr_line(p, "if (cnt%d != %s) return 1; /* not the size paddlec planned */", a, c->bwant[a]);
  }
}

/* phi SplitInferMeta at run time: one section of -1 takes the rest (more
 * than 0), else they add up to the dim. */
static void print_sections(Printer *p, const SliceCall *c) {
  pr_line(p, "const int64_t dim = %s;", c->bdim[0]);
  pr_line(p, "int64_t rest = dim, unknown = 0;");
  for (int i = 0; i < c->rank; i++) {
    pr_line(p, "int64_t sec%d = %s;", i, c->bstart[i]);
    pr_line(p, "if (sec%d == -1) unknown++;", i);
    pr_line(p, "else if (sec%d < 0) return 1; /* a negative section */", i);
    pr_line(p, "else rest -= sec%d;", i);
  }
  pr_line(p, "if (unknown > 1 || (unknown ? rest <= 0 : rest != 0)) return 1; /* Paddle stops: not the dim */");
  for (int i = 0; i < c->rank; i++) {
    pr_line(p, "if (sec%d == -1) sec%d = rest;", i, i);
    if (c->bextent[i])
      pr_line(p, "%s = sec%d;", c->bextent[i], i);
    else if (c->bwant[i])
      pr_line(p, "if (sec%d != %s) return 1; /* not the size paddlec planned */", i, c->bwant[i]);
  }
}

/* phi CropTensorKernel (ValidateShape and its checks): a size of -1 takes
 * the rest of the dim after the offset; a size of 0 or below -1, a
 * negative offset or a crop past the dim stops the run. */
static void print_crop_bounds(Printer *p, const SliceCall *c) {
  for (int a = 0; a < c->rank; a++) {
    pr_line(p, "const int64_t dim%d = %s, off%d = %s;", a, c->bdim[a], a, c->bstart[a]);
    pr_line(p, "int64_t size%d = %s;", a, c->bend[a]);
    pr_line(p, "if (size%d <= 0) {", a);
    pr_line(p, "if (size%d != -1) return 1; /* Paddle stops: only -1 takes the rest */", a);
    pr_line(p, "size%d = dim%d - off%d;", a, a, a);
    pr_line(p, "}");
    pr_line(p, "if (off%d < 0 || off%d + size%d > dim%d) return 1; /* Paddle stops: outside X */", a, a, a, a);
    if (c->bextent[a])
      pr_line(p, "%s = size%d;", c->bextent[a], a);
    else
      pr_line(p, "if (size%d != %s) return 1; /* not the size paddlec planned */", a, c->bwant[a]);
  }
}

void slice_print_c(Printer *p, const SliceCall *c) {
  if (c->braced) pr_line(p, "{");
  switch (c->kind) {
    case SLICE_EMPTY: pr_line(p, "/* the slice is empty */"); break;
    case SLICE_GRAD: print_slice_grad(p, c); break;
    case SLICE_CROP_GRAD: print_crop_grad(p, c); break;
    case SLICE_SET: print_set(p, c); break;
    case SLICE_SET_GRAD: print_set_grad(p, c); break;
    case SLICE_SET_ZERO: print_set_zero(p, c); break;
    case SLICE_PAD:
    case SLICE_PAD_GRAD: print_pad(p, c); break;
    case SLICE_REPEAT_GRAD: print_repeat_grad(p, c); break;
    case SLICE_BOUNDS: print_bounds(p, c); break;
    case SLICE_CROP_BOUNDS: print_crop_bounds(p, c); break;
    case SLICE_SECTIONS: print_sections(p, c); break;
    case SLICE_STRIDED_BOUNDS: print_strided_bounds(p, c); break;
  }
  if (c->braced) pr_line(p, "}");
}
