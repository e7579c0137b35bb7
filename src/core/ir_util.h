/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_util.h - small helpers every layer may use.
 */
#ifndef IRJACK_IR_UTIL_H
#define IRJACK_IR_UTIL_H

/* The number of elements of an array (not a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
