/* The IR as text (see ir_text.h): the dump, and the parser that turns text
 * back into a ProgramDesc the ordinary loader reads. */
#include "ir_text.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attr.h"
#include "diag.h"
#include "util.h"

static int plain_char(char c) { return c && (isalnum((unsigned char)c) || strchr("_.@/-", c)); }

static void put_name(FILE *f, const char *s) {
  int plain = *s != 0;
  for (const char *p = s; *p && plain; p++) plain = plain_char(*p);
  if (plain) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (const char *p = s; *p; p++) {
    if (*p == '"' || *p == '\\') fputc('\\', f);
    fputc(*p, f);
  }
  fputc('"', f);
}

/* ---- dump ---- */

static void put_shape(FILE *f, const Shape *s) {
  fputc('[', f);
  for (int i = 0; i < s->rank; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)s->d[i]);
  fputc(']', f);
}

enum { SHOW_MAX = 8 }; /* parameters this small are printed with their values */

/* " = [v, ...]" for a small loaded float32 / int32 / int64 parameter. */
static void put_small_value(FILE *f, const Var *v) {
  int64_t n = shape_numel(&v->shape);
  if (!(v->flags & VAR_PARAM) || !(v->flags & VAR_LOADED) || !v->param_data || n < 1 || n > SHOW_MAX) return;
  if (v->dtype != RT_DT_FP32 && v->dtype != RT_DT_INT32 && v->dtype != RT_DT_INT64) return;
  fputs(" = [", f);
  for (int64_t i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    if (v->dtype == RT_DT_FP32) {
      float x;
      memcpy(&x, v->param_data + i * 4, 4);
      fprintf(f, "%.9g", x);
    } else if (v->dtype == RT_DT_INT32) {
      int32_t x;
      memcpy(&x, v->param_data + i * 4, 4);
      fprintf(f, "%d", x);
    } else {
      int64_t x;
      memcpy(&x, v->param_data + i * 8, 8);
      fprintf(f, "%lld", (long long)x);
    }
  }
  fputc(']', f);
}

static void put_var(const Graph *g, FILE *f, const Var *v) {
  fputs("var ", f);
  put_name(f, v->name);
  fputs(": ", f);
  if (v->vtype == VT_FEED_MINIBATCH) fputs("feed_list", f);
  else if (v->vtype == VT_FETCH_LIST) fputs("fetch_list", f);
  else if (v->vtype != VT_LOD_TENSOR) fprintf(f, "vartype(%d)", v->vtype);
  else {
    const char *dt = rt_dtype_name(v->dtype);
    if (dt) fputs(dt, f);
    else fprintf(f, "dtype(%d)", v->dtype);
    if (v->shape.rank >= 0) put_shape(f, &v->shape);
  }
  if (v->flags & VAR_FEED) fprintf(f, " feed %d", v->feed_col);
  if (v->flags & VAR_FETCH) fprintf(f, " fetch %d", v->fetch_col);
  if (v->flags & VAR_PARAM) fputs(" param", f);
  else if (v->flags & VAR_PERSISTABLE) fputs(" persistable", f);
  put_small_value(f, v);
  (void)g;
  fputc('\n', f);
}

static void put_float(FILE *f, double v, char suffix) {
  char buf[40];
  snprintf(buf, sizeof buf, suffix == 'f' ? "%.9g" : "%.17g", v);
  if (!strpbrk(buf, ".eni")) strcat(buf, ".0"); /* keep it a float: not inf/nan/exponent */
  fprintf(f, "%s%c", buf, suffix);
}

static void put_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if (*s == '\n') fputs("\\n", f);
    else fputc(*s, f);
  }
  fputc('"', f);
}

