/* Training state: zero slots, combined files and pickled checkpoints
 * (rt_state.h). */
#include "rt_state.h"

#include <stdio.h>
#include <string.h>

#include "rt_alloc.h"
#include "rt_pickle.h"

static size_t numel(const RtWeightSpec *s) {
  size_t n = 1;
  for (int d = 0; d < s->rank; d++) n *= (size_t)s->dims[d];
  return n;
}

void rt_state_zero(const RtWeightSpec *specs, int count, unsigned char *store, const void **ptrs) {
  for (int i = 0; i < count; i++) {
    const size_t bytes = numel(&specs[i]) * rt_dtype_size(specs[i].dtype);
    memset(store, 0, bytes);
    ptrs[i] = store;
    store += (bytes + 63) / 64 * 64;
  }
}

static void put_le(FILE *f, uint64_t v, int n) {
  for (int i = 0; i < n; i++) fputc((int)(v >> (8 * i)) & 0xff, f);
}

static int varint_len(uint64_t v) {
  int n = 1;
  while (v >= 0x80) v >>= 7, n++;
  return n;
}

static void put_varint(FILE *f, uint64_t v) {
  do {
    const int b = (int)(v & 0x7f);
    v >>= 7;
    fputc(b | (v ? 0x80 : 0), f);
  } while (v);
}

RtStatus rt_state_save(const char *path, const RtWeightSpec *specs, int count, const void *const *ptrs, char *err,
                       size_t errlen) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot write", path);
    return RT_ERR_IO;
  }
  for (int i = 0; i < count; i++) {
    const RtWeightSpec *s = &specs[i];
    int desc = 1 + varint_len((uint64_t)s->dtype);
    for (int d = 0; d < s->rank; d++) desc += 1 + varint_len((uint64_t)s->dims[d]);
    put_le(f, 0, 4); /* LoD version */
    put_le(f, 0, 8); /* no LoD levels */
    put_le(f, 0, 4); /* tensor version */
    put_le(f, (uint64_t)desc, 4);
    fputc(0x08, f); /* TensorDesc.data_type */
    put_varint(f, (uint64_t)s->dtype);
    for (int d = 0; d < s->rank; d++) {
      fputc(0x10, f); /* TensorDesc.dims */
      put_varint(f, (uint64_t)s->dims[d]);
    }
    const size_t bytes = numel(s) * rt_dtype_size(s->dtype);
    if (bytes && fwrite(ptrs[i], 1, bytes, f) != bytes) break;
  }
  const int bad = ferror(f);
  if (fclose(f) || bad) {
    snprintf(err, errlen, "%s: write failed", path);
    return RT_ERR_IO;
  }
  return RT_OK;
}

/* "prefix" + "ext" into buf; 0, or -1 when it does not fit. */
static int with_ext(char *buf, size_t n, const char *prefix, const char *ext) {
  const int len = snprintf(buf, n, "%s%s", prefix, ext);
  return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* Copies the entry named like spec s from e[0..n) into dst: 1 when found,
 * 0 when absent, -1 (err written) when its dtype or shape differ. */
static int take(const RtWeightSpec *s, const RtPickleEntry *e, int n, void *dst, const char *file, char *err,
                size_t errlen) {
  for (int i = 0; i < n; i++) {
    if (strcmp(e[i].name, s->name)) continue;
    int same = e[i].dtype == s->dtype && e[i].rank == s->rank;
    for (int d = 0; same && d < s->rank; d++) same = e[i].dims[d] == s->dims[d];
    if (!same) {
      int at = snprintf(err, errlen, "%s: '%s' is %s [", file, s->name, rt_dtype_name(e[i].dtype));
      for (int d = 0; d < e[i].rank && at > 0 && (size_t)at < errlen; d++)
        at += snprintf(err + at, errlen - (size_t)at, "%s%lld", d ? ", " : "", (long long)e[i].dims[d]);
      if (at > 0 && (size_t)at < errlen) {
        at += snprintf(err + at, errlen - (size_t)at, "]; the program's is %s [", rt_dtype_name(s->dtype));
        for (int d = 0; d < s->rank && at > 0 && (size_t)at < errlen; d++)
          at += snprintf(err + at, errlen - (size_t)at, "%s%lld", d ? ", " : "", (long long)s->dims[d]);
        if (at > 0 && (size_t)at < errlen) snprintf(err + at, errlen - (size_t)at, "]");
      }
      return -1;
    }
    memcpy(dst, e[i].data, e[i].bytes);
    return 1;
  }
  return 0;
}

RtStatus rt_state_load_checkpoint(const char *prefix, const RtWeightSpec *specs, const unsigned char *is_param,
                                  int count, void *const *ptrs, int *no_opt, char *err, size_t errlen) {
  char params[1024], opt[1024];
  if (with_ext(params, sizeof params, prefix, ".pdparams") || with_ext(opt, sizeof opt, prefix, ".pdopt")) {
    snprintf(err, errlen, "%s: path too long", prefix);
    return RT_ERR_IO;
  }
  RtPickleEntry *pe = NULL, *oe = NULL;
  int np = 0, no = 0;
  RtStatus st = rt_pickle_load(params, &pe, &np, err, errlen);
  FILE *f = st ? NULL : fopen(opt, "rb");
  *no_opt = !st && !f;
  if (f) {
    fclose(f);
    st = rt_pickle_load(opt, &oe, &no, err, errlen);
  }
  for (int i = 0; !st && i < count; i++) {
    int got = take(&specs[i], pe, np, ptrs[i], params, err, errlen);
    if (!got) got = take(&specs[i], oe, no, ptrs[i], opt, err, errlen);
    if (got < 0) st = RT_ERR_FORMAT;
    else if (!got && (is_param[i] || !*no_opt)) {
      snprintf(err, errlen, "%s: no '%s' (a %s the program uses)", is_param[i] ? params : opt,
               specs[i].name, is_param[i] ? "parameter" : "persistable var");
      st = RT_ERR_FORMAT;
    }
  }
  rt_pickle_free(pe, np);
  rt_pickle_free(oe, no);
  return st;
}

RtStatus rt_state_save_checkpoint(const char *prefix, const RtWeightSpec *specs, const unsigned char *is_param,
                                  int count, const void *const *ptrs, char *err, size_t errlen) {
  char path[1024];
  RtPickleEntry *e = rt_alloc(sizeof *e * (size_t)(count ? count : 1));
  if (!e) {
    snprintf(err, errlen, "%s: out of memory", prefix);
    return RT_ERR_NOMEM;
  }
  RtStatus st = RT_OK;
  for (int file = 0; !st && file < 2; file++) {
    int n = 0;
    for (int i = 0; i < count; i++) {
      if ((is_param[i] ? 0 : 1) != file) continue; /* .pdparams first, then .pdopt */
      e[n].name = (char *)specs[i].name;
      e[n].dtype = specs[i].dtype;
      e[n].rank = specs[i].rank;
      memcpy(e[n].dims, specs[i].dims, sizeof e[n].dims);
      e[n].data = (void *)ptrs[i];
      e[n].bytes = numel(&specs[i]) * rt_dtype_size(specs[i].dtype);
      n++;
    }
    if (with_ext(path, sizeof path, prefix, file ? ".pdopt" : ".pdparams")) {
      snprintf(err, errlen, "%s: path too long", prefix);
      st = RT_ERR_IO;
    } else {
      st = rt_pickle_write_arrays(path, e, n, 4, err, errlen);
    }
  }
  rt_free(e);
  return st;
}
