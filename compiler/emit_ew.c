/* Element-wise loop emission (see emit_ew.h). */
#include "emit_ew.h"

#include <stdio.h>
#include <string.h>

#include "util.h"

static const char *mul(const char *a, const char *b) {
  if (!strcmp(a, "1")) return b;
  if (!strcmp(b, "1")) return a;
  return pool_printf("%s * %s", a, b);
}

static int same_varies(const EwDim *d, const int *v, int n) {
  for (int k = 0; k < n; k++)
    if (d->varies[k] != v[k]) return 0;
  return 1;
}

/* Prints the body's lines, one pr_line each (so braces indent). */
static void body_lines(Printer *p, const char *body) {
  for (const char *l = body; l && *l;) {
    const char *nl = strchr(l, '\n');
    int len = nl ? (int)(nl - l) : (int)strlen(l);
    pr_line(p, "%.*s", len, l);
    l = nl ? nl + 1 : l + len;
  }
}

/* The loop of ew_nary as a record: operands padded to out's rank, the
 * dims along which they all move alike collapsed. */
static int ew_lower(EmitCtx *e, const Var *out, int n, const EwIn *in, EwLoop *l) {
  const VarSpec *os = em_spec(e, out);
  if (!em_ctype(out->dtype) || n > EW_MAX_IN) return em_fail(e, "dtype %s is not supported", rt_dtype_name(out->dtype));
  const int r = os->rank;
  /* each operand padded with 1s to the output's rank, around its axis (Paddle's rule) */
  SymDim d[EW_MAX_IN][RT_MAX_RANK];
  int run[EW_MAX_IN][RT_MAX_RANK]; /* a run-time extent there: it moves the index, even where its bound is 1 */
  for (int k = 0; k < n; k++) {
    const VarSpec *s = em_spec(e, in[k].v);
    if (!em_ctype(in[k].v->dtype)) return em_fail(e, "dtype %s is not supported", rt_dtype_name(in[k].v->dtype));
    int64_t axis = in[k].axis < 0 || s->rank >= r ? r - s->rank : in[k].axis;
    for (int i = 0; i < r; i++) {
      int j = s->rank < r ? i - (int)axis : i;
      d[k][i] = j >= 0 && j < s->rank ? s->d[j] : (SymDim){0, 1};
      run[k][i] = j >= 0 && j < s->rank && (s->runtime_mask >> j & 1);
    }
  }
  l->out = out;
  l->n = n;
  l->in = in;
  l->nd = 0;
  for (int i = 0; i < r; i++) {
    SymDim od = os->d[i];
    /* size-1 dims do not move any index (a run-time extent bounded by 1 may be 0: kept) */
    if (od.a == 0 && od.c == 1 && !(os->runtime_mask >> i & 1)) continue;
    int v[EW_MAX_IN];
    for (int k = 0; k < n; k++) v[k] = run[k][i] || !(d[k][i].a == 0 && d[k][i].c == 1);
    const char *ext = em_dim(e, out, i); /* a run-time extent: the run's, not the bound */
    if (l->nd && same_varies(&l->dims[l->nd - 1], v, n)) {
      l->dims[l->nd - 1].extent = mul(l->dims[l->nd - 1].extent, ext);
    } else {
      l->dims[l->nd].extent = ext;
      memcpy(l->dims[l->nd].varies, v, sizeof(int) * (size_t)n);
      l->nd++;
    }
  }
  return 0;
}

/* A flat loop: same shapes, or operands that are scalars. */
static void print_flat(Printer *p, const EwLoop *l) {
  pr_line(p, "for (int64_t i = lo; i < hi; i++) {");
  for (int k = 0; k < l->n; k++)
    pr_line(p, "const %s %s = %s[%s];", l->type[k], l->in[k].elem, l->in[k].ptr,
            l->nd && l->dims[0].varies[k] ? "i" : "0");
  body_lines(p, l->body);
  pr_line(p, "out[i] = %s;", l->result);
  pr_line(p, "}");
}

/* Nested loops, an operand's index the sum of the loop indices it varies
 * along times its strides. */
