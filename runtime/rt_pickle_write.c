/* The pickle writer of rt_pickle.h: a dict {name: numpy.ndarray} as
 * Python 3's pickler and numpy write it, protocol 2 (raw data as
 * _codecs.encode(latin1 text, 'latin1'), globals by GLOBAL) or protocol 4
 * (raw data as BINBYTES, globals by STACK_GLOBAL; no FRAMEs, which the
 * protocol leaves optional).  Every array is C order.  The globals, the
 * dtypes and the constant pieces are stored in the memo once and fetched
 * after, as Python does. */
#include "rt_pickle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_alloc.h"

/* numpy's dtype strings of the Paddle dtypes written (rt_pickle.c reads the
 * same set). */
static const struct {
  int dtype;        /* Paddle dtype number */
  const char *code; /* numpy.dtype's argument */
} np_types[] = {
    {RT_DT_FP32, "f4"}, {RT_DT_FP64, "f8"}, {RT_DT_FP16, "f2"},  {RT_DT_INT64, "i8"}, {RT_DT_INT32, "i4"},
    {RT_DT_INT16, "i2"}, {RT_DT_INT8, "i1"}, {RT_DT_UINT8, "u1"}, {RT_DT_BOOL, "b1"},  {RT_DT_BF16, "u2"},
};
#define NTYPES (sizeof np_types / sizeof np_types[0])

/* Where the bytes go: a file, or a growing buffer from rt_alloc. */
typedef struct Sink {
  FILE *f;            /* the file, or NULL for the buffer */
  unsigned char *buf; /* the buffer */
  size_t len, cap;    /* bytes in it, its room */
  int failed;         /* a write or an allocation failed */
} Sink;

static void put(Sink *s, const void *p, size_t n) {
  if (s->failed || !n) return;
  if (s->f) {
    if (fwrite(p, 1, n, s->f) != n) s->failed = 1;
    return;
  }
  if (n > s->cap - s->len) {
    size_t cap = s->cap ? s->cap : 4096;
    while (cap - s->len < n) {
      if (cap > SIZE_MAX / 2) {
        s->failed = 1;
        return;
      }
      cap *= 2;
    }
    unsigned char *b = rt_alloc(cap);
    if (!b) {
      s->failed = 1;
      return;
    }
    if (s->len) memcpy(b, s->buf, s->len);
    rt_free(s->buf);
    s->buf = b;
    s->cap = cap;
  }
  memcpy(s->buf + s->len, p, n);
  s->len += n;
}

static void put1(Sink *s, int b) {
  unsigned char c = (unsigned char)b;
  put(s, &c, 1);
}

static void put_le(Sink *s, uint64_t v, int n) {
  unsigned char b[8];
  for (int i = 0; i < n; i++) b[i] = (unsigned char)(v >> (8 * i));
  put(s, b, (size_t)n);
}

/* The writer: its sink, protocol and the memo indices of what it stored
 * (-1 before). */
typedef struct Wr {
  Sink *s;
  int proto;                 /* 2 or 4 */
  int64_t memo;              /* entries stored so far */
  int64_t reconstruct;       /* numpy.core.multiarray._reconstruct */
  int64_t ndarray;           /* numpy.ndarray */
  int64_t dtype;             /* numpy.dtype */
  int64_t encode;            /* _codecs.encode (protocol 2) */
  int64_t latin1;            /* 'latin1' (protocol 2) */
  int64_t b_b;               /* b'b', _reconstruct's third argument */
  int64_t dtypes[NTYPES];    /* each numpy.dtype object */
} Wr;

/* Stores the stack top in the memo; returns its index. */
static int64_t memoize(Wr *w) {
  if (w->proto >= 4) put1(w->s, 0x94); /* MEMOIZE */
  else if (w->memo < 256) put1(w->s, 'q'), put1(w->s, (int)w->memo);
  else put1(w->s, 'r'), put_le(w->s, (uint64_t)w->memo, 4);
  return w->memo++;
}

/* Pushes memo entry idx (BINGET / LONG_BINGET). */
static void memo_get(Wr *w, int64_t idx) {
  if (idx < 256) put1(w->s, 'h'), put1(w->s, (int)idx);
  else put1(w->s, 'j'), put_le(w->s, (uint64_t)idx, 4);
}

