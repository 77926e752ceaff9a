/* Memory plan (see plan.h). */
#include "plan.h"

#include "diag.h"
#include "util.h"

static int64_t round_up(int64_t x) { return (x + PLAN_ALIGN - 1) / PLAN_ALIGN * PLAN_ALIGN; }

int plan_build(Graph *g, const Spec *s, Plan *p) {
  p->vars = pool_alloc(sizeof *p->vars * ((size_t)g->nvars + 1));
  p->arena = (SymDim){0, 0};
  p->nslots = 0;
  for (int i = 0; i < g->nfeeds; i++) p->vars[g->feeds[i]] = (PlanVar){.kind = PLAN_FEED, .index = i};
  for (int i = 0; i < g->nparams; i++) p->vars[g->params[i]] = (PlanVar){.kind = PLAN_PARAM, .index = i};
  for (int k = 0; k < g->blocks[0].nops; k++) {
    const Op *op = &g->ops[g->blocks[0].ops[k]];
    for (int side = 0; side < 2; side++) {
      const Slot *slots = side ? op->out : op->in;
      int n = side ? op->nout : op->nin;
      for (int si = 0; si < n; si++)
        for (int a = 0; a < slots[si].n; a++) {
          int id = slots[si].vars[a];
          if (id < 0 || p->vars[id].kind != PLAN_NONE) continue;
          const Var *v = &g->vars[id];
          const VarSpec *vs = &s->vars[id];
          if (v->vtype != VT_LOD_TENSOR || !vs->known) continue;
          size_t es = rt_dtype_size(v->dtype);
          SymDim ne = spec_numel(vs);
          if (!es || ne.a < 0) continue;
          SymDim bytes = {round_up(ne.a * (int64_t)es), round_up(ne.c * (int64_t)es)};
          p->vars[id] = (PlanVar){.kind = PLAN_ARENA, .offset = p->arena, .bytes = bytes};
          p->arena.a += bytes.a;
          p->arena.c += bytes.c;
          p->nslots++;
        }
    }
  }
  return 0;
}
