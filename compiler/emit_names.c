/* Named operands in the emitted kernels (emit.h, em_locals).
 *
 * While a kernel's emitter runs, em_ptr() hands out a placeholder
 * "\001k\002" for the k-th var the kernel uses.  When a function's text is
 * complete (a kernel, or one of its task functions), em_locals() names
 * each var used in it after its Paddle name (conv2d_1.w_0 ->
 * conv2d_1_w_0), and each scratch region of em_scratch_named after its
 * role, with a suffix _2, _3, ... where that name is a C keyword,
 * an identifier of the function's own text, a name the runtime reserves, a
 * C library function's or an earlier local's; declares each at the top (const unless the kernel
 * writes it) and puts the names in.  Names depend on the text only, so the
 * emitted code stays the same for the same program. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "emit.h"
#include "util.h"

/* Identifiers the names must not take besides those of the text: C's
 * keywords, the standard macros the emitted code may meet, and the names of
 * a task function's prologue (rt_parallel.h). */
static const char *const reserved[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool",
    "true", "false", "NULL", "EOF", "INFINITY", "NAN", "HUGE_VAL", "errno", "assert", "stdin", "stdout", "stderr",
    "m", "B", "ws", "ctx", "args", "t", "tid", "rows", "nt", "lo", "hi", "geo",
    /* <math.h>, <stdlib.h> and <string.h> functions a name could hide */
    "exp", "log", "sqrt", "pow", "floor", "ceil", "round", "trunc", "fabs", "fmod", "sin", "cos", "tan", "tanh",
    "erf", "abs", "labs", "div", "y0", "y1", "yn", "j0", "j1", "jn", "gamma", "lgamma", "time", "index", "signal",
    "memcpy", "memset", "malloc", "free", "exit", "abort", NULL};

/* A set of identifiers (open addressing, pool memory). */
typedef struct {
  const char **slot;
  size_t cap, n;
} Names;

static uint64_t hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

static int names_has(const Names *t, const char *s, size_t n) {
  if (!t->cap) return 0;
  for (size_t i = hash(s, n) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    if (!t->slot[i]) return 0;
    if (strlen(t->slot[i]) == n && !memcmp(t->slot[i], s, n)) return 1;
  }
}

static void names_add(Names *t, const char *s, size_t n) {
  if (names_has(t, s, n)) return;
  if (2 * (t->n + 1) > t->cap) {
    Names big = {pool_alloc(sizeof *big.slot * (t->cap ? 2 * t->cap : 64)), t->cap ? 2 * t->cap : 64, 0};
    memset(big.slot, 0, sizeof *big.slot * big.cap);
    for (size_t i = 0; i < t->cap; i++)
      if (t->slot[i]) names_add(&big, t->slot[i], strlen(t->slot[i]));
    *t = big;
  }
  size_t i = hash(s, n) & (t->cap - 1);
  while (t->slot[i]) i = (i + 1) & (t->cap - 1);
  char *c = pool_alloc(n + 1);
  memcpy(c, s, n);
  c[n] = 0;
  t->slot[i] = c;
  t->n++;
}

/* Calls add(t, id, len) for each identifier of C text s, outside comments,
 * string and character literals and placeholders. */
static void scan(const char *s, Names *t) {
  while (*s) {
    if (s[0] == '/' && s[1] == '*') {
      const char *end = strstr(s + 2, "*/");
      s = end ? end + 2 : s + strlen(s);
    } else if (s[0] == '/' && s[1] == '/') {
      while (*s && *s != '\n') s++;
    } else if (*s == '"' || *s == '\'') {
      const char q = *s++;
      while (*s && *s != q) s += s[0] == '\\' && s[1] ? 2 : 1;
      if (*s) s++;
    } else if (*s == '\001') {
      while (*s && *s != '\002') s++;
      if (*s) s++;
    } else if (isalpha((unsigned char)*s) || *s == '_') {
      const char *b = s;
      while (isalnum((unsigned char)*s) || *s == '_') s++;
      names_add(t, b, (size_t)(s - b));
    } else if (isdigit((unsigned char)*s)) {
      while (isalnum((unsigned char)*s) || *s == '_' || *s == '.') s++; /* a number, suffix and all */
    } else {
      s++;
    }
  }
}

void em_uses(const char *text, const char *const *ids, int n, int *used) {
  Names t = {0};
  scan(text, &t);
  for (int i = 0; i < n; i++) used[i] = names_has(&t, ids[i], strlen(ids[i]));
}

void em_unused_marks(const char *body, const char *const *ids, int n, const char **marks) {
  int used[8];
  if (n > 8) diag_internal("em_unused_marks: more than 8 parameters");
  em_uses(body, ids, n, used);
  for (int i = 0; i < n; i++) marks[i] = used[i] ? "" : " RT_UNUSED";
}

/* A new local of the kernel (var: its id, or -1 for scratch): its index. */
static int new_local(EmitCtx *e, int var) {
  if (e->nlocals == e->locals_cap) {
    e->locals_cap = e->locals_cap ? 2 * e->locals_cap : 16;
    EmitLocal *l = pool_alloc(sizeof *l * (size_t)e->locals_cap);
    if (e->nlocals) memcpy(l, e->locals, sizeof *l * (size_t)e->nlocals);
    e->locals = l;
  }
  e->locals[e->nlocals] = (EmitLocal){.var = var};
  return e->nlocals++;
}

const char *em_ptr_named(EmitCtx *e, const Var *v, int is_const) {
  const int id = (int)(v - e->g->vars);
  int k = 0;
  while (k < e->nlocals && e->locals[k].var != id) k++;
  if (k == e->nlocals) k = new_local(e, id);
  if (!is_const) e->locals[k].rw = 1;
  return pool_printf("\001%d\002", k);
}

