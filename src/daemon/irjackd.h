/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd.h - the service's pieces shared by its main() and its loop.
 */
#ifndef IRJACK_IRJACKD_H
#define IRJACK_IRJACKD_H

#include <stdarg.h>
#include <stdbool.h>

#include "ir_keymap.h"
#include "irjackd_config.h"

/* Log levels are syslog's (LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG).
 * Messages go to stderr; under systemd (JOURNAL_STREAM set) each line
 * carries the "<N>" priority prefix the journal understands. */
void irjackd_set_log_level(int level);
/* Whether messages of `level` are logged (so a caller can skip the work). */
bool irjackd_log_enabled(int level);
void irjackd_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for one finished line, as the outputs' logger (struct
 * ir_output_env.log); safe from any thread. */
void irjackd_log_line(void *userdata, int level, const char *message);

/* Tells systemd the service's state ("READY=1" ...) when run under it. */
void irjackd_notify(const char *state);

/* Loads every keymap the configuration names into a new keymap (the
 * caller frees it); errors are logged with file:line.  Returns 0 or a
 * negative errno. */
int irjackd_load_keymaps(const struct irjackd_config *cfg, struct ir_keymap **out);

/*
 * Runs the service until SIGTERM/SIGINT (or, with no socket or uinput
 * output, until every file source is replayed).  Takes ownership of `cfg`
 * and `km` (heap-allocated; freed here, or replaced on SIGHUP by a reload
 * of `config_path`).  Returns 0 on a clean stop, a negative errno when the
 * service could not start or failed.
 */
int irjackd_run(const char *config_path, struct irjackd_config *cfg, struct ir_keymap *km);

#endif
