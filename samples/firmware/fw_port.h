/* What main.c needs from the platform: a line of text out and an exit.
 * startup.c implements them with ARM semihosting; host_port.c with stdio,
 * for the same program built natively. */
#ifndef FW_PORT_H
#define FW_PORT_H

void fw_puts(const char *s);
void fw_exit(int status);

#endif