void ir_attr_write(FILE *f, const OpAttr *a) {
  switch (a->type) {
    case AT_INT: fprintf(f, "%d", a->i); return;
    case AT_LONG: fprintf(f, "%lldL", (long long)a->l); return;
    case AT_FLOAT: put_float(f, a->f, 'f'); return;
    case AT_FLOAT64: put_float(f, a->float64, 'd'); return;
    case AT_BOOLEAN: fputs(a->b ? "true" : "false", f); return;
    case AT_STRING: put_string(f, a->s); return;
    case AT_BLOCK: fprintf(f, "block(%d)", a->block_idx); return;
    case AT_SCALAR:
      if (!a->scalar) fputs("scalar()", f);
      else if (a->scalar->type == 1) fprintf(f, "scalar(%s)", a->scalar->b ? "true" : "false");
      else if (a->scalar->type == 2) fprintf(f, "scalar(%lldL)", (long long)a->scalar->i);
      else fputs("scalar(", f), put_float(f, a->scalar->r, 'd'), fputc(')', f);
      return;
    case AT_VAR: fputs("var(", f), put_name(f, a->var_name ? a->var_name : ""), fputc(')', f); return;
    default: break;
  }
  const char *kind = a->type == AT_INTS ? "ints" : a->type == AT_LONGS ? "longs" : a->type == AT_FLOATS ? "floats"
                     : a->type == AT_FLOAT64S ? "float64s" : a->type == AT_BOOLEANS ? "bools"
                     : a->type == AT_STRINGS ? "strings" : a->type == AT_BLOCKS ? "blocks" : a->type == AT_VARS ? "vars"
                     : NULL;
  if (!kind) {
    fprintf(f, "unsupported(%d)", a->type);
    return;
  }
  size_t n = a->type == AT_INTS ? a->n_ints : a->type == AT_LONGS ? a->n_longs : a->type == AT_FLOATS ? a->n_floats
             : a->type == AT_FLOAT64S ? a->n_float64s : a->type == AT_BOOLEANS ? a->n_bools
             : a->type == AT_STRINGS ? a->n_strings : a->type == AT_BLOCKS ? a->n_blocks_idx : a->n_vars_name;
  fprintf(f, "%s[", kind);
  for (size_t i = 0; i < n; i++) {
    if (i) fputs(", ", f);
    switch (a->type) {
      case AT_INTS: fprintf(f, "%d", a->ints[i]); break;
      case AT_LONGS: fprintf(f, "%lld", (long long)a->longs[i]); break;
      case AT_FLOATS: put_float(f, a->floats[i], 'f'); break;
      case AT_FLOAT64S: put_float(f, a->float64s[i], 'd'); break;
      case AT_BOOLEANS: fputs(a->bools[i] ? "true" : "false", f); break;
      case AT_STRINGS: put_string(f, a->strings[i]); break;
      case AT_BLOCKS: fprintf(f, "%d", a->blocks_idx[i]); break;
      default: put_name(f, a->vars_name[i]); break;
    }
  }
  fputc(']', f);
}

static void put_slots(const Graph *g, FILE *f, const Slot *slots, int n) {
  fputc('(', f);
  for (int s = 0; s < n; s++) {
    fprintf(f, "%s%s: ", s ? ", " : "", slots[s].name);
    if (slots[s].n != 1) fputc('[', f);
    for (int a = 0; a < slots[s].n; a++) {
      if (a) fputs(", ", f);
      put_name(f, slots[s].vars[a] >= 0 ? g->vars[slots[s].vars[a]].name : "@EMPTY@");
    }
    if (slots[s].n != 1) fputc(']', f);
  }
  fputc(')', f);
}

/* Attributes sorted by name, so that the dump does not depend on the order
 * a pass added them in. */
static int cmp_attr(const void *x, const void *y) {
  return strcmp((*(const OpAttr *const *)x)->name, (*(const OpAttr *const *)y)->name);
}

static void put_op(const Graph *g, FILE *f, const Op *op) {
  fprintf(f, "op %s", op->type);
  put_slots(g, f, op->in, op->nin);
  fputs(" -> ", f);
  put_slots(g, f, op->out, op->nout);
  const OpAttr **attrs = pool_alloc(sizeof *attrs * (op->desc->n_attrs + 1));
  size_t n = 0;
  for (size_t i = 0; i < op->desc->n_attrs; i++)
    if (op->desc->attrs[i]->name && !attr_is_bookkeeping(op->desc->attrs[i]->name)) attrs[n++] = op->desc->attrs[i];
  qsort(attrs, n, sizeof *attrs, cmp_attr);
  if (n) {
    fputs(" {", f);
    for (size_t i = 0; i < n; i++) {
      fprintf(f, "%s%s: ", i ? ", " : "", attrs[i]->name);
      ir_attr_write(f, attrs[i]);
    }
    fputc('}', f);
  }
  if (op->nfused) {
    fputs("  # fuses", f);
    for (int i = 0; i < op->nfused; i++)
      fprintf(f, "%s %s#%d", i ? "," : "", g->ops[op->fused[i]].type, g->ops[op->fused[i]].index);
  }
  fputc('\n', f);
}

