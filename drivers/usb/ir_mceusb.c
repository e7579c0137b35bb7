/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ir_mceusb.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

/* Lead bytes: 0x9F is a command to/from the IR port, 0xFF to the system;
 * 0x80|n (n = 0..30) is a data packet of n samples, n = 0 ends a burst. */
#define MCE_CMD_PORT_IR 0x9F
#define MCE_CMD_PORT_SYS 0xFF
#define MCE_DATA_HEADER 0x80
#define MCE_DATA_LEN_MASK 0x1F
#define MCE_PULSE_BIT 0x80
#define MCE_CLOCK_HZ 10000000u

enum rx_state {
	RX_HEADER,   /* expecting a lead byte */
	RX_SAMPLES,  /* inside a data packet */
	RX_SUBCMD,   /* after 9F/FF: expecting the command byte */
	RX_ARGS,     /* collecting a command's argument bytes */
};

struct ir_mceusb_rx {
	enum rx_state state;
	unsigned remaining;  /* samples or argument bytes still due */
	uint8_t port, cmd;
	uint8_t args[2];
	unsigned nargs;
	int run_kind;        /* -1: no pending run */
	uint32_t run_us;
	uint32_t timeout_us;
	uint32_t tx_carrier_hz;
	bool undercount;     /* add one cycle per pulse to carrier counts */
	uint32_t pulse_units; /* pulse time of this burst, 50 µs units */
	uint32_t pulse_count; /* pulses of this burst */
};

int ir_mceusb_rx_new(struct ir_mceusb_rx **out)
{
	struct ir_mceusb_rx *rx = calloc(1, sizeof(*rx));

	if (!rx)
		return -ENOMEM;
	rx->run_kind = -1;
	*out = rx;
	return 0;
}

void ir_mceusb_rx_free(struct ir_mceusb_rx *rx)
{
	free(rx);
}

uint32_t ir_mceusb_rx_timeout_us(const struct ir_mceusb_rx *rx)
{
	return rx->timeout_us;
}

uint32_t ir_mceusb_rx_tx_carrier_hz(const struct ir_mceusb_rx *rx)
{
	return rx->tx_carrier_hz;
}

void ir_mceusb_rx_set_undercount(struct ir_mceusb_rx *rx, bool undercount)
{
	rx->undercount = undercount;
}

/* Argument bytes of a response, by port and command (documented set;
 * unknown commands are assumed to carry none, which resynchronises on the
 * next lead byte). */
static unsigned cmd_arg_len(uint8_t port, uint8_t cmd)
{
	if (port == MCE_CMD_PORT_SYS) {
		switch (cmd) {
		case 0x11: return 5; /* tx port status */
		case 0x0B: return 4; /* hardware/software revision */
		case 0x18: return 4; /* wake pattern: protocol, payload, address, version */
		case 0x17:           /* wake source */
		case 0x20:           /* wake support */
		case 0x21:           /* device details */
		case 0x22: return 1; /* emulator interface version */
		default: return 0;   /* AA resume, FE illegal command, ... */
		}
	}
	switch (cmd) {
	case 0x04: return 2; /* answer to 9F 05 */
	case 0x06: return 2; /* TX carrier: prescaler, divisor */
	case 0x0C: return 2; /* timeout hi lo, 50 µs units */
	case 0x15: return 2; /* carrier cycle count hi lo */
	case 0x16: return 2; /* tx, rx port counts */
	case 0x01: return 1; /* end of signal */
	case 0x08: return 1; /* TX port mask */
	case 0x14: return 1; /* long/short receiver */
	default: return 0;   /* FE illegal command, 81 TX underrun, ... */
	}
}

static int flush_run(struct ir_mceusb_rx *rx, struct ir_edge_buf *out, int as_timeout)
{
	int r = 0;

	if (rx->run_kind >= 0 && rx->run_us) {
		struct ir_edge e = { .duration = rx->run_us, .kind = (uint8_t)rx->run_kind };

		if (as_timeout && e.kind == IR_SPACE)
			e.kind = IR_TIMEOUT;
		r = ir_edge_buf_push(out, e);
	}
	rx->run_kind = -1;
	rx->run_us = 0;
	if (as_timeout) {
		rx->pulse_units = 0;
		rx->pulse_count = 0;
	}
	return r;
}

