/* The pickle reader of rt_pickle.h: a stack machine over the opcodes that
 * Python's pickler (protocols 2 to 4, Python 2 and 3) uses for a dict of
 * numpy arrays.  Objects live in an arena freed at the end; strings and raw
 * data point into the input (bounds-checked when read), except the data
 * _codecs.encode decodes, which the arena holds.  The memo and the stacks
 * grow with the input, never beyond what its bytes can name. */
#include "rt_pickle.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_alloc.h"

/* Object kinds, and their Python names for messages. */
enum { K_NONE, K_BOOL, K_INT, K_STR, K_BYTES, K_STR2, K_TUPLE, K_LIST, K_DICT, K_GLOBAL, K_DTYPE, K_ARRAY };
static const char *const kind_names[] = {"None",       "a bool",  "an int",  "a str",    "a bytes",       "a Python 2 str",
                                         "a tuple",    "a list",  "a dict",  "a global", "a numpy.dtype", "a numpy.ndarray"};

/* The globals a checkpoint may name. */
enum { G_RECONSTRUCT, G_NDARRAY, G_DTYPE, G_ENCODE, G_BYTES };
static const struct {
  const char *module, *name; /* as the pickle names them */
  int which;                 /* G_* */
} globals[] = {
    {"numpy.core.multiarray", "_reconstruct", G_RECONSTRUCT},
    {"numpy._core.multiarray", "_reconstruct", G_RECONSTRUCT}, /* numpy 2 */
    {"numpy", "ndarray", G_NDARRAY},
    {"numpy", "dtype", G_DTYPE},
    {"_codecs", "encode", G_ENCODE},
    {"__builtin__", "bytes", G_BYTES}, /* bytes() is b'' in protocol 2 */
    {"builtins", "bytes", G_BYTES},
};

/* numpy dtype strings (numpy.dtype's first argument) and Paddle's dtypes. */
static const struct {
  const char *code; /* numpy's dtype.str without byte order */
  int dtype;        /* Paddle dtype number */
} np_types[] = {
    {"f4", RT_DT_FP32}, {"f8", RT_DT_FP64},  {"f2", RT_DT_FP16},  {"i8", RT_DT_INT64}, {"i4", RT_DT_INT32},
    {"i2", RT_DT_INT16}, {"i1", RT_DT_INT8}, {"u1", RT_DT_UINT8}, {"b1", RT_DT_BOOL},  {"u2", RT_DT_BF16},
};

typedef struct Obj Obj;
struct Obj {
  int kind;              /* K_* */
  size_t at;             /* byte offset of the opcode that made it */
  int64_t i;             /* K_INT, K_BOOL: the value; K_GLOBAL: G_* */
  const uint8_t *s;      /* K_STR (UTF-8), K_BYTES, K_STR2, K_ARRAY (its raw data): bytes */
  size_t n;              /* their count */
  Obj **items;           /* K_TUPLE, K_LIST: the items; K_DICT: key, value, key, value, ... */
  size_t nitems;         /* entries of items */
  size_t cap;            /* room in items (K_LIST, K_DICT) */
  int built;             /* K_DTYPE, K_ARRAY: BUILD has set its state */
  int dtype;             /* K_DTYPE, K_ARRAY: Paddle dtype number */
  size_t esize;          /* K_DTYPE, K_ARRAY: bytes per element */
  int rank;              /* K_ARRAY: number of dims */
  int64_t dims[RT_MAX_RANK]; /* K_ARRAY: shape */
  int fortran;           /* K_ARRAY: data in Fortran order */
};

/* Arena chunk: a header, then the objects and buffers handed out. */
typedef struct Chunk {
  struct Chunk *next; /* the previous chunk */
  size_t used, cap;   /* bytes handed out / available after the header */
} Chunk;
#define CHUNK_HDR 64 /* keeps the data 64-byte aligned, as rt_alloc's */

typedef struct Rd {
  const uint8_t *start, *p, *end; /* the input, the next byte, its end */
  size_t op_at;                   /* offset of the opcode being run */
  Obj **stack;                    /* the stack */
  size_t sp, scap;                /* its depth and room */
  size_t *marks;                  /* stack depths at each MARK */
  size_t nmarks, mcap;            /* their count and room */
  Obj **memo;                     /* memo slots (NULL = empty) */
  size_t mlen;                    /* slots (all allocated, beyond the last one stored too) */
  size_t nstored;                 /* slots stored: MEMOIZE's next index, as len(memo) */
  Chunk *chunks;                  /* the arena */
  char *err;                      /* where messages go */
  size_t errlen;                  /* its size */
  RtStatus status;                /* the first failure's status */
} Rd;

/* ---- errors ----------------------------------------------------------- */

/* Records the failure (the first one wins) and returns -1. */
static int fail_at(Rd *r, size_t at, RtStatus st, const char *fmt, ...) {
  if (r->status) return -1;
  r->status = st;
  if (r->errlen) {
    int k = snprintf(r->err, r->errlen, "pickle byte %zu: ", at);
    if (k >= 0 && (size_t)k < r->errlen) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(r->err + k, r->errlen - (size_t)k, fmt, ap);
      va_end(ap);
    }
  }
  return -1;
}
#define FAIL(r, st, ...) fail_at(r, (r)->op_at, st, __VA_ARGS__)

/* `n` bytes of s for a message: printable ASCII kept, others as '?', at
 * most 60 (then "..."). */
static const char *shown(const uint8_t *s, size_t n, char *buf, size_t size) {
  size_t k = 0;
  for (size_t i = 0; i < n && k + 4 < size; i++) buf[k++] = s[i] >= 0x20 && s[i] < 0x7f ? (char)s[i] : '?';
  if (k + 4 >= size && k < n) memcpy(buf + k, "...", 3), k += 3;
  buf[k] = 0;
  return buf;
}

