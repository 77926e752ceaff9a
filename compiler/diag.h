/* Diagnostics. User errors name the file and the op or variable and exit 1;
 * internal errors say so and exit 2 (STYLE.md habit 4). */
#ifndef PADDLEC_DIAG_H
#define PADDLEC_DIAG_H

#include <stdarg.h>

/* Prints "paddlec: error: <msg>" and counts it; returns -1 for chaining. */
int diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int diag_verror(const char *fmt, va_list ap);
/* Prints "paddlec: warning: <msg>". */
void diag_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "paddlec: note: <msg>" (more about the error before it). */
void diag_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "paddlec: internal error: <msg>" and exits 2 (the attribute's
 * noreturn too: cppcheck does not read _Noreturn). */
_Noreturn void diag_internal(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
/* Number of errors printed so far. */
int diag_count(void);
/* Sets the count back to 0 (fuzz harnesses, between inputs). */
void diag_reset(void);
/* Quiet (on 1): errors, warnings and notes are counted but not printed, for
 * a try whose failure the caller handles (a size class that does not
 * compile, size_class.c); returns the previous setting. */
int diag_quiet(int on);
/* Sets the count of errors (back to what it was before a quiet try). */
void diag_set_count(int n);

#endif