static void put_str(Wr *w, const char *p, size_t n) {
  if (w->proto >= 4 && n < 256) put1(w->s, 0x8c), put1(w->s, (int)n); /* SHORT_BINUNICODE */
  else if (n <= 0xffffffffu) put1(w->s, 'X'), put_le(w->s, n, 4);     /* BINUNICODE */
  else put1(w->s, 0x8d), put_le(w->s, n, 8);                          /* BINUNICODE8 (protocol 4) */
  put(w->s, p, n);
}

static void put_int(Wr *w, int64_t v) {
  if (v >= 0 && v < 256) put1(w->s, 'K'), put1(w->s, (int)v);
  else if (v >= 0 && v < 65536) put1(w->s, 'M'), put_le(w->s, (uint64_t)v, 2);
  else if (v >= INT32_MIN && v <= INT32_MAX) put1(w->s, 'J'), put_le(w->s, (uint64_t)v, 4);
  else put1(w->s, 0x8a), put1(w->s, 8), put_le(w->s, (uint64_t)v, 8); /* LONG1 */
}

/* A global, fetched from the memo after its first time. */
static void put_global(Wr *w, int64_t *slot, const char *module, const char *name) {
  if (*slot >= 0) {
    memo_get(w, *slot);
    return;
  }
  if (w->proto >= 4) {
    put_str(w, module, strlen(module));
    put_str(w, name, strlen(name));
    put1(w->s, 0x93); /* STACK_GLOBAL */
  } else {
    put1(w->s, 'c');
    put(w->s, module, strlen(module));
    put1(w->s, '\n');
    put(w->s, name, strlen(name));
    put1(w->s, '\n');
  }
  *slot = memoize(w);
}

/* Bytes of a latin1 text in UTF-8: those >= 0x80 take two. */
static uint64_t latin1_utf8_len(const unsigned char *p, size_t n) {
  uint64_t len = n;
  for (size_t i = 0; i < n; i++) len += p[i] >> 7;
  return len;
}

/* Raw bytes: BINBYTES in protocol 4, _codecs.encode(text, 'latin1') in 2
 * (the caller checked that the text fits BINUNICODE). */
static void put_bytes(Wr *w, const unsigned char *p, size_t n) {
  if (w->proto >= 4) {
    if (n < 256) put1(w->s, 'C'), put1(w->s, (int)n);
    else if (n <= 0xffffffffu) put1(w->s, 'B'), put_le(w->s, n, 4);
    else put1(w->s, 0x8e), put_le(w->s, n, 8);
    put(w->s, p, n);
    return;
  }
  put_global(w, &w->encode, "_codecs", "encode");
  put1(w->s, 'X');
  put_le(w->s, latin1_utf8_len(p, n), 4);
  unsigned char chunk[8192];
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (k + 2 > sizeof chunk) put(w->s, chunk, k), k = 0;
    if (p[i] < 0x80) chunk[k++] = p[i];
    else chunk[k++] = (unsigned char)(0xc0 | p[i] >> 6), chunk[k++] = (unsigned char)(0x80 | (p[i] & 0x3f));
  }
  put(w->s, chunk, k);
  if (w->latin1 >= 0) memo_get(w, w->latin1);
  else put_str(w, "latin1", 6), w->latin1 = memoize(w);
  put1(w->s, 0x86); /* TUPLE2 */
  put1(w->s, 'R');
}

/* numpy.dtype(code, False, True) with its state (3, order, None, None,
 * None, -1, -1, 0). */
static void put_dtype(Wr *w, size_t t) {
  if (w->dtypes[t] >= 0) {
    memo_get(w, w->dtypes[t]);
    return;
  }
  put_global(w, &w->dtype, "numpy", "dtype");
  put_str(w, np_types[t].code, 2);
  put1(w->s, 0x89); /* NEWFALSE */
  put1(w->s, 0x88); /* NEWTRUE */
  put1(w->s, 0x87); /* TUPLE3 */
  put1(w->s, 'R');
  w->dtypes[t] = memoize(w);
  put1(w->s, '(');
  put_int(w, 3);
  put_str(w, rt_dtype_size(np_types[t].dtype) > 1 ? "<" : "|", 1);
  put1(w->s, 'N');
  put1(w->s, 'N');
  put1(w->s, 'N');
  put_int(w, -1);
  put_int(w, -1);
  put_int(w, 0);
  put1(w->s, 't');
  put1(w->s, 'b');
}