static void print_nested(Printer *p, const EwLoop *l) {
  const int nd = l->nd;
  for (int i = 1; i < nd; i++) pr_line(p, "const int64_t n%d = %s;", i, l->dims[i].extent);
  /* an operand's stride along dim i is the product of the later dims it varies along */
  const char *idx[EW_MAX_IN];
  for (int k = 0; k < l->n; k++) {
    const char *acc = "1";
    idx[k] = "0";
    for (int i = nd - 1; i >= 0; i--) {
      if (!l->dims[i].varies[k]) continue;
      const char *term = mul(pool_printf("i%d", i), acc);
      idx[k] = !strcmp(idx[k], "0") ? term : pool_printf("%s + %s", term, idx[k]);
      acc = mul(acc, i ? pool_printf("n%d", i) : "rows");
    }
  }
  /* the output varies along every dim; indexed like the operands (not by a
   * running counter, which keeps compilers from vectorizing the loop) */
  const char *oidx = "i0";
  for (int i = 1; i < nd; i++) oidx = pool_printf(i > 1 ? "(%s) * n%d + i%d" : "%s * n%d + i%d", oidx, i, i);
  pr_line(p, "for (int64_t i0 = lo; i0 < hi; i0++) {");
  for (int i = 1; i < nd; i++) pr_line(p, "for (int64_t i%d = 0; i%d < n%d; i%d++) {", i, i, i, i);
  for (int k = 0; k < l->n; k++) pr_line(p, "const %s %s = %s[%s];", l->type[k], l->in[k].elem, l->in[k].ptr, idx[k]);
  body_lines(p, l->body);
  pr_line(p, "out[%s] = %s;", oidx, l->result);
  for (int i = 0; i < nd; i++) pr_line(p, "}");
}

void ew_print_c(Printer *p, const EwLoop *l) {
  for (int k = 0; k < l->n; k++) pr_line(p, "const %s *%s = %s;", l->type[k], l->in[k].ptr, l->src[k]);
  pr_line(p, "%s *out = %s;", l->out_type, l->out_ptr);
  if (l->setup) pr_line(p, "%s", l->setup);
  if (l->nd <= 1)
    print_flat(p, l);
  else
    print_nested(p, l);
}

int ew_nary(EmitCtx *e, const Var *out, int n, const EwIn *in, const char *setup, const char *body,
            const char *result) {
  EwLoop l;
  if (!result) /* ew_expr_double's refusal */
    return em_fail(e, "no C expression for '%s' (a float runtime function without a double twin)", out->name);
  if (ew_lower(e, out, n, in, &l)) return -1;
  l.setup = setup, l.body = body, l.result = result;
  /* the loop runs as tasks over its outermost dim (rt_parallel.h) */
  em_task_begin(e, em_numel(e, l.out), l.nd ? l.dims[0].extent : "1");
  for (int k = 0; k < n; k++) {
    l.type[k] = em_ctype(in[k].v->dtype);
    l.src[k] = em_ptr(e, in[k].v, 1);
  }
  l.out_type = em_ctype(out->dtype);
  l.out_ptr = em_ptr(e, out, 0);
  ew_print_c(e->p, &l);
  em_task_end(e);
  return 0;
}

int ew_unary(EmitCtx *e, const Var *x, const Var *out, const char *setup, const char *expr) {
  const EwIn in[1] = {{x, -1, "x", "v"}};
  return ew_nary(e, out, 1, in, setup, NULL, expr);
}

int ew_binary(EmitCtx *e, const Var *x, const Var *y, const Var *out, int64_t axis, const char *expr) {
  return ew_binary_bind(e, x, y, out, axis, NULL, expr);
}

int ew_binary_bind(EmitCtx *e, const Var *x, const Var *y, const Var *out, int64_t axis, const char *bind,
                   const char *expr) {
  const EwIn in[2] = {{x, axis, "x", "a"}, {y, axis, "y", "b"}};
  const char *to = em_ctype(out->dtype);
  return ew_nary(e, out, 2, in, NULL, bind && to ? pool_printf("const %s v = %s;", to, bind) : NULL, expr);
}

