/* What the compiler needs to know of the CPU the generated code is built
 * for (--march): the layout of prepared weights that suits its kernels. */
#ifndef PADDLEC_TARGET_H
#define PADDLEC_TARGET_H

/* The panel height (rt_blocking.h) for weights prepared for rt_pp_gemm on
 * a -march=MARCH target compiled with CC: RT_PP_PANEL_WIDE when that
 * target has AVX-512 (the C compiler defines __AVX512F__ for it), else
 * RT_PP_PANEL_NARROW; NARROW when march is NULL or empty (the compiler's
 * baseline) or CC cannot tell.  Any height computes the same results on
 * any target; this only picks the faster one. */
int target_pp_panel(const char *cc, const char *march);

#endif