void ir_dump(const Graph *g, FILE *f) {
  const Block *b = &g->blocks[0];
  unsigned char *used = pool_alloc((size_t)g->nvars + 1);
  for (int i = 0; i < g->nfeeds; i++) used[g->feeds[i]] = 1;
  for (int i = 0; i < g->nfetches; i++) used[g->fetches[i]] = 1;
  for (int k = 0; k < b->nops; k++) {
    const Op *op = &g->ops[b->ops[k]];
    for (int side = 0; side < 2; side++) {
      const Slot *slots = side ? op->out : op->in;
      for (int s = 0; s < (side ? op->nout : op->nin); s++)
        for (int a = 0; a < slots[s].n; a++)
          if (slots[s].vars[a] >= 0) used[slots[s].vars[a]] = 1;
    }
  }
  fprintf(f, "# paddlec IR\nprogram version %lld\n", (long long)g->version);
  for (int i = 0; i < g->nvars; i++)
    if (used[i]) put_var(g, f, &g->vars[i]);
  for (int k = 0; k < b->nops; k++) put_op(g, f, &g->ops[b->ops[k]]);
}

int ir_text_detect(const uint8_t *bytes, size_t len) {
  static const char magic[] = "# paddlec IR";
  return len >= sizeof magic - 1 && !memcmp(bytes, magic, sizeof magic - 1);
}

/* ---- parser ---- */

typedef enum ParamInit { PI_RAND, PI_FILL, PI_LIST } ParamInit;

typedef struct IrParam {
  const char *name;  /* the var */
  ParamInit init;    /* how its values are made */
  double fill;       /* PI_FILL value; PI_RAND seed */
  int n;             /* PI_LIST: values given */
  double *vals;      /* PI_LIST: the values */
} IrParam;

struct IrParams {
  int n, cap;        /* parameters with values */
  IrParam *p;        /* them */
};

typedef struct Parser {
  const char *p;      /* next character of the line */
  const char *file;   /* for errors */
  int line;           /* 1-based */
  int bad;            /* an error was printed */
} Parser;

typedef Paddlec__Fw__VarDesc VarDesc;
typedef Paddlec__Fw__OpDesc__Var SlotDesc;

static int perr(Parser *ps, const char *msg) {
  if (!ps->bad) diag_error("%s:%d: %s", ps->file, ps->line, msg);
  ps->bad = 1;
  return -1;
}

static void ws(Parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t') ps->p++;
}

static int eat(Parser *ps, char c) {
  ws(ps);
  if (*ps->p != c) return 0;
  ps->p++;
  return 1;
}

static int expect(Parser *ps, char c) {
  if (eat(ps, c)) return 0;
  return perr(ps, pool_printf("expected '%c' at \"%.20s\"", c, ps->p));
}

static const char *quoted(Parser *ps) {
  size_t cap = 16, n = 0;
  char *s = pool_alloc(cap);
  ps->p++;
  for (; *ps->p && *ps->p != '"'; ps->p++) {
    char c = *ps->p;
    if (c == '\\' && ps->p[1]) c = *++ps->p == 'n' ? '\n' : *ps->p;
    if (n + 2 > cap) s = pool_realloc(s, cap, cap * 2), cap *= 2;
    s[n++] = c;
  }
  if (*ps->p != '"') return perr(ps, "unterminated string"), NULL;
  ps->p++;
  return s;
}

/* A name: a plain token or a quoted string. */
static const char *name(Parser *ps) {
  ws(ps);
  if (*ps->p == '"') return quoted(ps);
  const char *s = ps->p;
  while (plain_char(*ps->p)) ps->p++;
  if (ps->p == s) return perr(ps, pool_printf("expected a name at \"%.20s\"", s)), NULL;
  return pool_printf("%.*s", (int)(ps->p - s), s);
}

static int word(Parser *ps, const char *w) {
  ws(ps);
  size_t n = strlen(w);
  if (strncmp(ps->p, w, n) || plain_char(ps->p[n])) return 0;
  ps->p += n;
  return 1;
}

