/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_plot.c - SVG rendering of captures.
 */
#include "ir_plot.h"

#include <errno.h>
#include <inttypes.h>

#include "ir_frame_format.h"
#include "ir_protocol.h"

#define WAVE_Y 30
#define WAVE_H 100
#define BARS_Y 150
#define BARS_H 30
#define FRAMES_Y 200
#define AXIS_Y 250
#define HEIGHT 280

static double xpos(const struct ir_plot *p, uint64_t t)
{
	return (double)(t - p->from_us) * p->width / (double)(p->to_us - p->from_us);
}

/* XML text needs its specials escaped; labels come from protocol names. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* One vertical line per column from min to max: O(width) output whatever
 * the file's length. */
static void put_wave(FILE *f, const struct ir_plot *p)
{
	fputs("<path class=\"wave\" stroke=\"#36c\" stroke-width=\"1\" d=\"", f);
	for (unsigned x = 0; x < p->width; x++) {
		double y0 = WAVE_Y + WAVE_H / 2.0 * (1 - p->wave_max[x]);
		double y1 = WAVE_Y + WAVE_H / 2.0 * (1 - p->wave_min[x]);

		fprintf(f, "M%u.5 %.1fV%.1f", x, y0, y1 + 0.5);
	}
	fputs("\"/>\n", f);
}

/* Pulse bars, labelled with their duration where the text fits. */
static void put_edges(FILE *f, const struct ir_plot *p)
{
	uint64_t t = 0;

	fputs("<g class=\"edges\">\n", f);
	for (size_t i = 0; i < p->nedges; i++) {
		const struct ir_edge *e = &p->edges[i];
		uint64_t t1;

		if (!ir_edge_is_timing(e))
			continue;
		t1 = t + e->duration;
		if (t1 > p->from_us && t < p->to_us) {
			double x0 = xpos(p, t < p->from_us ? p->from_us : t);
			double x1 = xpos(p, t1 > p->to_us ? p->to_us : t1);
			int pulse = e->kind == IR_PULSE;

			if (pulse)
				fprintf(f,
					"<rect class=\"pulse\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
					"height=\"%d\" fill=\"#c33\"/>\n",
					x0, BARS_Y, x1 - x0 > 0.5 ? x1 - x0 : 0.5, BARS_H);
			if (x1 - x0 > 30)
				fprintf(f,
					"<text class=\"dur\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
					"font-size=\"8\">%" PRIu32 "</text>\n",
					(x0 + x1) / 2, pulse ? BARS_Y - 3 : BARS_Y + BARS_H - 10,
					e->duration);
		}
		t = t1;
	}
	fputs("</g>\n", f);
}

static void put_frames(FILE *f, const struct ir_plot *p)
{
	for (size_t i = 0; i < p->nframes; i++) {
		const struct ir_frame *fr = &p->frames[i];
		const struct ir_protocol_info *info = ir_protocol_get(fr->protocol);
		double x0, x1;

		if (fr->end_us < p->from_us || fr->start_us > p->to_us)
			continue;
		x0 = xpos(p, fr->start_us < p->from_us ? p->from_us : fr->start_us);
		x1 = xpos(p, fr->end_us > p->to_us ? p->to_us : fr->end_us);
		fprintf(f,
			"<rect class=\"frame\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"16\" "
			"fill=\"#dfd\" stroke=\"#393\"/>\n"
			"<text class=\"label\" x=\"%.1f\" y=\"%d\">",
			x0, FRAMES_Y, x1 - x0 > 1 ? x1 - x0 : 1, x0 + 2, FRAMES_Y + 12);
		put_text(f, info ? info->name : "?");
		fprintf(f, ":0x%" PRIx64 "%s%s</text>\n", fr->scancode,
			fr->flags & IR_FRAME_REPEAT ? " repeat" : "",
			fr->flags & IR_FRAME_TOGGLE ? " toggle" : "");
	}
}

/* The time axis: ticks at a 1-2-5 step giving at most ~10 labels. */
static void put_axis(FILE *f, const struct ir_plot *p)
{
	uint64_t span = p->to_us - p->from_us, step = 1;

	while (span / step > 10) {
		uint64_t lead = step;

		while (lead >= 10)
			lead /= 10;
		step = lead == 2 ? step / 2 * 5 : step * 2; /* 1, 2, 5, 10, 20, 50 ... */
	}
	fprintf(f, "<line x1=\"0\" y1=\"%d\" x2=\"%u\" y2=\"%d\" stroke=\"black\"/>\n", AXIS_Y,
		p->width, AXIS_Y);
	for (uint64_t tk = (p->from_us + step - 1) / step * step; tk <= p->to_us; tk += step)
		fprintf(f,
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>"
			"<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.4g ms</text>\n",
			xpos(p, tk), AXIS_Y, xpos(p, tk), AXIS_Y + 5, xpos(p, tk), AXIS_Y + 16,
			tk / 1000.0);
}

int ir_plot_svg(FILE *f, const struct ir_plot *p)
{
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"10\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		p->width, HEIGHT);
	if (p->title) {
		fputs("<text x=\"4\" y=\"14\" font-size=\"12\">", f);
		put_text(f, p->title);
		fputs("</text>\n", f);
	}
	if (p->wave_min && p->wave_max)
		put_wave(f, p);
	put_edges(f, p);
	put_frames(f, p);
	put_axis(f, p);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
