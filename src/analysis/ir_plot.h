/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_plot.h - an SVG picture of an IR capture: waveform envelope (audio),
 * pulse/space bars with durations, decoded frames, a time axis.  No
 * dependencies; writes to a caller's FILE*.
 */
#ifndef IRJACK_IR_PLOT_H
#define IRJACK_IR_PLOT_H

#include <stdint.h>
#include <stdio.h>

#include "ir_decoder.h"
#include "ir_edge.h"

struct ir_plot {
	uint64_t from_us, to_us;  /* the window shown */
	unsigned width;           /* pixels */
	const float *wave_min, *wave_max; /* `width` columns each, or NULL (timings) */
	const struct ir_edge *edges;      /* the whole stream from time 0; borrowed */
	size_t nedges;
	const struct ir_frame *frames;    /* decoded frames; borrowed */
	size_t nframes;
	const char *title;
};

/* Writes the SVG document.  Returns 0 or -EIO. */
int ir_plot_svg(FILE *f, const struct ir_plot *p);

/*
 * Reads a recording for plotting (ir_plot_read.c): audio is demodulated
 * and its waveform reduced to `width` columns between from_us and to_us
 * (to_us 0: the end), timings are decoded; of several audio channels the
 * one with the most frames is shown.  Fills *p (borrowing from *out, which
 * the caller frees with ir_plot_capture_free()).  Returns 0, or a negative
 * errno with the reason in `err`.
 */
struct ir_plot_capture;
int ir_plot_read(const char *path, uint64_t from_us, uint64_t to_us, unsigned width,
		 struct ir_plot_capture **out, struct ir_plot *p, char *err, size_t err_size);
void ir_plot_capture_free(struct ir_plot_capture *c);

#endif
