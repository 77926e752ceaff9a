/* The memory plan in the generated model (codegen_plan.h).  A plan in one
 * piece puts each buffer at an affine offset that the kernels spell out; a
 * plan in pieces has a table of offsets for each range of batches, and a
 * run points m->off at its batch's (see plan.h for why). */
#include "codegen_plan.h"

#include "emit.h"
#include "util.h"

/* "(size_t)a * (size_t)(batch) + (size_t)c" */
static const char *affine_bytes(SymDim d) {
  return pool_printf("(size_t)%lld * (size_t)(batch) + (size_t)%lld", (long long)d.a, (long long)d.c);
}

PlanText plan_text(const Plan *p, const char *prefix) {
  PlanText t;
  if (p->npieces == 1) {
    t.tensor_bytes = pool_printf(" (%s)", affine_bytes(p->arena));
    t.code = pool_printf("/* Bytes of the tensors at `batch` (the memory plan's arena). */\n"
                         "static int tensor_bytes(int64_t batch, int64_t *t) { return affine(%lld, batch, %lld, t); }\n",
                         (long long)p->arena.a, (long long)p->arena.c);
    t.field = t.place = "";
    return t;
  }
  Printer pr;
  pr_init(&pr);
  const char *macro = " \\\n  (";
  for (int k = 0; k < p->npieces; k++) {
    const PlanPiece *pc = &p->pieces[k];
    macro = pc->hi ? pool_printf("%s(batch) <= %lld ? %s : \\\n   ", macro, (long long)pc->hi, affine_bytes(pc->arena))
                   : pool_printf("%s%s)", macro, affine_bytes(pc->arena));
  }
  t.tensor_bytes = macro;
  pr_raw(&pr, "/* The memory plan in %d pieces, one for each range of batches (up to hi;\n", p->npieces);
  pr_raw(&pr, " * 0: no end), each packed for its range: the bytes of the tensors, a * batch\n");
  pr_raw(&pr, " * + c, and where each of the %d arena buffers starts.  A run takes the\n", p->nbufs);
  pr_raw(&pr, " * piece of its batch (the dump of `paddlec compile --dump-memplan` names the\n");
  pr_raw(&pr, " * tensors of each buffer). */\n");
  pr_raw(&pr, "static const struct {\n");
  pr_raw(&pr, "  int64_t hi, a, c;\n");
  pr_raw(&pr, "} plan_pieces[%d] = {\n", p->npieces);
  for (int k = 0; k < p->npieces; k++)
    pr_raw(&pr, "    {%lld, %lld, %lld},\n", (long long)p->pieces[k].hi, (long long)p->pieces[k].arena.a,
            (long long)p->pieces[k].arena.c);
  pr_raw(&pr, "};\n");
  pr_raw(&pr, "static const int64_t plan_offsets[%d][%d][2] = {\n", p->npieces, p->nbufs);
  for (int k = 0; k < p->npieces; k++) {
    pr_raw(&pr, "    {\n");
    for (int i = 0; i < p->nbufs; i += 6) {
      const char *row = "";
      for (int j = i; j < p->nbufs && j < i + 6; j++)
        row = pool_printf("%s%s{%lld, %lld},", row, j > i ? " " : "", (long long)p->pieces[k].offset[j].a,
                          (long long)p->pieces[k].offset[j].c);
      pr_raw(&pr, "        %s\n", row);
    }
    pr_raw(&pr, "    },\n");
  }
  pr_raw(&pr, "};\n");
  pr_raw(&pr, "\n");
  pr_raw(&pr, "static int plan_piece(int64_t batch) {\n");
  pr_raw(&pr, "  int k = 0;\n");
  pr_raw(&pr, "  while (k + 1 < %d && batch > plan_pieces[k].hi) k++;\n", p->npieces);
  pr_raw(&pr, "  return k;\n");
  pr_raw(&pr, "}\n");
  pr_raw(&pr, "\n");
  pr_raw(&pr, "/* Bytes of the tensors at `batch` (the memory plan's arena). */\n");
  pr_raw(&pr, "static int tensor_bytes(int64_t batch, int64_t *t) {\n");
  pr_raw(&pr, "  const int k = plan_piece(batch);\n");
  pr_raw(&pr, "  return affine(plan_pieces[k].a, batch, plan_pieces[k].c, t);\n");
  pr_raw(&pr, "}\n");
  pr_raw(&pr, "\n");
  pr_raw(&pr, "/* Points the arena buffers at their offsets for `batch` (act_bytes has\n");
  pr_raw(&pr, " * checked that it fits). */\n");
  pr_raw(&pr, "static void place_tensors(%s_model *m, int64_t batch) {\n", prefix);
  pr_raw(&pr, "  const int k = plan_piece(batch);\n");
  pr_raw(&pr, "  for (int i = 0; i < %d; i++) m->off[i] = (size_t)(plan_offsets[k][i][0] * batch + plan_offsets[k][i][1]);\n",
          p->nbufs);
  pr_raw(&pr, "}\n");
  t.code = pool_strdup(pr.buf);
  pr_free(&pr);
  t.field = pool_printf("\n  size_t off[%d];              /* where each arena buffer starts in this run */", p->nbufs);
  t.place = "\n    place_tensors(m, batch);";
  return t;
}

PlanText size_class_plan_text(const Plan *p, const ScratchPlan *s) {
  PlanText t;
  t.tensor_bytes = SIZE_CLASS_TENSOR_BYTES;
  t.code = SIZE_CLASS_PLAN;
  t.field = pool_printf("\n  int size_class;             /* the class of the sizes set (choose_class) */"
                        "\n  size_t off[%d];              /* where each arena buffer starts in this run */"
                        "%s"
                        "\n  size_t ws_base, ws_slot;     /* where the scratch slots start, the bytes of one */",
                        p->nbufs ? p->nbufs : 1,
                        s->nregions ? pool_printf("\n  size_t ws_off[%d];           /* where each scratch region "
                                                  "starts in a slot */", s->nregions)
                                    : "");
  t.place = "\n    place_tensors(m, batch);";
  return t;
}