/* Every pickle opcode's name, for messages (those run here and those not). */
static const struct {
  int op;           /* the opcode byte */
  const char *name; /* pickletools' name */
} op_names[] = {
    {'(', "MARK"}, {'.', "STOP"}, {'0', "POP"}, {'1', "POP_MARK"}, {'2', "DUP"}, {'F', "FLOAT"}, {'I', "INT"},
    {'J', "BININT"}, {'K', "BININT1"}, {'L', "LONG"}, {'M', "BININT2"}, {'N', "NONE"}, {'P', "PERSID"},
    {'Q', "BINPERSID"}, {'R', "REDUCE"}, {'S', "STRING"}, {'T', "BINSTRING"}, {'U', "SHORT_BINSTRING"},
    {'V', "UNICODE"}, {'X', "BINUNICODE"}, {'a', "APPEND"}, {'b', "BUILD"}, {'c', "GLOBAL"}, {'d', "DICT"},
    {'}', "EMPTY_DICT"}, {'e', "APPENDS"}, {'g', "GET"}, {'h', "BINGET"}, {'i', "INST"}, {'j', "LONG_BINGET"},
    {'l', "LIST"}, {']', "EMPTY_LIST"}, {'o', "OBJ"}, {'p', "PUT"}, {'q', "BINPUT"}, {'r', "LONG_BINPUT"},
    {'s', "SETITEM"}, {'t', "TUPLE"}, {')', "EMPTY_TUPLE"}, {'u', "SETITEMS"}, {'G', "BINFLOAT"}, {'B', "BINBYTES"},
    {'C', "SHORT_BINBYTES"}, {0x80, "PROTO"}, {0x81, "NEWOBJ"}, {0x82, "EXT1"}, {0x83, "EXT2"}, {0x84, "EXT4"},
    {0x85, "TUPLE1"}, {0x86, "TUPLE2"}, {0x87, "TUPLE3"}, {0x88, "NEWTRUE"}, {0x89, "NEWFALSE"}, {0x8a, "LONG1"},
    {0x8b, "LONG4"}, {0x8c, "SHORT_BINUNICODE"}, {0x8d, "BINUNICODE8"}, {0x8e, "BINBYTES8"}, {0x8f, "EMPTY_SET"},
    {0x90, "ADDITEMS"}, {0x91, "FROZENSET"}, {0x92, "NEWOBJ_EX"}, {0x93, "STACK_GLOBAL"}, {0x94, "MEMOIZE"},
    {0x95, "FRAME"}, {0x96, "BYTEARRAY8"}, {0x97, "NEXT_BUFFER"}, {0x98, "READONLY_BUFFER"},
};

static const char *op_name(int op) {
  for (size_t i = 0; i < sizeof op_names / sizeof op_names[0]; i++)
    if (op_names[i].op == op) return op_names[i].name;
  return NULL;
}

/* ---- memory ----------------------------------------------------------- */

static void *arena(Rd *r, size_t bytes) {
  bytes = (bytes + 15) & ~(size_t)15;
  if (!bytes) bytes = 16;
  Chunk *c = r->chunks;
  if (!c || c->cap - c->used < bytes) {
    size_t cap = bytes > ((size_t)1 << 16) ? bytes : (size_t)1 << 16;
    if (cap > SIZE_MAX - CHUNK_HDR) return NULL;
    c = rt_alloc(CHUNK_HDR + cap);
    if (!c) return NULL;
    c->used = 0;
    c->cap = cap;
    c->next = r->chunks;
    r->chunks = c;
  }
  void *p = (unsigned char *)c + CHUNK_HDR + c->used;
  c->used += bytes;
  return p;
}

static void arena_free(Rd *r) {
  while (r->chunks) {
    Chunk *next = r->chunks->next;
    rt_free(r->chunks);
    r->chunks = next;
  }
}

/* Grows *arr (elements of `size`, *cap of them, from rt_alloc) to hold at
 * least `need`; 0 on success. */
static int grow(void **arr, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap : 16;
  while (n < need) {
    if (n > SIZE_MAX / 2 / size) return -1;
    n *= 2;
  }
  void *p = rt_alloc(n * size);
  if (!p) return -1;
  if (*cap) memcpy(p, *arr, *cap * size);
  rt_free(*arr);
  *arr = p;
  *cap = n;
  return 0;
}

static Obj *new_obj(Rd *r, int kind) {
  Obj *o = arena(r, sizeof *o);
  if (!o) return NULL;
  memset(o, 0, sizeof *o);
  o->kind = kind;
  o->at = r->op_at;
  return o;
}

/* Appends `k` items to a list or dict's items (arena-grown). */
static int add_items(Rd *r, Obj *o, Obj *const *items, size_t k) {
  if (o->nitems + k < o->nitems) return FAIL(r, RT_ERR_NOMEM, "out of memory");
  if (o->nitems + k > o->cap) {
    size_t cap = o->cap ? o->cap : 8;
    while (cap < o->nitems + k) {
      if (cap > SIZE_MAX / 2 / sizeof(Obj *)) return FAIL(r, RT_ERR_NOMEM, "out of memory");
      cap *= 2;
    }
    Obj **p = arena(r, cap * sizeof *p);
    if (!p) return FAIL(r, RT_ERR_NOMEM, "out of memory");
    if (o->nitems) memcpy(p, o->items, o->nitems * sizeof *p);
    o->items = p;
    o->cap = cap;
  }
  if (k) memcpy(o->items + o->nitems, items, k * sizeof *items);
  o->nitems += k;
  return 0;
}

/* ---- the stack -------------------------------------------------------- */

static int push(Rd *r, Obj *o) {
  if (!o) return FAIL(r, RT_ERR_NOMEM, "out of memory");
  if (grow((void **)&r->stack, &r->scap, r->sp + 1, sizeof *r->stack)) return FAIL(r, RT_ERR_NOMEM, "out of memory");
  r->stack[r->sp++] = o;
  return 0;
}

/* The stack depth at the innermost MARK (0 without one). */
static size_t floor_of(const Rd *r) { return r->nmarks ? r->marks[r->nmarks - 1] : 0; }

static Obj *pop(Rd *r, const char *op) {
  if (r->sp <= floor_of(r)) {
    FAIL(r, RT_ERR_FORMAT, "%s finds the stack empty (stack underflow)", op);
    return NULL;
  }
  return r->stack[--r->sp];
}

static Obj *top(Rd *r, const char *op) {
  if (r->sp <= floor_of(r)) {
    FAIL(r, RT_ERR_FORMAT, "%s finds the stack empty (stack underflow)", op);
    return NULL;
  }
  return r->stack[r->sp - 1];
}

/* Pops to the innermost MARK; *base = the depth there (items are
 * stack[*base..sp), still in place until the caller drops them). */
static int pop_mark(Rd *r, const char *op, size_t *base) {
  if (!r->nmarks) return FAIL(r, RT_ERR_FORMAT, "%s without a MARK before it", op);
  *base = r->marks[--r->nmarks];
  return 0;
}

static Obj *make_tuple(Rd *r, Obj *const *items, size_t k) {
  Obj *t = new_obj(r, K_TUPLE);
  if (!t) return NULL;
  if (k) {
    t->items = arena(r, k * sizeof *t->items);
    if (!t->items) return NULL;
    memcpy(t->items, items, k * sizeof *items);
  }
  t->nitems = k;
  return t;
}