static int number(Parser *ps, double *v, char *suffix) {
  ws(ps);
  char *end;
  *v = strtod(ps->p, &end);
  if (end == ps->p) return perr(ps, pool_printf("expected a number at \"%.20s\"", ps->p));
  int is_float = 0;
  for (const char *c = ps->p; c < end; c++) is_float |= *c == '.' || *c == 'e' || *c == 'E' || isalpha((unsigned char)*c);
  ps->p = end;
  *suffix = *ps->p == 'L' || *ps->p == 'f' || *ps->p == 'd' ? *ps->p++ : (is_float ? 'f' : 'i');
  return 0;
}

/* A number that must be an integer in [lo, hi]: written as one (not
 * rounded through a double), or as an exact float such as 1e3.  `what`
 * names it in the error. */
static int integer(Parser *ps, int64_t lo, int64_t hi, const char *what, int64_t *out) {
  ws(ps);
  const char *start = ps->p;
  char *dend, *iend;
  const double v = strtod(start, &dend);
  if (dend == start) return perr(ps, pool_printf("expected a number at \"%.20s\"", start));
  errno = 0;
  long long i = strtoll(start, &iend, 10);
  const int range = errno == ERANGE;
  ps->p = dend + (*dend == 'L');
  const char *text = pool_printf("%.*s", (int)(dend - start), start);
  if (iend == dend) {
    if (range) return perr(ps, pool_printf("%s %s does not fit in 64 bits", what, text));
  } else if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) {
    return perr(ps, pool_printf("%s %s does not fit in 64 bits", what, text));
  } else if (v != (double)(long long)v) {
    return perr(ps, pool_printf("%s %s is not an integer", what, text));
  } else {
    i = (long long)v;
  }
  if (i < lo || i > hi)
    return perr(ps, pool_printf("%s %s is out of range [%lld, %lld]", what, text, (long long)lo, (long long)hi));
  *out = i;
  return 0;
}

/* A number that must fit in a float (inf and nan do). */
static int float_value(Parser *ps, const char *what, double *out) {
  ws(ps);
  const char *start = ps->p;
  char sfx;
  if (number(ps, out, &sfx)) return -1;
  if (isfinite(*out) && fabs(*out) > FLT_MAX)
    return perr(ps, pool_printf("%s %.*s does not fit in a float32", what, (int)(ps->p - start), start));
  return 0;
}

/* Numbers converted to the attribute's type, saturating: a value outside
 * the type's range (the parse is a double) would be undefined behaviour. */
static int64_t to_i64(double v) {
  return v != v ? 0 : v >= 9223372036854775808.0 ? INT64_MAX : v < -9223372036854775808.0 ? INT64_MIN : (int64_t)v;
}
static int32_t to_i32(double v) {
  return v != v ? 0 : v >= 2147483648.0 ? INT32_MAX : v <= -2147483649.0 ? INT32_MIN : (int32_t)v;
}
static float to_f32(double v) { return v > FLT_MAX ? HUGE_VALF : v < -FLT_MAX ? -HUGE_VALF : (float)v; }

static VarDesc *find_vd(VarDesc **vds, size_t n, const char *nm) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(vds[i]->name, nm)) return vds[i];
  return NULL;
}

static int parse_dtype(Parser *ps, int *dt) {
  const char *nm = name(ps);
  if (!nm) return -1;
  if (!strcmp(nm, "dtype") && eat(ps, '(')) { /* a number without a name, as ir_dump writes it */
    double v;
    char sfx;
    if (number(ps, &v, &sfx) || expect(ps, ')')) return -1;
    return *dt = to_i32(v), 0;
  }
  for (int d = 0; d < 64; d++)
    if (rt_dtype_name(d) && !strcmp(rt_dtype_name(d), nm)) return *dt = d, 0;
  return perr(ps, pool_printf("unknown dtype '%s'", nm));
}