static int sample(struct ir_mceusb_rx *rx, uint8_t b, struct ir_edge_buf *out)
{
	int kind = (b & MCE_PULSE_BIT) ? IR_PULSE : IR_SPACE;
	uint32_t us = (uint32_t)(b & 0x7F) * MCE_UNIT_US;
	int r = 0;

	if (!us)
		return 0;
	if (kind == IR_PULSE) {
		rx->pulse_units += b & 0x7F;
		rx->pulse_count++;
	}
	if (kind != rx->run_kind || rx->run_us + us > IR_DURATION_MAX)
		r = flush_run(rx, out, 0);
	rx->run_kind = kind;
	rx->run_us += us;
	return r;
}

static int command_done(struct ir_mceusb_rx *rx, struct ir_edge_buf *out)
{
	if (rx->port != MCE_CMD_PORT_IR)
		return 0;
	if (rx->cmd == 0x0C) {
		rx->timeout_us = ((uint32_t)rx->args[0] << 8 | rx->args[1]) * MCE_UNIT_US;
	} else if (rx->cmd == 0x06) {
		/* the transmitter's carrier, not a measurement of what came in */
		rx->tx_carrier_hz = ir_mceusb_carrier_hz(rx->args[0], rx->args[1]);
	} else if (rx->cmd == 0x15) {
		/* Carrier cycles counted by the learning receiver over this
		 * burst's pulses (the long-range receiver always says 0):
		 * f = cycles / pulse time = 20000 * cycles / pulse units. */
		uint32_t cycles = (uint32_t)rx->args[0] << 8 | rx->args[1];

		if (cycles && rx->pulse_units) {
			uint64_t hz;
			struct ir_edge e = { .kind = IR_CARRIER };

			if (rx->undercount)
				cycles += rx->pulse_count;
			hz = (uint64_t)(1000000u / MCE_UNIT_US) * cycles / rx->pulse_units;
			e.duration = hz > IR_DURATION_MAX ? IR_DURATION_MAX : (uint32_t)hz;
			return ir_edge_buf_push(out, e);
		}
	}
	return 0;
}

int ir_mceusb_rx_feed(struct ir_mceusb_rx *rx, const uint8_t *data, size_t len,
		      struct ir_edge_buf *out)
{
	for (size_t i = 0; i < len; i++) {
		uint8_t b = data[i];
		int r = 0;

		switch (rx->state) {
		case RX_HEADER:
			if (b == MCE_CMD_PORT_IR || b == MCE_CMD_PORT_SYS) {
				rx->port = b;
				rx->state = RX_SUBCMD;
			} else if ((b & 0xE0) == MCE_DATA_HEADER) {
				rx->remaining = b & MCE_DATA_LEN_MASK;
				if (rx->remaining == 0)
					r = flush_run(rx, out, 1);
				else
					rx->state = RX_SAMPLES;
			}
			/* anything else (gen1 0xB1 0x60 prefix, noise): skip */
			break;
		case RX_SAMPLES:
			r = sample(rx, b, out);
			if (--rx->remaining == 0)
				rx->state = RX_HEADER;
			break;
		case RX_SUBCMD:
			rx->cmd = b;
			rx->nargs = 0;
			rx->remaining = cmd_arg_len(rx->port, b);
			if (rx->remaining == 0) {
				r = command_done(rx, out);
				rx->state = RX_HEADER;
			} else {
				rx->state = RX_ARGS;
			}
			break;
		case RX_ARGS:
			if (rx->nargs < sizeof(rx->args))
				rx->args[rx->nargs++] = b;
			if (--rx->remaining == 0) {
				r = command_done(rx, out);
				rx->state = RX_HEADER;
			}
			break;
		}
		if (r < 0)
			return r;
	}
	return 0;
}

uint32_t ir_mceusb_carrier_hz(uint8_t prescaler, uint8_t divisor)
{
	if (prescaler > 3 || divisor == 0)
		return 0;
	return (MCE_CLOCK_HZ >> (2 * prescaler)) / divisor;
}