static Obj *str_obj(Rd *r, int kind, const uint8_t *s, size_t n) {
  Obj *o = new_obj(r, kind);
  if (o) o->s = s, o->n = n;
  return o;
}

/* ---- reading the input ------------------------------------------------ */

static int need(Rd *r, uint64_t n, const char *op) {
  if ((uint64_t)(r->end - r->p) < n)
    return FAIL(r, RT_ERR_TRUNCATED, "%s needs %llu bytes, the pickle has %zu left", op, (unsigned long long)n,
                (size_t)(r->end - r->p));
  return 0;
}

static uint64_t le(const uint8_t *b, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | b[i];
  return v;
}

/* An unsigned little-endian length of `width` bytes, then that many bytes. */
static int counted(Rd *r, int width, const char *op, const uint8_t **s, size_t *n) {
  if (need(r, (uint64_t)width, op)) return -1;
  uint64_t len = le(r->p, width);
  r->p += width;
  if (need(r, len, op)) return -1;
  *s = r->p;
  *n = (size_t)len;
  r->p += len;
  return 0;
}

static int is_str(const Obj *o) { return o->kind == K_STR || o->kind == K_STR2; }
static int str_is(const Obj *o, const char *lit) {
  return is_str(o) && o->n == strlen(lit) && !memcmp(o->s, lit, o->n);
}

/* Strict UTF-8 of one code point at s[0..n): its length, or 0 when invalid;
 * *cp = the code point. */
static size_t utf8_one(const uint8_t *s, size_t n, uint32_t *cp) {
  uint8_t c = s[0];
  size_t k;
  uint32_t v, min;
  if (c < 0x80) return *cp = c, 1;
  if (c >= 0xc2 && c <= 0xdf) k = 2, v = c & 0x1f, min = 0x80;
  else if (c >= 0xe0 && c <= 0xef) k = 3, v = c & 0x0f, min = 0x800;
  else if (c >= 0xf0 && c <= 0xf4) k = 4, v = c & 0x07, min = 0x10000;
  else return 0;
  if (n < k) return 0;
  for (size_t i = 1; i < k; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    v = v << 6 | (s[i] & 0x3f);
  }
  if (v < min || v > 0x10ffff) return 0;
  *cp = v;
  return k;
}

static int utf8_valid(const uint8_t *s, size_t n) {
  uint32_t cp;
  for (size_t i = 0, k; i < n; i += k) {
    if (s[i] < 0x80) { /* the common cases inline: ASCII and 2-byte forms */
      k = 1;
      continue;
    }
    if (s[i] >= 0xc2 && s[i] <= 0xdf && i + 1 < n && (s[i + 1] & 0xc0) == 0x80) {
      k = 2;
      continue;
    }
    if (!(k = utf8_one(s + i, n - i, &cp))) return 0;
  }
  return 1;
}

/* ---- the objects numpy's callables make -------------------------------- */

static int int_arg(const Obj *o) { return o->kind == K_INT || o->kind == K_BOOL; }

static int np_dtype(const uint8_t *s, size_t n) {
  for (size_t i = 0; i < sizeof np_types / sizeof np_types[0]; i++)
    if (n == 2 && !memcmp(s, np_types[i].code, 2)) return np_types[i].dtype;
  return -1;
}

/* _codecs.encode(text, 'latin1'): the code points of the UTF-8 text, each
 * below 256, as bytes (how Python 3 pickles bytes with protocol 2). */