static int parse_param_value(Parser *ps, IrParams *pp, const char *var) {
  IrParam p = {.name = var};
  int is_rand = word(ps, "rand");
  if (is_rand || word(ps, "fill")) {
    p.init = is_rand ? PI_RAND : PI_FILL;
    char sfx;
    if (expect(ps, '(')) return -1;
    if (is_rand) {
      int64_t seed;
      if (integer(ps, 0, (int64_t)1 << 53, pool_printf("var '%s': rand seed", var), &seed)) return -1;
      p.fill = (double)seed;
    } else if (number(ps, &p.fill, &sfx)) {
      return -1;
    }
    if (expect(ps, ')')) return -1;
  } else if (eat(ps, '[')) {
    p.init = PI_LIST;
    int cap = 0;
    while (!eat(ps, ']')) {
      double v;
      char sfx;
      if (p.n && expect(ps, ',')) return -1;
      if (number(ps, &v, &sfx)) return -1;
      VEC_PUSH(p.vals, p.n, cap, v);
    }
  } else {
    return perr(ps, "a parameter value is rand(SEED), fill(V) or [v, ...]");
  }
  VEC_PUSH(pp->p, pp->n, pp->cap, p);
  return 0;
}

/* var NAME: TYPE[dims] flags [= value] */
static VarDesc *parse_var(Parser *ps, IrParams *pp) {
  VarDesc *vd = pool_alloc(sizeof *vd);
  paddlec__fw__var_desc__init(vd);
  Paddlec__Fw__VarType *t = pool_alloc(sizeof *t);
  paddlec__fw__var_type__init(t);
  vd->type = t;
  vd->name = (char *)name(ps);
  if (!vd->name || expect(ps, ':')) return NULL;
  t->has_type = 1;
  int feed_list = word(ps, "feed_list");
  if (feed_list || word(ps, "fetch_list")) {
    t->type = feed_list ? VT_FEED_MINIBATCH : VT_FETCH_LIST;
    vd->persistable = vd->has_persistable = 1;
  } else {
    int dt;
    if (parse_dtype(ps, &dt)) return NULL;
    t->type = VT_LOD_TENSOR;
    Paddlec__Fw__VarType__LoDTensorDesc *ld = pool_alloc(sizeof *ld);
    paddlec__fw__var_type__lo_dtensor_desc__init(ld);
    Paddlec__Fw__VarType__TensorDesc *td = pool_alloc(sizeof *td);
    paddlec__fw__var_type__tensor_desc__init(td);
    td->data_type = dt;
    td->has_data_type = 1;
    ld->tensor = td;
    t->lod_tensor = ld;
    td->dims = pool_alloc(sizeof(int64_t) * RT_MAX_RANK);
    if (expect(ps, '[')) return NULL;
    while (!eat(ps, ']')) {
      int64_t v;
      if (td->n_dims && expect(ps, ',')) return NULL;
      if (td->n_dims >= RT_MAX_RANK) return perr(ps, "too many dims"), NULL;
      if (integer(ps, INT64_MIN, INT64_MAX, pool_printf("var '%s': dim", vd->name), &v)) return NULL;
      td->dims[td->n_dims++] = v;
    }
  }
  for (;;) {
    if (word(ps, "feed") || word(ps, "fetch")) {
      double col;
      char sfx;
      if (number(ps, &col, &sfx)) return NULL; /* the feed/fetch ops carry the column */
    } else if (word(ps, "param") || word(ps, "persistable")) {
      vd->persistable = vd->has_persistable = 1;
    } else {
      break;
    }
  }
  if (eat(ps, '=') && parse_param_value(ps, pp, vd->name)) return NULL;
  return vd;
}

/* (SLOT: a, SLOT: [a, b]) */
static int parse_slots(Parser *ps, SlotDesc ***out, size_t *n) {
  int cap = 0, count = 0;
  SlotDesc **slots = NULL;
  if (expect(ps, '(')) return -1;
  while (!eat(ps, ')')) {
    if (count && expect(ps, ',')) return -1;
    SlotDesc *s = pool_alloc(sizeof *s);
    paddlec__fw__op_desc__var__init(s);
    s->parameter = (char *)name(ps);
    if (!s->parameter || expect(ps, ':')) return -1;
    int acap = 0, na = 0;
    char **args = NULL;
    if (eat(ps, '[')) {
      while (!eat(ps, ']')) {
        if (na && expect(ps, ',')) return -1;
        const char *a = name(ps);
        if (!a) return -1;
        VEC_PUSH(args, na, acap, (char *)a);
      }
    } else {
      const char *a = name(ps);
      if (!a) return -1;
      VEC_PUSH(args, na, acap, (char *)a);
    }
    s->arguments = args;
    s->n_arguments = (size_t)na;
    VEC_PUSH(slots, count, cap, s);
  }
  *out = slots;
  *n = (size_t)count;
  return 0;
}