int ir_mceusb_carrier_cmd(uint32_t hz, uint8_t out[4])
{
	out[0] = MCE_CMD_PORT_IR;
	out[1] = 0x06;
	if (hz == 0) {
		/* unmodulated output, as documented */
		out[2] = 0x01;
		out[3] = 0x80;
		return 4;
	}
	for (unsigned ps = 0; ps < 4; ps++) {
		uint32_t div = ((MCE_CLOCK_HZ >> (2 * ps)) + hz / 2) / hz;

		if (div >= 1 && div <= 255) {
			out[2] = (uint8_t)ps;
			out[3] = (uint8_t)div;
			return 4;
		}
	}
	return -EINVAL;
}

struct tx_writer {
	uint8_t *out;
	size_t cap, len;
	size_t hdr;        /* index of the open packet's header byte */
	unsigned nsamples; /* samples in the open packet */
};

static int tx_sample(struct tx_writer *w, uint8_t b)
{
	if (w->nsamples == 0 || w->nsamples == MCE_PACKET_MAX_SAMPLES) {
		if (w->len >= w->cap)
			return -ENOSPC;
		w->hdr = w->len;
		w->out[w->len++] = MCE_DATA_HEADER | MCE_PACKET_MAX_SAMPLES;
		w->nsamples = 0;
	}
	if (w->len >= w->cap)
		return -ENOSPC;
	w->out[w->len++] = b;
	w->nsamples++;
	return 0;
}

long ir_mceusb_tx_build(const struct ir_edge *edges, size_t n, uint8_t mask, uint8_t *out,
			size_t cap)
{
	struct tx_writer w = { .out = out, .cap = cap };

	if (cap < 3)
		return -ENOSPC;
	out[w.len++] = MCE_CMD_PORT_IR;
	out[w.len++] = 0x08;
	out[w.len++] = mask;
	for (size_t i = 0; i < n; i++) {
		const struct ir_edge *e = &edges[i];
		uint32_t units;

		if (e->kind != IR_PULSE && e->kind != IR_SPACE)
			continue;
		if (e->duration > IR_DURATION_MAX)
			return -EINVAL;
		units = (e->duration + MCE_UNIT_US / 2) / MCE_UNIT_US;
		while (units) {
			uint32_t u = units > MCE_SAMPLE_MAX ? MCE_SAMPLE_MAX : units;
			int r = tx_sample(&w, (uint8_t)(u | (e->kind == IR_PULSE ? MCE_PULSE_BIT : 0)));

			if (r < 0)
				return r;
			units -= u;
		}
	}
	/* the last packet's header states its real length */
	if (w.nsamples)
		out[w.hdr] = (uint8_t)(MCE_DATA_HEADER | w.nsamples);
	if (w.len >= w.cap)
		return -ENOSPC;
	out[w.len++] = MCE_DATA_HEADER;
	return (long)w.len;
}

long ir_mceusb_tx_split(const uint8_t *stream, size_t len, size_t max_write, size_t *ends,
			size_t max_ends)
{
	size_t n = 0, pos = 3, start;

	if (len < 4 || stream[0] != MCE_CMD_PORT_IR || stream[1] != 0x08 ||
	    max_write < 1 + MCE_PACKET_MAX_SAMPLES + 1)
		return -EINVAL;
	if (max_ends < 1)
		return -ENOSPC;
	ends[n++] = 3;
	start = pos;
	while (pos < len) {
		size_t plen;

		if ((stream[pos] & 0xE0) != MCE_DATA_HEADER)
			return -EINVAL;
		plen = 1 + (stream[pos] & MCE_DATA_LEN_MASK);
		if (pos + plen > len)
			return -EINVAL;
		if (pos + plen - start > max_write) {
			if (n >= max_ends)
				return -ENOSPC;
			ends[n++] = pos;
			start = pos;
		}
		pos += plen;
	}
	if (n >= max_ends)
		return -ENOSPC;
	ends[n++] = len;
	return (long)n;
}
