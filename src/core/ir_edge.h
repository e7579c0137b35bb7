/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_edge.h - the one type every part of irjack exchanges: a timed IR event.
 *
 * Sources (audio demodulator, USB receivers, /dev/lircN, timing files)
 * produce edges; decoders, writers and transmitters consume them.  It carries
 * what the kernel's struct ir_raw_event and LIRC's mode2 words carry:
 *
 *   IR_PULSE    light (carrier on) for `duration` µs
 *   IR_SPACE    no light for `duration` µs
 *   IR_TIMEOUT  the line has been idle for `duration` µs since the last pulse
 *               ended and the source gave up waiting: every decoder finishes
 *               or resets.  If the source later learns how long the idle
 *               period really was, it sends the remainder as an IR_SPACE, so
 *               the sum of all durations is always the stream's length.
 *   IR_CARRIER  a carrier measurement: `duration` holds the frequency in Hz,
 *               `duty_cycle` the duty cycle in percent (0 = unknown).  Takes
 *               no time.
 *   IR_OVERFLOW the source lost data (buffer overrun, xrun): decoders reset.
 *               Takes no time.
 */
#ifndef IRJACK_IR_EDGE_H
#define IRJACK_IR_EDGE_H

#include <stddef.h>
#include <stdint.h>

enum ir_edge_kind {
	IR_SPACE = 0,
	IR_PULSE = 1,
	IR_TIMEOUT = 2,
	IR_CARRIER = 3,
	IR_OVERFLOW = 4,
};

/* LIRC's mode2 words hold 24 bits of µs: the longest duration anything in
 * the ecosystem can express (16.7 s).  Readers reject longer values. */
#define IR_DURATION_MAX 0x00FFFFFFu

/* The longest signal irjack synthesizes or transmits in one piece (µs):
 * lircd's SEND_ONCE limit, 1,000 NEC repeat codes of 108 ms, is 108 s; the
 * longest real capture in the test corpus (IRMP's xbox360) is 133 s.
 * Rendering is done whole, so the work and memory follow the signal's
 * length, not the input's size: an 11 KB mode2 file of 16.7 s durations
 * asked for 3 hours of audio (13.5 s, 1.26 GB); beyond this, an error. */
#define IR_SIGNAL_MAX_US (300u * 1000000u)

/* The carrier (Hz) when nothing says which: LIRC's default for a remote
 * without `frequency`, and what most consumer remotes use. */
#define IR_CARRIER_DEFAULT_HZ 38000u

struct ir_edge {
	uint32_t duration; /* µs, or Hz for IR_CARRIER */
	uint8_t kind;      /* enum ir_edge_kind */
	uint8_t duty_cycle; /* IR_CARRIER only: percent, 0 = unknown */
};

static inline struct ir_edge ir_pulse(uint32_t us)
{
	return (struct ir_edge){ .duration = us, .kind = IR_PULSE };
}

static inline struct ir_edge ir_space(uint32_t us)
{
	return (struct ir_edge){ .duration = us, .kind = IR_SPACE };
}

/* True for the kinds that occupy time on the line (pulse, space, timeout). */
static inline int ir_edge_is_timing(const struct ir_edge *e)
{
	return e->kind == IR_PULSE || e->kind == IR_SPACE || e->kind == IR_TIMEOUT;
}

/* Name of a kind as mode2 text spells it ("pulse", "space", "timeout",
 * "carrier", "overflow"). */
const char *ir_edge_kind_name(enum ir_edge_kind kind);

/*
 * A growable array of edges.  Zero-initialise it (`struct ir_edge_buf b = {0}`)
 * before the first push; the buffer owns `edges` and ir_edge_buf_free()
 * releases it.  Pushing merges with the previous edge when both are pulses
 * or both are spaces (as ir-ctl and the kernel do), so encoders can emit
 * Manchester half-bits one at a time.
 */
struct ir_edge_buf {
	struct ir_edge *edges;
	size_t len;
	size_t cap;
};

/* Appends `e` (merging same-kind pulse/space runs).  A zero-length pulse or
 * space is dropped.  Returns 0, -ENOMEM, or -ERANGE when a merged duration
 * would exceed IR_DURATION_MAX. */
int ir_edge_buf_push(struct ir_edge_buf *buf, struct ir_edge e);
int ir_edge_buf_pulse(struct ir_edge_buf *buf, uint32_t us);
int ir_edge_buf_space(struct ir_edge_buf *buf, uint32_t us);
/* Appends every edge of `src` with ir_edge_buf_push(). */
int ir_edge_buf_append(struct ir_edge_buf *buf, const struct ir_edge *src, size_t n);
/* Sum of the durations of pulses, spaces and timeouts. */
uint64_t ir_edge_buf_duration(const struct ir_edge_buf *buf);
void ir_edge_buf_clear(struct ir_edge_buf *buf);
void ir_edge_buf_free(struct ir_edge_buf *buf);

#endif