static OpAttr *new_attr(const char *nm, int type) {
  OpAttr *a = pool_alloc(sizeof *a);
  paddlec__fw__op_desc__attr__init(a);
  a->name = (char *)nm;
  a->type = type;
  a->has_type = 1;
  return a;
}

/* One list element into attribute a of list type `type`. */
static int list_item(Parser *ps, OpAttr *a, int type) {
  double v;
  int64_t iv = 0; /* integer() sets it whenever it returns 0 (its perr paths are too deep for the analyzer) */
  const char *what = pool_printf("attribute '%s': element", a->name);
  if (type == AT_STRINGS) {
    ws(ps);
    if (*ps->p != '"') return perr(ps, "expected a string");
    const char *s = quoted(ps);
    if (!s) return -1;
    a->strings = pool_realloc(a->strings, sizeof(char *) * a->n_strings, sizeof(char *) * (a->n_strings + 1));
    a->strings[a->n_strings++] = (char *)s;
    return 0;
  }
  if (type == AT_BOOLEANS) {
    int b = word(ps, "true");
    if (!b && !word(ps, "false")) return perr(ps, "expected true or false");
    a->bools = pool_realloc(a->bools, sizeof(protobuf_c_boolean) * a->n_bools, sizeof(protobuf_c_boolean) * (a->n_bools + 1));
    a->bools[a->n_bools++] = b;
    return 0;
  }
  switch (type) {
    case AT_INTS:
      if (integer(ps, INT32_MIN, INT32_MAX, what, &iv)) return -1;
      a->ints = pool_realloc(a->ints, sizeof(int32_t) * a->n_ints, sizeof(int32_t) * (a->n_ints + 1));
      a->ints[a->n_ints++] = (int32_t)iv;
      break;
    case AT_LONGS:
      if (integer(ps, INT64_MIN, INT64_MAX, what, &iv)) return -1;
      a->longs = pool_realloc(a->longs, sizeof(int64_t) * a->n_longs, sizeof(int64_t) * (a->n_longs + 1));
      a->longs[a->n_longs++] = iv;
      break;
    case AT_FLOATS:
      if (float_value(ps, what, &v)) return -1;
      a->floats = pool_realloc(a->floats, sizeof(float) * a->n_floats, sizeof(float) * (a->n_floats + 1));
      a->floats[a->n_floats++] = to_f32(v);
      break;
    default: {
      char sfx;
      if (number(ps, &v, &sfx)) return -1;
      a->float64s = pool_realloc(a->float64s, sizeof(double) * a->n_float64s, sizeof(double) * (a->n_float64s + 1));
      a->float64s[a->n_float64s++] = v;
      break;
    }
  }
  return 0;
}