/* _reconstruct(ndarray, (0,), b'b') with its state (1, shape, dtype,
 * False, data). */
static void put_array(Wr *w, const RtPickleEntry *e, size_t t) {
  put_global(w, &w->reconstruct, "numpy.core.multiarray", "_reconstruct");
  put_global(w, &w->ndarray, "numpy", "ndarray");
  put_int(w, 0);
  put1(w->s, 0x85); /* TUPLE1 */
  if (w->b_b >= 0) memo_get(w, w->b_b);
  else put_bytes(w, (const unsigned char *)"b", 1), w->b_b = memoize(w);
  put1(w->s, 0x87); /* TUPLE3 */
  put1(w->s, 'R');
  put1(w->s, '(');
  put_int(w, 1);
  if (e->rank == 0) put1(w->s, ')');
  if (e->rank > 3) put1(w->s, '(');
  for (int d = 0; d < e->rank; d++) put_int(w, e->dims[d]);
  if (e->rank > 3) put1(w->s, 't');
  else if (e->rank > 0) put1(w->s, 0x84 + e->rank); /* TUPLE1..3 */
  put_dtype(w, t);
  put1(w->s, 0x89); /* is_fortran False */
  put_bytes(w, e->data, e->bytes);
  put1(w->s, 't');
  put1(w->s, 'b');
}

static int utf8_ok(const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned char c = s[i];
    size_t k = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (!k || n - i < k) return 0;
    for (size_t j = 1; j < k; j++)
      if ((s[i + j] & 0xc0) != 0x80) return 0;
    /* overlong 3- and 4-byte forms, surrogates and code points past U+10FFFF */
    if ((c == 0xe0 && s[i + 1] < 0xa0) || (c == 0xed && s[i + 1] >= 0xa0) || (c == 0xf0 && s[i + 1] < 0x90) ||
        (c == 0xf4 && s[i + 1] >= 0x90))
      return 0;
    i += k;
  }
  return 1;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Checks the entries; *types[i] = the np_types row of entry i. */
static RtStatus check(const RtPickleEntry *e, int count, int protocol, size_t *types, char *err, size_t errlen) {
  if (protocol != 2 && protocol != 4) {
    snprintf(err, errlen, "pickle protocol %d: the writer makes 2 or 4", protocol);
    return RT_ERR_FORMAT;
  }
  if (count < 0) {
    snprintf(err, errlen, "negative entry count %d", count);
    return RT_ERR_FORMAT;
  }
  for (int i = 0; i < count; i++) {
    const char *name = e[i].name ? e[i].name : "(null)";
    size_t t = 0;
    while (t < NTYPES && np_types[t].dtype != e[i].dtype) t++;
    types[i] = t;
    int64_t numel, bytes;
    if (!e[i].name || !utf8_ok((const unsigned char *)e[i].name, strlen(e[i].name))) {
      snprintf(err, errlen, "entry %d: its name is %s", i, e[i].name ? "not valid UTF-8" : "NULL");
      return RT_ERR_FORMAT;
    }
    if (t == NTYPES) {
      snprintf(err, errlen, "%s: dtype %s (%d) cannot be pickled as a numpy array here", name,
               rt_dtype_name(e[i].dtype) ? rt_dtype_name(e[i].dtype) : "?", e[i].dtype);
      return RT_ERR_DTYPE;
    }
    if (e[i].rank < 0 || e[i].rank > RT_MAX_RANK || rt_size_numel(e[i].dims, e[i].rank, &numel, NULL) ||
        rt_size_mul(numel, (int64_t)rt_dtype_size(e[i].dtype), &bytes)) {
      snprintf(err, errlen, "%s: bad rank or dims", name);
      return RT_ERR_FORMAT;
    }
    if ((uint64_t)bytes != (uint64_t)e[i].bytes || (bytes && !e[i].data)) {
      snprintf(err, errlen, "%s: %zu bytes of data given, its dims and dtype make %lld", name, e[i].data ? e[i].bytes : 0,
               (long long)bytes);
      return RT_ERR_FORMAT;
    }
    if (protocol == 2 && latin1_utf8_len(e[i].data, e[i].bytes) > 0xffffffffu) {
      snprintf(err, errlen, "%s: %zu bytes of data, as protocol 2 text, pass BINUNICODE's 4 GiB (use protocol 4)", name,
               e[i].bytes);
      return RT_ERR_FORMAT;
    }
  }
  if (count > 1) { /* duplicate names: sorted copies side by side */
    const char **names = rt_alloc((size_t)count * sizeof *names);
    if (!names) {
      snprintf(err, errlen, "out of memory");
      return RT_ERR_NOMEM;
    }
    for (int i = 0; i < count; i++) names[i] = e[i].name;
    qsort(names, (size_t)count, sizeof *names, cmp_names);
    RtStatus st = RT_OK;
    for (int i = 1; i < count && !st; i++)
      if (!strcmp(names[i], names[i - 1])) {
        snprintf(err, errlen, "%s: two entries have this name", names[i]);
        st = RT_ERR_FORMAT;
      }
    rt_free(names);
    return st;
  }
  return RT_OK;
}