/* The <math.h> functions whose float version ends in f. */
static int libm_float_fn(const char *name, size_t len) {
  static const char *const fns[] = {
      "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign", "cos", "cosh",
      "erf", "erfc", "exp", "exp2", "expm1", "fabs", "floor", "fmax", "fmin", "fmod", "hypot", "lgamma", "log",
      "log10", "log1p", "log2", "nearbyint", "pow", "rint", "round", "sin", "sinh", "sqrt", "tan", "tanh",
      "tgamma", "trunc"};
  if (len < 2 || name[len - 1] != 'f') return 0;
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
    if (strlen(fns[i]) == len - 1 && !strncmp(fns[i], name, len - 1)) return 1;
  return 0;
}

static int ident_char(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

int ew_names(const char *expr, const char *id) {
  size_t n = strlen(id);
  for (const char *p = strstr(expr, id); p; p = strstr(p + 1, id))
    if ((p == expr || !ident_char(p[-1])) && !ident_char(p[n])) return 1;
  return 0;
}

/* The runtime functions a float expression may call, each with its double
 * spelling: a float function its double twin (as Paddle's double kernel
 * computes), a double one itself.  A runtime call missing here has no
 * double spelling, and ew_expr_double refuses it rather than compute a
 * float64 tensor in float. */
static const char *const rt_twins[][2] = {
    {"rt_erff", "erf"},
    {"rt_erfinvf", "rt_erfinv"},
    {"rt_digammaf", "rt_digamma"},
    {"rt_polygamma_f32", "rt_polygamma_f64"},
    {"rt_i0f", "rt_i0"},
    {"rt_i0ef", "rt_i0e"},
    {"rt_i1f", "rt_i1"},
    {"rt_i1ef", "rt_i1e"},
    {"rt_erfinv", "rt_erfinv"},
    {"rt_digamma", "rt_digamma"},
    {"rt_polygamma_f64", "rt_polygamma_f64"},
    {"rt_i0", "rt_i0"},
    {"rt_i0e", "rt_i0e"},
    {"rt_i1", "rt_i1"},
    {"rt_i1e", "rt_i1e"}};

/* The double spelling of runtime function `name` (len characters), NULL
 * where the table has none. */
static const char *rt_twin(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof rt_twins / sizeof rt_twins[0]; i++)
    if (strlen(rt_twins[i][0]) == len && !strncmp(rt_twins[i][0], name, len)) return rt_twins[i][1];
  return NULL;
}

const char *ew_expr_double(const char *expr) {
  size_t n = strlen(expr);
  char *out = pool_alloc(2 * n + 1), *o = out;
  for (size_t i = 0; i < n;) {
    if (!strncmp(expr + i, "(float)", 7)) {
      memcpy(o, "(double)", 8), o += 8, i += 7;
    } else if (ident_char(expr[i]) && (expr[i] < '0' || expr[i] > '9') && (i == 0 || !ident_char(expr[i - 1]))) {
      size_t j = i; /* an identifier */
      while (j < n && ident_char(expr[j])) j++;
      const char *twin = rt_twin(expr + i, j - i);
      if (twin) { /* never longer than the float name: out's 2 * n bytes hold it */
        const size_t len = strlen(twin);
        memcpy(o, twin, len), o += len, i = j;
        continue;
      }
      if (j - i > 3 && !strncmp(expr + i, "rt_", 3) && j < n && expr[j] == '(') return NULL;
      const size_t len = j - i - (libm_float_fn(expr + i, j - i) && j < n && expr[j] == '(');
      memcpy(o, expr + i, len), o += len, i = j;
    } else if (expr[i] >= '0' && expr[i] <= '9' && (i == 0 || !ident_char(expr[i - 1]))) {
      size_t j = i; /* a number: digits, '.', an exponent; a trailing f is dropped */
      int real = 0;
      while (j < n && ((expr[j] >= '0' && expr[j] <= '9') || expr[j] == '.' || expr[j] == 'e' || expr[j] == 'E' ||
                       ((expr[j] == '+' || expr[j] == '-') && (expr[j - 1] == 'e' || expr[j - 1] == 'E')))) {
        real |= expr[j] == '.' || expr[j] == 'e' || expr[j] == 'E';
        j++;
      }
      memcpy(o, expr + i, j - i), o += j - i, i = j;
      if (real && i < n && (expr[i] == 'f' || expr[i] == 'F') && (i + 1 >= n || !ident_char(expr[i + 1]))) i++;
    } else {
      *o++ = expr[i++];
    }
  }
  *o = 0;
  return out;
}