static OpAttr *parse_attr(Parser *ps) {
  const char *nm = name(ps);
  if (!nm || expect(ps, ':')) return NULL;
  ws(ps);
  static const struct {
    const char *word; /* list prefix */
    int type;         /* its AttrType */
  } lists[] = {{"ints", AT_INTS},       {"longs", AT_LONGS}, {"floats", AT_FLOATS}, {"float64s", AT_FLOAT64S},
               {"bools", AT_BOOLEANS}, {"strings", AT_STRINGS}};
  for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
    if (!word(ps, lists[i].word)) continue;
    OpAttr *a = new_attr(nm, lists[i].type);
    if (expect(ps, '[')) return NULL;
    int k = 0;
    while (!eat(ps, ']')) {
      if (k++ && expect(ps, ',')) return NULL;
      if (list_item(ps, a, lists[i].type)) return NULL;
    }
    return a;
  }
  if (*ps->p == '"') {
    OpAttr *a = new_attr(nm, AT_STRING);
    a->s = (char *)quoted(ps);
    return a->s ? a : NULL;
  }
  int is_true = word(ps, "true");
  if (is_true || word(ps, "false")) {
    OpAttr *a = new_attr(nm, AT_BOOLEAN);
    a->b = is_true;
    a->has_b = 1;
    return a;
  }
  const char *what = pool_printf("attribute '%s':", nm);
  if (word(ps, "var")) { /* var(NAME): a tensor gives the value (2.5+ files), as ir_dump writes it */
    OpAttr *a = new_attr(nm, AT_VAR);
    if (expect(ps, '(') || !(a->var_name = (char *)name(ps)) || expect(ps, ')')) return NULL;
    return a;
  }
  if (word(ps, "block")) {
    int64_t v;
    OpAttr *a = new_attr(nm, AT_BLOCK);
    if (expect(ps, '(') || integer(ps, 0, INT32_MAX, what, &v) || expect(ps, ')')) return NULL;
    a->block_idx = (int32_t)v;
    a->has_block_idx = 1;
    return a;
  }
  double v;
  char sfx;
  const char *start = ps->p;
  if (number(ps, &v, &sfx)) return NULL;
  ps->p = start; /* read again, checked for its type */
  int64_t iv = 0;
  OpAttr *a = new_attr(nm, sfx == 'L' ? AT_LONG : sfx == 'f' ? AT_FLOAT : sfx == 'd' ? AT_FLOAT64 : AT_INT);
  if (sfx == 'L' ? integer(ps, INT64_MIN, INT64_MAX, what, &iv)
      : sfx == 'f' ? float_value(ps, what, &v)
      : sfx == 'd' ? number(ps, &v, &sfx)
      : integer(ps, INT32_MIN, INT32_MAX, what, &iv))
    return NULL;
  if (sfx == 'L') a->l = iv, a->has_l = 1;
  else if (sfx == 'f') a->f = (float)v, a->has_f = 1;
  else if (sfx == 'd') a->float64 = v, a->has_float64 = 1;
  else a->i = (int32_t)iv, a->has_i = 1;
  return a;
}

/* op TYPE(ins) -> (outs) {attrs} */
static OpDesc *parse_op(Parser *ps) {
  OpDesc *od = pool_alloc(sizeof *od);
  paddlec__fw__op_desc__init(od);
  od->type = (char *)name(ps);
  if (!od->type || parse_slots(ps, &od->inputs, &od->n_inputs)) return NULL;
  ws(ps);
  if (strncmp(ps->p, "->", 2)) return perr(ps, "expected '->'"), NULL;
  ps->p += 2;
  if (parse_slots(ps, &od->outputs, &od->n_outputs)) return NULL;
  if (eat(ps, '{')) {
    int cap = 0, n = 0;
    while (!eat(ps, '}')) {
      if (n && expect(ps, ',')) return NULL;
      OpAttr *a = parse_attr(ps);
      if (!a) return NULL;
      VEC_PUSH(od->attrs, n, cap, a);
    }
    od->n_attrs = (size_t)n;
  }
  return od;
}

int ir_text_parse(const char *text, const char *file, uint8_t **pb, size_t *pblen, IrParams **params) {
  Parser ps = {.file = file};
  IrParams *pp = pool_alloc(sizeof *pp);
  Paddlec__Fw__BlockDesc *bd = pool_alloc(sizeof *bd);
  paddlec__fw__block_desc__init(bd);
  bd->has_idx = bd->has_parent_idx = 1;
  bd->parent_idx = -1;
  ProgramDesc pd = PADDLEC__FW__PROGRAM_DESC__INIT;
  Paddlec__Fw__Version ver = PADDLEC__FW__VERSION__INIT;
  Paddlec__Fw__BlockDesc *blocks[1] = {bd};
  pd.blocks = blocks;
  pd.n_blocks = 1;
  int vcap = 0, ocap = 0, nv = 0, no = 0;
  for (const char *line = text; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    ps.p = pool_printf("%.*s", (int)len, line);
    line += len + (end ? 1 : 0);
    ps.line++;
    ws(&ps);
    if (!*ps.p || *ps.p == '#') continue;
    if (word(&ps, "program")) {
      int64_t v;
      if (!word(&ps, "version")) return perr(&ps, "expected 'program version N'");
      if (integer(&ps, INT64_MIN, INT64_MAX, "program version", &v)) return -1;
      ver.version = v;
      ver.has_version = v >= 0;
      pd.version = &ver;
    } else if (word(&ps, "var")) {
      VarDesc *vd = parse_var(&ps, pp);
      if (!vd) return -1;
      if (find_vd(bd->vars, (size_t)nv, vd->name)) return perr(&ps, pool_printf("var '%s' is declared twice", vd->name));
      VEC_PUSH(bd->vars, nv, vcap, vd);
    } else if (word(&ps, "op")) {
      OpDesc *od = parse_op(&ps);
      if (!od) return -1;
      VEC_PUSH(bd->ops, no, ocap, od);
    } else {
      return perr(&ps, "expected 'var', 'op' or 'program'");
    }
    ws(&ps);
    if (*ps.p && *ps.p != '#') return perr(&ps, pool_printf("unexpected text \"%.20s\"", ps.p));
  }
  bd->n_vars = (size_t)nv;
  bd->n_ops = (size_t)no;
  *pblen = paddlec__fw__program_desc__get_packed_size(&pd);
  *pb = pool_alloc(*pblen + 1);
  paddlec__fw__program_desc__pack(&pd, *pb);
  *params = pp;
  return 0;
}