const char *em_scratch_named(EmitCtx *e, const char *type, const char *role, SymDim bytes) {
  const char *at = em_scratch_at(e, role, bytes);
  if (!e->naming) return pool_printf("((%s *)%s)", type, at);
  const int k = new_local(e, -1);
  e->locals[k] = (EmitLocal){.var = -1, .rw = 1, .role = role, .type = type, .at = at};
  return pool_printf("\001%d\002", k);
}

/* The var's name as a C identifier: other characters become '_', a name
 * that starts with a digit or "__" (or '_' and a capital: the
 * implementation's) gets a "t_" in front. */
static char *c_name(const char *s) {
  size_t n = strlen(s);
  char *c = pool_alloc(n + 3);
  memcpy(c, "t_", 2);
  for (size_t i = 0; i < n; i++) c[2 + i] = isalnum((unsigned char)s[i]) ? s[i] : '_';
  c[2 + n] = 0;
  const int bad = !n || isdigit((unsigned char)s[0]) || (c[2] == '_' && (c[3] == '_' || isupper((unsigned char)c[3])));
  return bad ? c : c + 2;
}

/* The runtime's names: rt_*, RT_*, PADDLEC_*, and the model's prefix (a
 * var's name that starts so gets a "t_" in front). */
static int runtime_name(const EmitCtx *e, const char *s) {
  return !strncmp(s, "rt_", 3) || !strncmp(s, "RT_", 3) || !strncmp(s, "PADDLEC_", 8) ||
         (e->prefix && !strncmp(s, e->prefix, strlen(e->prefix)));
}

/* The pointer expression local k stands for: what em_ptr gives outside a
 * kernel, without its outer parentheses. */
static const char *local_value(EmitCtx *e, int k, const char *type) {
  const PlanVar *pv = &e->plan->vars[e->locals[k].var];
  switch (pv->kind) {
    case PLAN_FEED: return pool_printf("(%s *)m->in[%d]", type, pv->index);
    case PLAN_PARAM: return pool_printf("(%s *)m->w[%d]", type, pv->index);
    case PLAN_ARENA:
      if (e->plan->npieces > 1 || e->size_classes) return pool_printf("(%s *)(m->arena + m->off[%d])", type, pv->index);
      return pool_printf("(%s *)(m->arena + %s)", type, em_sym(pv->offset));
    default: diag_internal("var '%s' has no storage", e->g->vars[e->locals[k].var].name);
  }
}

/* Local k's placeholder at s ("\001k\002"): k, and *end after it. */
static int placeholder(const EmitCtx *e, const char *s, const char **end) {
  char *after;
  const long k = strtol(s + 1, &after, 10);
  if (*after != '\002' || k < 0 || k >= e->nlocals) diag_internal("a bad operand placeholder in a kernel's text");
  *end = after + 1;
  return (int)k;
}

const char *em_locals(EmitCtx *e, const char *text, const char *taken, int indent, const char **decls) {
  Names avoid = {0};
  scan(text, &avoid);
  if (taken) scan(taken, &avoid);
  for (int i = 0; reserved[i]; i++) names_add(&avoid, reserved[i], strlen(reserved[i]));
  /* the locals of this text in order of first use */
  int *order = pool_alloc(sizeof *order * (size_t)(e->nlocals + 1)), n = 0;
  unsigned char *seen = pool_alloc((size_t)e->nlocals + 1);
  memset(seen, 0, (size_t)e->nlocals + 1);
  for (const char *s = strchr(text, '\001'); s; s = strchr(s, '\001')) {
    const int k = placeholder(e, s, &s);
    if (!seen[k]) seen[k] = 1, order[n++] = k;
  }
  /* names: first those of vars named as C names already, so that a var
   * keeps its own name wherever another's only becomes it */
  const char **name = pool_alloc(sizeof *name * (size_t)(e->nlocals + 1));
  for (int round = 0; round < 2; round++)
    for (int i = 0; i < n; i++) {
      const int k = order[i];
      const EmitLocal *l = &e->locals[k];
      const char *own = l->role ? l->role : e->g->vars[l->var].name, *base = c_name(own), *c;
      if ((round == 0) != !strcmp(base, own)) continue;
      if (runtime_name(e, base)) base = pool_printf("t_%s", base);
      c = base;
      for (int m = 2; names_has(&avoid, c, strlen(c)); m++) c = pool_printf("%s_%d", base, m);
      names_add(&avoid, c, strlen(c));
      name[k] = c;
    }
  Printer d, out;
  pr_init(&d);
  pr_init(&out);
  d.indent = indent;
  for (int i = 0; i < n; i++) {
    const EmitLocal *l = &e->locals[order[i]];
    if (l->role) {
      if (!strcmp(l->type, "unsigned char")) /* ws's own type */
        pr_line(&d, "unsigned char *%s = %s;", name[order[i]], l->at);
      else
        pr_line(&d, "%s *%s = (%s *)%s;", l->type, name[order[i]], l->type, l->at);
      continue;
    }
    const Var *v = &e->g->vars[l->var];
    const char *type = pool_printf("%s%s", l->rw ? "" : "const ", em_ctype(v->dtype));
    pr_line(&d, "%s *%s = %s;", type, name[order[i]], local_value(e, order[i], type));
  }
  for (const char *s = text; *s;) {
    const char *next = strchr(s, '\001');
    const size_t len = next ? (size_t)(next - s) : strlen(s);
    pr_raw(&out, "%.*s", (int)len, s);
    if (!next) break;
    pr_raw(&out, "%s", name[placeholder(e, next, &s)]);
  }
  *decls = pool_strdup(d.buf ? d.buf : "");
  const char *r = pool_strdup(out.buf ? out.buf : "");
  pr_free(&d);
  pr_free(&out);
  return r;
}