static RtStatus write_all(Sink *s, const RtPickleEntry *e, int count, int protocol, char *err, size_t errlen) {
  size_t *types = rt_alloc((size_t)(count > 0 ? count : 1) * sizeof *types);
  if (!types) {
    snprintf(err, errlen, "out of memory");
    return RT_ERR_NOMEM;
  }
  RtStatus st = check(e, count, protocol, types, err, errlen);
  if (!st) {
    Wr w;
    memset(&w, 0, sizeof w);
    w.s = s;
    w.proto = protocol;
    w.reconstruct = w.ndarray = w.dtype = w.encode = w.latin1 = w.b_b = -1;
    for (size_t t = 0; t < NTYPES; t++) w.dtypes[t] = -1;
    put1(s, 0x80); /* PROTO */
    put1(s, protocol);
    put1(s, '}'); /* EMPTY_DICT */
    memoize(&w);
    if (count) put1(s, '(');
    for (int i = 0; i < count; i++) {
      put_str(&w, e[i].name, strlen(e[i].name));
      put_array(&w, &e[i], types[i]);
    }
    if (count) put1(s, 'u'); /* SETITEMS */
    put1(s, '.');
  }
  rt_free(types);
  return st;
}

RtStatus rt_pickle_dump_arrays(const RtPickleEntry *entries, int count, int protocol, unsigned char **out,
                               size_t *len, char *err, size_t errlen) {
  Sink s;
  memset(&s, 0, sizeof s);
  *out = NULL;
  *len = 0;
  RtStatus st = write_all(&s, entries, count, protocol, err, errlen);
  if (!st && s.failed) {
    snprintf(err, errlen, "out of memory");
    st = RT_ERR_NOMEM;
  }
  if (st) {
    rt_free(s.buf);
    return st;
  }
  *out = s.buf;
  *len = s.len;
  return RT_OK;
}

RtStatus rt_pickle_write_arrays(const char *path, const RtPickleEntry *entries, int count, int protocol,
                                char *err, size_t errlen) {
  size_t n = strlen(path);
  char *tmp = rt_alloc(n + 5);
  if (!tmp) {
    snprintf(err, errlen, "%s: out of memory", path);
    return RT_ERR_NOMEM;
  }
  memcpy(tmp, path, n);
  memcpy(tmp + n, ".tmp", 5);
  Sink s;
  memset(&s, 0, sizeof s);
  s.f = fopen(tmp, "wb");
  RtStatus st;
  if (!s.f) {
    snprintf(err, errlen, "%s: cannot create", tmp);
    st = RT_ERR_IO;
  } else {
    char why[300];
    st = write_all(&s, entries, count, protocol, why, sizeof why);
    if (st) snprintf(err, errlen, "%s: %s", path, why);
    if (fclose(s.f)) s.failed = 1;
    if (!st && s.failed) {
      snprintf(err, errlen, "%s: write failed", tmp);
      st = RT_ERR_IO;
    }
    if (!st && rename(tmp, path)) {
      snprintf(err, errlen, "%s: cannot rename %s over it", path, tmp);
      st = RT_ERR_IO;
    }
    if (st) remove(tmp);
  }
  rt_free(tmp);
  return st;
}