static Obj *latin1_bytes(Rd *r, const Obj *text) {
  uint8_t *out = arena(r, text->n);
  Obj *o = new_obj(r, K_BYTES);
  if (!out || !o) {
    fail_at(r, text->at, RT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  /* Branch-free over random data (raw floats are half bytes past 0x7f):
   * each step takes one ASCII byte or one 2-byte form of U+0080..U+00FF
   * (0xc2/0xc3 then a continuation byte) and notes whether it was neither;
   * the last byte is padded with a continuation byte that only a bad text
   * would use. */
  const uint8_t *t = text->s;
  size_t n = text->n, k = 0, i = 0;
  unsigned bad = 0;
  while (i < n) {
    unsigned c = t[i], next = i + 1 < n ? t[i + 1] : 0;
    unsigned hi = c >> 7; /* 1: a 2-byte form */
    bad |= hi & (((c & 0xfe) != 0xc2) | ((next & 0xc0) != 0x80));
    out[k++] = (uint8_t)(hi ? (c & 3) << 6 | (next & 0x3f) : c);
    i += 1 + hi;
  }
  if (bad) { /* find the first bad character for the message */
    uint32_t cp = 0;
    size_t len = 1;
    for (i = 0; i < n; i += len) {
      len = utf8_one(t + i, n - i, &cp);
      if (!len) {
        fail_at(r, text->at, RT_ERR_FORMAT, "the str given to _codecs.encode is not valid UTF-8 (at its byte %zu)", i);
        return NULL;
      }
      if (cp > 0xff) break;
    }
    fail_at(r, text->at, RT_ERR_FORMAT, "the str given to _codecs.encode holds U+%04X, which latin1 cannot encode",
            (unsigned)cp);
    return NULL;
  }
  o->s = out;
  o->n = k;
  return o;
}

/* The REDUCE of callable `f` with argument tuple `args`. */
static int reduce(Rd *r, const Obj *f, const Obj *args) {
  if (f->kind != K_GLOBAL)
    return FAIL(r, RT_ERR_FORMAT, "REDUCE calls %s (made at byte %zu), not a global", kind_names[f->kind], f->at);
  if (args->kind != K_TUPLE)
    return FAIL(r, RT_ERR_FORMAT, "REDUCE's arguments are %s (made at byte %zu), not a tuple", kind_names[args->kind],
                args->at);
  Obj *const *a = args->items;
  size_t na = args->nitems;
  if (f->i == G_RECONSTRUCT) {
    if (na != 3 || a[0]->kind != K_GLOBAL || a[0]->i != G_NDARRAY || a[1]->kind != K_TUPLE ||
        (a[2]->kind != K_BYTES && !is_str(a[2])))
      return FAIL(r, RT_ERR_FORMAT,
                  "numpy.core.multiarray._reconstruct wants (numpy.ndarray, shape tuple, bytes) as numpy pickles an "
                  "array, not these arguments (tuple made at byte %zu)",
                  args->at);
    return push(r, new_obj(r, K_ARRAY));
  }
  if (f->i == G_DTYPE) {
    if (na != 3 || !is_str(a[0]) || !int_arg(a[1]) || !int_arg(a[2]))
      return FAIL(r, RT_ERR_FORMAT, "numpy.dtype wants (str, align, copy) as numpy pickles a dtype (tuple made at byte %zu)",
                  args->at);
    int dt = np_dtype(a[0]->s, a[0]->n);
    if (dt < 0) {
      char buf[72];
      return FAIL(r, RT_ERR_DTYPE,
                  "numpy dtype '%s' is not supported (float32, float64, float16, int64, int32, int16, int8, uint8, "
                  "bool, uint16 as bfloat16)",
                  shown(a[0]->s, a[0]->n, buf, sizeof buf));
    }
    Obj *o = new_obj(r, K_DTYPE);
    if (o) o->dtype = dt, o->esize = rt_dtype_size(dt);
    return push(r, o);
  }
  if (f->i == G_ENCODE) {
    if (na != 2 || a[0]->kind != K_STR || !(str_is(a[1], "latin1") || str_is(a[1], "latin-1")))
      return FAIL(r, RT_ERR_FORMAT, "_codecs.encode wants (str, 'latin1') as Python 3 pickles bytes (tuple made at byte %zu)",
                  args->at);
    Obj *o = latin1_bytes(r, a[0]);
    return o ? push(r, o) : -1;
  }
  if (f->i == G_BYTES) {
    if (na) return FAIL(r, RT_ERR_FORMAT, "bytes() with arguments (Python pickles only b'' so, as bytes())");
    return push(r, str_obj(r, K_BYTES, r->p, 0));
  }
  return FAIL(r, RT_ERR_FORMAT, "REDUCE calls numpy.ndarray directly (numpy pickles arrays through _reconstruct)");
}

/* dtype.__setstate__((3, byteorder, None, None, None, elsize, align, flags
 * [, metadata])): only the byte order matters for plain numbers. */
static int build_dtype(Rd *r, Obj *d, const Obj *st) {
  Obj *const *s = st->items;
  if (st->kind != K_TUPLE || (st->nitems != 8 && st->nitems != 9) || s[0]->kind != K_INT || (s[0]->i != 3 && s[0]->i != 4) ||
      !is_str(s[1]) || s[1]->n != 1)
    return FAIL(r, RT_ERR_FORMAT, "the state of a numpy.dtype (made at byte %zu) is not (3, byteorder, ...) as numpy "
                "pickles it", d->at);
  if (s[2]->kind != K_NONE || s[3]->kind != K_NONE || s[4]->kind != K_NONE)
    return FAIL(r, RT_ERR_DTYPE, "the numpy.dtype made at byte %zu is a structured or subarray dtype, not a number",
                d->at);
  if (st->nitems == 9 && s[8]->kind != K_NONE && !(s[8]->kind == K_DICT && !s[8]->nitems))
    return FAIL(r, RT_ERR_DTYPE, "the numpy.dtype made at byte %zu carries metadata", d->at);
  char order = (char)s[1]->s[0];
  if (order == '>' && d->esize > 1)
    return FAIL(r, RT_ERR_DTYPE, "the numpy.dtype made at byte %zu is big-endian (save with arr.astype('<%s'))", d->at,
                rt_dtype_name(d->dtype));
  if (order != '<' && order != '|' && order != '=' && order != '>')
    return FAIL(r, RT_ERR_FORMAT, "the numpy.dtype made at byte %zu has byte order '%c'", d->at,
                order >= 0x20 && order < 0x7f ? order : '?');
  d->built = 1;
  return 0;
}

/* ndarray.__setstate__(([1,] shape, dtype, is_fortran, rawdata)). */
static int build_array(Rd *r, Obj *a, const Obj *st) {
  if (a->built) return FAIL(r, RT_ERR_FORMAT, "BUILD sets the state of the array made at byte %zu twice", a->at);
  size_t k = st->kind == K_TUPLE ? st->nitems : 0;
  Obj *const *s = st->items;
  if (k == 5) {
    if (s[0]->kind != K_INT || s[0]->i != 1)
      return FAIL(r, RT_ERR_FORMAT, "the state of the array made at byte %zu has version %s, numpy writes 1", a->at,
                  s[0]->kind == K_INT ? "other than 1" : "not an int");
    s++, k--;
  }
  if (k != 4 || s[0]->kind != K_TUPLE || s[1]->kind != K_DTYPE || !int_arg(s[2]) ||
      (s[3]->kind != K_BYTES && !is_str(s[3])))
    return FAIL(r, RT_ERR_FORMAT, "the state of the array made at byte %zu is not (1, shape, dtype, is_fortran, data) "
                "as numpy pickles it", a->at);
  const Obj *shape = s[0], *dt = s[1];
  if (!dt->built) /* its byte order is not known yet */
    return FAIL(r, RT_ERR_FORMAT, "the array made at byte %zu uses the numpy.dtype made at byte %zu before its state",
                a->at, dt->at);
  if (shape->nitems > RT_MAX_RANK)
    return FAIL(r, RT_ERR_FORMAT, "the array made at byte %zu has %zu dims, more than %d", a->at, shape->nitems,
                RT_MAX_RANK);
  a->rank = (int)shape->nitems;
  for (int i = 0; i < a->rank; i++) {
    if (shape->items[i]->kind != K_INT || shape->items[i]->i < 0)
      return FAIL(r, RT_ERR_FORMAT, "dim %d of the array made at byte %zu is not an int >= 0", i, a->at);
    a->dims[i] = shape->items[i]->i;
  }
  a->dtype = dt->dtype;
  a->esize = dt->esize;
  a->fortran = s[2]->i != 0;
  const Obj *data = s[3];
  if (data->kind == K_STR) { /* numpy encodes a str as latin1 */
    if (!(data = latin1_bytes(r, data))) return -1;
  }
  int64_t numel, bound, bytes;
  if (rt_size_numel(a->dims, a->rank, &numel, &bound) || rt_size_mul(bound, (int64_t)a->esize, &bytes))
    return FAIL(r, RT_ERR_FORMAT, "the shape of the array made at byte %zu overflows", a->at);
  if (!numel) bytes = 0;
  if ((uint64_t)bytes != (uint64_t)data->n)
    return FAIL(r, RT_ERR_FORMAT, "the array made at byte %zu (%s, %lld elements) needs %lld bytes of data, it has %zu",
                a->at, rt_dtype_name(a->dtype), (long long)numel, (long long)bytes, data->n);
  a->s = data->s;
  a->n = data->n;
  a->built = 1;
  return 0;
}

/* ---- the stack machine ------------------------------------------------- */

static int run_global(Rd *r, const uint8_t *mod, size_t nmod, const uint8_t *name, size_t nname) {
  if (!mod || !name) return FAIL(r, RT_ERR_FORMAT, "GLOBAL without a module or name");
  for (size_t i = 0; i < sizeof globals / sizeof globals[0]; i++)
    if (nmod == strlen(globals[i].module) && !memcmp(mod, globals[i].module, nmod) &&
        nname == strlen(globals[i].name) && !memcmp(name, globals[i].name, nname)) {
      Obj *o = new_obj(r, K_GLOBAL);
      if (o) o->i = globals[i].which;
      return push(r, o);
    }
  char b1[72], b2[72];
  return FAIL(r, RT_ERR_FORMAT,
              "global '%s.%s' is not allowed: a checkpoint holds only numpy arrays (numpy.core.multiarray._reconstruct, "
              "numpy.ndarray, numpy.dtype, _codecs.encode, bytes)",
              shown(mod, nmod, b1, sizeof b1), shown(name, nname, b2, sizeof b2));
}

/* Finds the newline that ends a GLOBAL line. */
static int line(Rd *r, const uint8_t **s, size_t *n) {
  const uint8_t *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
  if (!nl) return FAIL(r, RT_ERR_TRUNCATED, "GLOBAL's name has no end (no newline)");
  *s = r->p;
  *n = (size_t)(nl - r->p);
  r->p = nl + 1;
  return 0;
}

static int memo_put(Rd *r, uint64_t idx) {
  Obj *o = top(r, "a memo put");
  if (!o) return -1;
  /* a pickler numbers its memo entries in order, one opcode each: an index
   * no earlier byte could have reached is malformed */
  if (idx > r->nstored && idx >= (uint64_t)r->op_at)
    return FAIL(r, RT_ERR_FORMAT, "memo index %llu is beyond what the pickle's first %zu bytes can have stored",
                (unsigned long long)idx, r->op_at);
  if (idx >= r->mlen) {
    size_t cap = r->mlen;
    if (grow((void **)&r->memo, &cap, (size_t)idx + 1, sizeof *r->memo)) return FAIL(r, RT_ERR_NOMEM, "out of memory");
    memset(r->memo + r->mlen, 0, (cap - r->mlen) * sizeof *r->memo);
    r->mlen = cap;
  }
  r->nstored += !r->memo[idx];
  r->memo[idx] = o;
  return 0;
}

static int memo_get(Rd *r, uint64_t idx) {
  if (idx >= r->mlen || !r->memo[idx])
    return FAIL(r, RT_ERR_FORMAT, "memo index %llu was never stored", (unsigned long long)idx);
  return push(r, r->memo[idx]);
}

/* Runs one opcode: 0, 1 at STOP (*result set), or -status. */
static int step(Rd *r, Obj **result) {
  if (r->p >= r->end) return FAIL(r, RT_ERR_TRUNCATED, "the pickle ends before its STOP opcode");
  r->op_at = (size_t)(r->p - r->start);
  int op = *r->p++;
  const char *name = op_name(op);
  const uint8_t *s = NULL, *s2 = NULL;
  size_t n = 0, n2 = 0, base = 0;
  Obj *a, *b;
  switch (op) {
  case 0x80: /* PROTO */
    if (need(r, 1, name)) return -1;
    if (*r->p < 2 || *r->p > 5) return FAIL(r, RT_ERR_FORMAT, "pickle protocol %d (Paddle writes 2, 3 or 4)", *r->p);
    r->p++;
    return 0;
  case 0x95: /* FRAME: only a hint for buffering here */
    if (need(r, 8, name)) return -1;
    if (le(r->p, 8) > (uint64_t)(r->end - r->p - 8))
      return FAIL(r, RT_ERR_TRUNCATED, "FRAME of %llu bytes, the pickle has %zu left", (unsigned long long)le(r->p, 8),
                  (size_t)(r->end - r->p - 8));
    r->p += 8;
    return 0;
  case '.': /* STOP */
    if (!(*result = pop(r, name))) return -1;
    return 1;
  case '(': /* MARK */
    if (grow((void **)&r->marks, &r->mcap, r->nmarks + 1, sizeof *r->marks)) return FAIL(r, RT_ERR_NOMEM, "out of memory");
    r->marks[r->nmarks++] = r->sp;
    return 0;
  case 'N': return push(r, new_obj(r, K_NONE));
  case 0x88: case 0x89: /* NEWTRUE, NEWFALSE */
    if ((a = new_obj(r, K_BOOL))) a->i = op == 0x88;
    return push(r, a);
  case 'K': case 'M': case 'J': { /* BININT1, BININT2, BININT */
    int w = op == 'K' ? 1 : op == 'M' ? 2 : 4;
    if (need(r, (uint64_t)w, name)) return -1;
    uint64_t v = le(r->p, w);
    r->p += w;
    if ((a = new_obj(r, K_INT))) a->i = op == 'J' ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v;
    return push(r, a);
  }
  case 0x8a: case 0x8b: { /* LONG1, LONG4: little-endian two's complement */
    if (counted(r, op == 0x8a ? 1 : 4, name, &s, &n)) return -1;
    if (n > 8) return FAIL(r, RT_ERR_FORMAT, "%s integer of %zu bytes does not fit in 64 bits", name, n);
    uint64_t v = n ? le(s, (int)n) : 0;
    if (n && n < 8 && (s[n - 1] & 0x80)) v |= ~(uint64_t)0 << (8 * n);
    if ((a = new_obj(r, K_INT))) a->i = (int64_t)v;
    return push(r, a);
  }
  case 'X': case 0x8c: case 0x8d: /* BINUNICODE, SHORT_BINUNICODE, BINUNICODE8 */
    if (counted(r, op == 0x8c ? 1 : op == 'X' ? 4 : 8, name, &s, &n)) return -1;
    return push(r, str_obj(r, K_STR, s, n));
  case 'B': case 'C': case 0x8e: /* BINBYTES, SHORT_BINBYTES, BINBYTES8 */
    if (counted(r, op == 'C' ? 1 : op == 'B' ? 4 : 8, name, &s, &n)) return -1;
    return push(r, str_obj(r, K_BYTES, s, n));
  case 'T': case 'U': /* BINSTRING, SHORT_BINSTRING: a Python 2 str */
    if (op == 'T' && need(r, 4, name)) return -1;
    if (op == 'T' && (r->p[3] & 0x80)) return FAIL(r, RT_ERR_FORMAT, "BINSTRING of negative length");
    if (counted(r, op == 'U' ? 1 : 4, name, &s, &n)) return -1;
    return push(r, str_obj(r, K_STR2, s, n));
  case ')': return push(r, make_tuple(r, NULL, 0));
  case 0x85: case 0x86: case 0x87: { /* TUPLE1..3 */
    size_t k = (size_t)(op - 0x84);
    if (r->sp < floor_of(r) + k) return FAIL(r, RT_ERR_FORMAT, "%s finds fewer than %zu items (stack underflow)", name, k);
    r->sp -= k;
    return push(r, make_tuple(r, r->stack + r->sp, k));
  }
  case 't': /* TUPLE */
    if (pop_mark(r, name, &base)) return -1;
    a = make_tuple(r, r->stack + base, r->sp - base);
    r->sp = base;
    return push(r, a);
  case '}': case ']': /* EMPTY_DICT, EMPTY_LIST */
    return push(r, new_obj(r, op == '}' ? K_DICT : K_LIST));
  case 'd': case 'l': /* DICT, LIST */
    if (pop_mark(r, name, &base)) return -1;
    if (op == 'd' && (r->sp - base) % 2) return FAIL(r, RT_ERR_FORMAT, "DICT of an odd number of items");
    if (!(a = new_obj(r, op == 'd' ? K_DICT : K_LIST))) return FAIL(r, RT_ERR_NOMEM, "out of memory");
    if (add_items(r, a, r->stack + base, r->sp - base)) return -1;
    r->sp = base;
    return push(r, a);
  case 's': case 'a': /* SETITEM, APPEND */
    if (r->sp < floor_of(r) + (op == 's' ? 3 : 2))
      return FAIL(r, RT_ERR_FORMAT, "%s finds too few items (stack underflow)", name);
    n = op == 's' ? 2 : 1;
    a = r->stack[r->sp - n - 1];
    if (a->kind != (op == 's' ? K_DICT : K_LIST))
      return FAIL(r, RT_ERR_FORMAT, "%s into %s (made at byte %zu)", name, kind_names[a->kind], a->at);
    if (add_items(r, a, r->stack + r->sp - n, n)) return -1;
    r->sp -= n;
    return 0;
  case 'u': case 'e': /* SETITEMS, APPENDS */
    if (pop_mark(r, name, &base)) return -1;
    if (base <= floor_of(r)) return FAIL(r, RT_ERR_FORMAT, "%s finds nothing to add to below its MARK", name);
    a = r->stack[base - 1];
    if (a->kind != (op == 'u' ? K_DICT : K_LIST))
      return FAIL(r, RT_ERR_FORMAT, "%s into %s (made at byte %zu)", name, kind_names[a->kind], a->at);
    if (op == 'u' && (r->sp - base) % 2) return FAIL(r, RT_ERR_FORMAT, "SETITEMS of an odd number of items");
    if (add_items(r, a, r->stack + base, r->sp - base)) return -1;
    r->sp = base;
    return 0;
  case 'q': case 'r': /* BINPUT, LONG_BINPUT */
    if (need(r, op == 'q' ? 1 : 4, name)) return -1;
    n = op == 'q' ? 1 : 4;
    r->p += n;
    return memo_put(r, le(r->p - n, (int)n));
  case 0x94: return memo_put(r, r->nstored); /* MEMOIZE */
  case 'h': case 'j': /* BINGET, LONG_BINGET */
    if (need(r, op == 'h' ? 1 : 4, name)) return -1;
    n = op == 'h' ? 1 : 4;
    r->p += n;
    return memo_get(r, le(r->p - n, (int)n));
  case 'c': /* GLOBAL "module\nname\n" */
    if (line(r, &s, &n) || line(r, &s2, &n2)) return -1;
    return run_global(r, s, n, s2, n2);
  case 0x93: /* STACK_GLOBAL */
    if (!(b = pop(r, name)) || !(a = pop(r, name))) return -1;
    if (a->kind != K_STR || b->kind != K_STR) return FAIL(r, RT_ERR_FORMAT, "STACK_GLOBAL of non-str module or name");
    return run_global(r, a->s, a->n, b->s, b->n);
  case 'R': /* REDUCE */
    if (!(b = pop(r, name)) || !(a = pop(r, name))) return -1;
    return reduce(r, a, b);
  case 'b': /* BUILD */
    if (!(b = pop(r, name)) || !(a = top(r, name))) return -1;
    if (a->kind == K_DTYPE) return build_dtype(r, a, b);
    if (a->kind == K_ARRAY) return build_array(r, a, b);
    return FAIL(r, RT_ERR_FORMAT, "BUILD on %s (made at byte %zu)", kind_names[a->kind], a->at);
  default:
    if (name)
      return FAIL(r, RT_ERR_FORMAT, "opcode %s is not supported: a Paddle checkpoint is a dict of numpy arrays", name);
    return FAIL(r, RT_ERR_FORMAT, "unknown opcode 0x%02x", op);
  }
}

/* ---- the dict to entries ------------------------------------------------ */

static const char big_key[] = "UnpackBigParamInfor@@"; /* Paddle's split of big arrays */

/* A key as a NUL-terminated UTF-8 copy (a Python 2 str is latin1). */
static char *key_name(Rd *r, const Obj *k) {
  if (memchr(k->s, 0, k->n) || (k->kind == K_STR && !utf8_valid(k->s, k->n))) {
    fail_at(r, k->at, RT_ERR_FORMAT, "an array name holds a NUL or is not valid UTF-8");
    return NULL;
  }
  size_t n = k->n;
  if (k->kind == K_STR2)
    for (size_t i = 0; i < k->n; i++) n += k->s[i] >= 0x80;
  if (n == SIZE_MAX) return NULL;
  char *p = rt_alloc(n + 1);
  if (!p) {
    fail_at(r, k->at, RT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  size_t j = 0;
  for (size_t i = 0; i < k->n; i++) {
    uint8_t c = k->s[i];
    if (k->kind == K_STR2 && c >= 0x80) p[j++] = (char)(0xc0 | c >> 6), c = 0x80 | (c & 0x3f);
    p[j++] = (char)c;
  }
  p[j] = 0;
  return p;
}

/* Copies array `a` into entry `e` in C order (e->name set by the caller). */
static int fill(Rd *r, const Obj *a, RtPickleEntry *e) {
  e->dtype = a->dtype;
  e->rank = a->rank;
  memcpy(e->dims, a->dims, sizeof e->dims);
  e->bytes = a->n;
  e->data = rt_alloc(a->n ? a->n : 1);
  if (!e->data) return fail_at(r, a->at, RT_ERR_NOMEM, "out of memory for an array of %zu bytes", a->n);
  if (!a->fortran || a->rank < 2 || !a->n) {
    if (a->n) memcpy(e->data, a->s, a->n);
    return 0;
  }
  /* Fortran order: element (i0, .., ik) sits at i0 + d0 * (i1 + d1 * ...) */
  int64_t idx[RT_MAX_RANK] = {0}, fstride[RT_MAX_RANK];
  fstride[0] = 1;
  for (int d = 1; d < a->rank; d++) fstride[d] = fstride[d - 1] * a->dims[d - 1];
  size_t count = a->n / a->esize, src = 0;
  unsigned char *out = e->data;
  for (size_t i = 0; i < count; i++) {
    memcpy(out + i * a->esize, a->s + src * a->esize, a->esize);
    for (int d = a->rank - 1; d >= 0; d--) { /* next C-order index */
      src += (size_t)fstride[d];
      if (++idx[d] < a->dims[d]) break;
      src -= (size_t)(fstride[d] * idx[d]);
      idx[d] = 0;
    }
  }
  return 0;
}

static int cmp_keys(const void *x, const void *y) {
  const Obj *a = *(Obj *const *)x, *b = *(Obj *const *)y;
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  int c = a->n ? memcmp(a->s, b->s, a->n) : 0;
  return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* The value of key `lit` in dict d, or NULL. */
static const Obj *lookup(const Obj *d, const char *lit) {
  for (size_t i = 0; i + 1 < d->nitems; i += 2)
    if (str_is(d->items[i], lit)) return d->items[i + 1];
  return NULL;
}

/* Index of the pair whose key is str `k` in dict d, or -1. */
static long find_pair(const Obj *d, const Obj *k) {
  for (size_t i = 0; i + 1 < d->nitems; i += 2)
    if (d->items[i]->n == k->n && !memcmp(d->items[i]->s, k->s, k->n)) return (long)(i / 2);
  return -1;
}

/* Checks Paddle's big-array info {name: {"OriginShape": tuple, "slices":
 * [names]}} against the dict and marks the slices' pairs in `used`; *joined
 * = its count. */
static int check_split(Rd *r, const Obj *root, const Obj *info, unsigned char *used, size_t *joined) {
  if (info->kind != K_DICT)
    return fail_at(r, info->at, RT_ERR_FORMAT, "%s is %s, not a dict", big_key, kind_names[info->kind]);
  for (size_t i = 0; i + 1 < info->nitems; i += 2) {
    const Obj *k = info->items[i], *v = info->items[i + 1], *shape, *slices;
    if (!is_str(k) || v->kind != K_DICT || !(shape = lookup(v, "OriginShape")) || !(slices = lookup(v, "slices")) ||
        shape->kind != K_TUPLE || slices->kind != K_LIST || shape->nitems > RT_MAX_RANK || !slices->nitems)
      return fail_at(r, v->at, RT_ERR_FORMAT,
                     "entry %zu of %s is not name: {'OriginShape': shape, 'slices': [names]} as Paddle writes it", i / 2,
                     big_key);
    for (size_t j = 0; j < shape->nitems; j++)
      if (shape->items[j]->kind != K_INT || shape->items[j]->i < 0)
        return fail_at(r, shape->at, RT_ERR_FORMAT, "%s: an OriginShape dim is not an int >= 0", big_key);
    for (size_t j = 0; j < slices->nitems; j++) {
      const Obj *sk = slices->items[j];
      long at = is_str(sk) ? find_pair(root, sk) : -1;
      char buf[72];
      if (at < 0 || root->items[2 * at + 1]->kind != K_ARRAY)
        return fail_at(r, sk->at, RT_ERR_FORMAT, "%s names slice '%s', which is not an array of the dict", big_key,
                       is_str(sk) ? shown(sk->s, sk->n, buf, sizeof buf) : "?");
      if (used[at]) return fail_at(r, sk->at, RT_ERR_FORMAT, "%s names a slice twice", big_key);
      used[at] = 1;
    }
  }
  *joined = info->nitems / 2;
  return 0;
}

/* The joined array of split entry `i` of info into e. */
static int join(Rd *r, const Obj *root, const Obj *info, size_t i, RtPickleEntry *e) {
  const Obj *k = info->items[2 * i], *v = info->items[2 * i + 1];
  const Obj *shape = lookup(v, "OriginShape"), *slices = lookup(v, "slices");
  e->rank = (int)shape->nitems;
  for (int d = 0; d < e->rank; d++) e->dims[d] = shape->items[d]->i;
  int64_t numel = -1, total = 0;
  const Obj *first = root->items[2 * find_pair(root, slices->items[0]) + 1];
  e->dtype = first->dtype;
  for (size_t j = 0; j < slices->nitems; j++) {
    const Obj *a = root->items[2 * find_pair(root, slices->items[j]) + 1];
    char buf[72];
    if (a->rank != 1 || a->dtype != first->dtype)
      return fail_at(r, a->at, RT_ERR_FORMAT, "slice %zu of the split array '%s' is not 1-D %s", j,
                     shown(k->s, k->n, buf, sizeof buf), rt_dtype_name(first->dtype));
    total += a->dims[0];
  }
  if (rt_size_numel(e->dims, e->rank, &numel, NULL) || numel != total)
    return fail_at(r, v->at, RT_ERR_FORMAT, "%s: the slices hold %lld elements, OriginShape %lld", big_key,
                   (long long)total, (long long)numel);
  e->bytes = (size_t)total * first->esize;
  e->data = rt_alloc(e->bytes ? e->bytes : 1);
  if (!e->data) return fail_at(r, v->at, RT_ERR_NOMEM, "out of memory for an array of %zu bytes", e->bytes);
  size_t off = 0;
  for (size_t j = 0; j < slices->nitems; j++) {
    const Obj *a = root->items[2 * find_pair(root, slices->items[j]) + 1];
    if (a->n) memcpy((unsigned char *)e->data + off, a->s, a->n);
    off += a->n;
  }
  return 0;
}

/* Duplicate keys: sorted copies side by side. */
static int check_unique(Rd *r, const Obj *root, size_t npairs) {
  if (npairs < 2) return 0;
  Obj **keys = rt_alloc(npairs * sizeof *keys);
  if (!keys) return fail_at(r, root->at, RT_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < npairs; i++) keys[i] = root->items[2 * i];
  qsort(keys, npairs, sizeof *keys, cmp_keys);
  int st = 0;
  for (size_t i = 1; i < npairs && !st; i++)
    if (keys[i]->n == keys[i - 1]->n && !memcmp(keys[i]->s, keys[i - 1]->s, keys[i]->n)) {
      char buf[72];
      st = fail_at(r, keys[i]->at, RT_ERR_FORMAT, "key '%s' appears twice in the dict",
                   shown(keys[i]->s, keys[i]->n, buf, sizeof buf));
    }
  rt_free(keys);
  return st;
}

/* Checks that root is {str: built ndarray} (and Paddle's split info, whose
 * pair index goes to *info_at, or npairs without one). */
static int check_dict(Rd *r, const Obj *root, size_t *info_at) {
  if (root->kind != K_DICT)
    return fail_at(r, root->at, RT_ERR_FORMAT, "the pickle holds %s, not a dict of numpy arrays",
                   kind_names[root->kind]);
  size_t npairs = root->nitems / 2;
  *info_at = npairs;
  for (size_t i = 0; i < npairs; i++) {
    const Obj *k = root->items[2 * i], *v = root->items[2 * i + 1];
    char buf[72];
    if (!is_str(k))
      return fail_at(r, k->at, RT_ERR_FORMAT, "key %zu of the dict is %s, not a str", i, kind_names[k->kind]);
    if (memchr(k->s, 0, k->n)) return fail_at(r, k->at, RT_ERR_FORMAT, "key %zu of the dict holds a NUL", i);
    if (k->kind == K_STR && !utf8_valid(k->s, k->n))
      return fail_at(r, k->at, RT_ERR_FORMAT, "key %zu of the dict is not valid UTF-8", i);
    if (str_is(k, big_key)) {
      *info_at = i;
      continue;
    }
    if (str_is(k, "StructuredToParameterName@@"))
      return fail_at(r, k->at, RT_ERR_FORMAT,
                     "this is a dygraph Layer's state_dict (paddle.save, key StructuredToParameterName@@), not "
                     "paddle.static.save's {var name: array}");
    if (v->kind != K_ARRAY)
      return fail_at(r, v->at, RT_ERR_FORMAT, "the value of '%s' is %s, not a numpy.ndarray",
                     shown(k->s, k->n, buf, sizeof buf), kind_names[v->kind]);
    if (!v->built)
      return fail_at(r, v->at, RT_ERR_FORMAT, "the array '%s' never had its state set (no BUILD)",
                     shown(k->s, k->n, buf, sizeof buf));
  }
  return check_unique(r, root, npairs);
}

static int finish(Rd *r, const Obj *root, RtPickleEntry **out, int *count) {
  size_t info_at = 0, joined = 0, nout = 0;
  if (check_dict(r, root, &info_at)) return -1;
  size_t npairs = root->nitems / 2;
  const Obj *info = info_at < npairs ? root->items[2 * info_at + 1] : NULL;
  unsigned char *used = rt_calloc(npairs + 1, 1);
  if (!used) return fail_at(r, root->at, RT_ERR_NOMEM, "out of memory");
  int st = 0;
  if (info) {
    used[info_at] = 1;
    st = check_split(r, root, info, used, &joined);
    for (size_t i = 0; !st && i < joined; i++)
      if (find_pair(root, info->items[2 * i]) >= 0 || find_pair(info, info->items[2 * i]) != (long)i) {
        char buf[72];
        st = fail_at(r, info->items[2 * i]->at, RT_ERR_FORMAT, "%s splits '%s' twice or the dict also holds it whole",
                     big_key, shown(info->items[2 * i]->s, info->items[2 * i]->n, buf, sizeof buf));
      }
  }
  for (size_t i = 0; i < npairs; i++) nout += !used[i];
  nout += joined;
  if (!st && nout > INT_MAX) st = fail_at(r, root->at, RT_ERR_FORMAT, "the dict holds too many arrays");
  RtPickleEntry *e = NULL;
  if (!st && !(e = rt_calloc(nout + 1, sizeof *e))) st = fail_at(r, root->at, RT_ERR_NOMEM, "out of memory");
  size_t k = 0;
  for (size_t i = 0; e && !st && i < npairs; i++) {
    if (used[i]) continue;
    const Obj *key = root->items[2 * i];
    st = (e[k].name = key_name(r, key)) ? fill(r, root->items[2 * i + 1], &e[k]) : -1;
    k++;
  }
  for (size_t i = 0; e && !st && i < joined; i++, k++)
    st = (e[k].name = key_name(r, info->items[2 * i])) ? join(r, root, info, i, &e[k]) : -1;
  rt_free(used);
  if (st) {
    rt_pickle_free(e, (int)k);
    return -1;
  }
  *out = e;
  *count = (int)nout;
  return 0;
}

RtStatus rt_pickle_read_arrays(const void *bytes, size_t len, RtPickleEntry **out, int *count, char *err,
                               size_t errlen) {
  Rd r;
  memset(&r, 0, sizeof r);
  r.start = r.p = bytes;
  r.end = r.start + len;
  r.err = err;
  r.errlen = errlen;
  if (errlen) err[0] = 0;
  *out = NULL;
  *count = 0;
  Obj *root = NULL;
  int st;
  if (!len) st = FAIL(&r, RT_ERR_TRUNCATED, "empty file, not a pickle");
  else if (r.start[0] != 0x80)
    st = FAIL(&r, RT_ERR_FORMAT, "not a binary pickle (no PROTO opcode; Paddle writes protocols 2 to 4)");
  else if (grow((void **)&r.stack, &r.scap, 16, sizeof *r.stack)) /* never NULL: stack + depth is defined */
    st = FAIL(&r, RT_ERR_NOMEM, "out of memory");
  else
    while (!(st = step(&r, &root))) {
    }
  if (st == 1) st = root ? finish(&r, root, out, count) : -1;
  arena_free(&r);
  rt_free(r.stack);
  rt_free(r.marks);
  rt_free(r.memo);
  if (!st) return RT_OK;
  if (!r.status) fail_at(&r, r.op_at, RT_ERR_NOMEM, "out of memory");
  return r.status;
}

RtStatus rt_pickle_load(const char *path, RtPickleEntry **out, int *count, char *err, size_t errlen) {
  unsigned char *data;
  size_t len;
  *out = NULL;
  *count = 0;
  RtStatus st = rt_read_file(path, &data, &len, err, errlen);
  if (st) return st;
  char why[400];
  st = rt_pickle_read_arrays(data, len, out, count, why, sizeof why);
  rt_free(data);
  if (st) snprintf(err, errlen, "%s: %s", path, why);
  return st;
}

void rt_pickle_free(RtPickleEntry *entries, int count) {
  if (!entries) return;
  for (int i = 0; i < count; i++) {
    rt_free(entries[i].name);
    rt_free(entries[i].data);
  }
  rt_free(entries);
}
