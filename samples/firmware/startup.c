/* Bare-metal start-up for a Cortex-M4 (QEMU's mps2-an386, see
 * mps2_an386.ld): the vector table, a reset handler that enables the FPU,
 * copies .data and zeroes .bss before main, and output and exit through
 * ARM semihosting (QEMU: -semihosting-config enable=on,target=native).  No
 * C library start-up code, no heap: nothing here provides sbrk, so a
 * program that links malloc does not link at all. */
#include <stdint.h>

#include "fw_port.h"

extern uint32_t _sidata[], _sdata[], _edata[], _sbss[], _ebss[], _estack[];
int main(void);
void Reset_Handler(void);
void Fault_Handler(void);
void fw_start(void);

/* ARM semihosting: operation in r0, argument in r1, result in r0. */
static int semihost(int op, const void *arg) {
  register int r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

void fw_puts(const char *s) { semihost(0x04, s); /* SYS_WRITE0 */ }

void fw_exit(int status) {
  /* SYS_EXIT with ADP_Stopped_ApplicationExit (QEMU exits 0) or
   * ADP_Stopped_RunTimeErrorUnknown (QEMU exits 1) */
  semihost(0x18, (const void *)(uintptr_t)(status == 0 ? 0x20026 : 0x20023));
  for (;;) {
  }
}

/* Enables the FPU (CP10, CP11) before any floating-point instruction, then
 * sets up C and calls main: plain assembly, so that no code the compiler
 * generates runs with the FPU off. */
__attribute__((naked)) void Reset_Handler(void) {
  __asm__ volatile(
      "ldr r0, =0xE000ED88\n" /* CPACR */
      "ldr r1, [r0]\n"
      "orr r1, r1, #(0xF << 20)\n"
      "str r1, [r0]\n"
      "dsb\n"
      "isb\n"
      "bl fw_start\n"
      "b .\n");
}

void fw_start(void) {
  for (uint32_t *s = _sidata, *d = _sdata; d < _edata;) *d++ = *s++;
  for (uint32_t *d = _sbss; d < _ebss;) *d++ = 0;
  fw_exit(main());
}

void Fault_Handler(void) {
  fw_puts("fault\n");
  fw_exit(1);
}

/* The initial stack pointer, then reset and the system exceptions (NMI,
 * HardFault, MemManage, BusFault, UsageFault, 4 reserved, SVCall,
 * DebugMonitor, 1 reserved, PendSV, SysTick); no interrupts are enabled. */
#define F Fault_Handler
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))(uintptr_t)_estack, Reset_Handler, F, F, F, F, F, 0, 0, 0, 0, F, F, 0, F, F};
#undef F
