/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd_lirc_options.h - a LIRC install's /etc/lirc/lirc_options.conf,
 * read as lircd reads its [lircd] section, so that moving from lircd to
 * irjackd needs no new configuration:
 *
 *   output          the lircd socket's path (clients find it without -d)
 *   permission      its mode (octal, lircd's 666 default)
 *   allow-simulate  SIMULATE allowed
 *   driver, device  a source: "default" -> type lirc on device (/dev/lirc0
 *                   for "auto"); "audio_alsa"/"alsa_usb" -> type alsa;
 *                   other drivers (devinput included, for now) are named in
 *                   a warning and add no source
 *   loglevel        3..10 or error|warning|notice|info|debug|trace...
 *   listen          [address:]port (empty: 8765): [output lircd] listen
 *   connect         host[:port]: a source "lircd-connect", type = lircd
 * lircd's other keys (pidfile, plugindir, nodaemon, repeat-max...) mean
 * nothing to irjackd and are passed over; unknown keys are warned about
 * with file:line, never fatal (lircd passes over them too).  Other sections
 * ([lircmd], [modinit]...) belong to other programs and are skipped.
 *
 * `configfile` (lircd's lircd.conf; by default the lircd.conf beside the
 * file, if there is one) is added to the keymaps, with its includes.  What irjackd.conf says explicitly
 * wins: an [output lircd] section there keeps its own path, mode and
 * simulate.
 */
#ifndef IRJACK_IRJACKD_LIRC_OPTIONS_H
#define IRJACK_IRJACKD_LIRC_OPTIONS_H

#include "irjackd_config.h"

/*
 * Applies `path`'s [lircd] section to `cfg` (already read from
 * irjackd.conf).  Warnings go to the log.  Returns 0, or a negative errno
 * with `err` filled (line 0 when the file cannot be read; a bad value such
 * as permission = 9 with its line), the message naming the file.
 */
int irjackd_lirc_options_apply(const char *path, struct irjackd_config *cfg,
			       struct irjackd_config_error *err);

#endif