/* Deterministic values in [-1, 1) from a seed (xorshift64*). */
static float rand_value(uint64_t *s) {
  *s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
  return (float)((double)((*s * 2685821657736338717ull) >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

enum { IR_PARAM_MAX_BYTES = 1 << 30 }; /* the largest value IR text gives (test programs) */

/* Whether x can be stored in a parameter of dtype dt (integers exactly). */
static int value_fits(double x, int dt) {
  if (dt == RT_DT_FP32) return !isfinite(x) || fabs(x) <= FLT_MAX;
  if (dt == RT_DT_INT32) return x >= INT32_MIN && x <= INT32_MAX && x == (double)(int64_t)x;
  if (dt == RT_DT_INT64) return x >= -9223372036854775808.0 && x < 9223372036854775808.0 && x == (double)(int64_t)x;
  return 1;
}

int ir_text_bind_params(Graph *g, const IrParams *pp) {
  int bad = 0;
  for (int i = 0; i < pp->n; i++) {
    const IrParam *p = &pp->p[i];
    int id = graph_find_var(g, 0, p->name);
    if (id < 0) continue;
    Var *v = &g->vars[id];
    int64_t n = shape_numel(&v->shape), bytes = shape_bytes(&v->shape, v->dtype);
    if (n < 0 || !rt_dtype_size(v->dtype)) continue;
    size_t alloc;
    if (bytes < 0 || rt_size_add(bytes, 1, &bytes) || rt_size_to(bytes, &alloc)) {
      bad = diag_error("%s: parameter '%s': %s %s holds more bytes than fit in 64 bits", g->file, v->name,
                       rt_dtype_name(v->dtype), shape_str(&v->shape));
      continue;
    }
    if (bytes > IR_PARAM_MAX_BYTES) {
      bad = diag_error("%s: parameter '%s': %s %s is larger than IR text gives values for (1 GiB)", g->file,
                       v->name, rt_dtype_name(v->dtype), shape_str(&v->shape));
      continue;
    }
    const double *vals = p->init == PI_LIST ? p->vals : &p->fill;
    const int nvals = p->init == PI_LIST ? p->n : p->init == PI_FILL;
    for (int k = 0; k < nvals; k++)
      if (!value_fits(vals[k], v->dtype)) {
        bad = diag_error("%s: parameter '%s': value %.17g does not fit in its dtype %s", g->file, v->name, vals[k],
                         rt_dtype_name(v->dtype));
        break;
      }
    if (bad) continue;
    uint8_t *data = pool_alloc(alloc);
    uint64_t seed = (uint64_t)p->fill * 2654435761u + 88172645463325252ull;
    for (int64_t k = 0; k < n; k++) {
      double x = p->init == PI_RAND ? rand_value(&seed) : p->init == PI_FILL ? p->fill : p->n ? p->vals[k % p->n] : 0;
      if (v->dtype == RT_DT_FP32) {
        float f = to_f32(x);
        memcpy(data + k * 4, &f, 4);
      } else if (v->dtype == RT_DT_INT64) {
        int64_t q = to_i64(x);
        memcpy(data + k * 8, &q, 8);
      } else if (v->dtype == RT_DT_INT32) {
        int32_t q = to_i32(x);
        memcpy(data + k * 4, &q, 4);
      }
    }
    v->param_data = data;
    v->param_file = g->file;
    v->flags |= VAR_LOADED;
  }
  return bad ? -1 : 0;
}
