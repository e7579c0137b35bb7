/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_protocol.c - the registry of protocol families, name lookup and the
 * encoder entry point.  Each family file owns its protocols' numbers
 * (struct ir_protocol_info); this file only lists the families.
 */
#include "ir_protocol.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "ir_family.h"

/* Decode order matters only for the order frames of two protocols that end
 * on the same edge are reported in; keep rc-core's registration order. */
const struct ir_family *const ir_families[] = {
	&ir_family_nec,
	&ir_family_rc5,
	&ir_family_rc6,
	&ir_family_sony,
	&ir_family_sharp,
	&ir_family_mce_kbd,
	&ir_family_xmp,
	&ir_family_imon,
	&ir_family_rcmm,
	&ir_family_kaseikyo,
	&ir_family_grundig,
	&ir_family_nubert,
	&ir_family_ruwido,
	&ir_family_bang_olufsen,
	&ir_family_pulse_distance_table,
	&ir_family_biphase_table,
	&ir_family_netbox,
	&ir_family_irp_table,
	&ir_family_lirc,
	&ir_family_generic,
	NULL,
};

const struct ir_family *ir_protocol_family(enum ir_protocol p)
{
	for (size_t f = 0; ir_families[f]; f++)
		for (size_t i = 0; i < ir_families[f]->protocol_count; i++)
			if (ir_families[f]->protocols[i].id == p)
				return ir_families[f];
	return NULL;
}

const struct ir_protocol_info *ir_protocol_get(enum ir_protocol p)
{
	for (size_t f = 0; ir_families[f]; f++)
		for (size_t i = 0; i < ir_families[f]->protocol_count; i++)
			if (ir_families[f]->protocols[i].id == p)
				return &ir_families[f]->protocols[i];
	return NULL;
}

size_t ir_protocol_count(void)
{
	size_t n = 0;

	for (size_t f = 0; ir_families[f]; f++)
		n += ir_families[f]->protocol_count;
	return n;
}

const struct ir_protocol_info *ir_protocol_at(size_t index)
{
	for (size_t f = 0; ir_families[f]; f++) {
		if (index < ir_families[f]->protocol_count)
			return &ir_families[f]->protocols[index];
		index -= ir_families[f]->protocol_count;
	}
	return NULL;
}

/* Lower case with '-' and '_' removed: "RC-MM-32" and "rcmm32" compare equal. */
static void normalise_name(const char *in, size_t len, char *out, size_t out_size)
{
	size_t o = 0;

	for (size_t i = 0; i < len && in[i] && o + 1 < out_size; i++) {
		if (in[i] == '-' || in[i] == '_' || in[i] == ' ')
			continue;
		out[o++] = (char)tolower((unsigned char)in[i]);
	}
	out[o] = '\0';
}

/* Spellings used by ir-keytable, ir-ctl and LIRC that normalise to
 * something other than the canonical name. */
static const struct {
	const char *alias;
	enum ir_protocol id;
} protocol_aliases[] = {
	{ "mcir2kbd", IR_PROTO_MCIR2_KBD },
	{ "mcekbd", IR_PROTO_MCIR2_KBD },
	{ "mcir2mse", IR_PROTO_MCIR2_MSE },
	{ "mcir2mouse", IR_PROTO_MCIR2_MSE },
	{ "mcemouse", IR_PROTO_MCIR2_MSE },
	{ "rc6mce", IR_PROTO_RC6_MCE },
	{ "mce", IR_PROTO_RC6_MCE },
	{ "rc5x", IR_PROTO_RC5X_20 },
	{ "denon", IR_PROTO_SHARP }, /* Denon's 15-bit frames are Sharp's, check bits 0/0 */
	{ "sirc", IR_PROTO_SONY12 },
	{ "sircs", IR_PROTO_SONY12 },
};

int ir_protocol_from_name(const char *name, enum ir_protocol *out)
{
	char want[64], have[64];

	if (!name)
		return -ENOENT;
	normalise_name(name, strlen(name), want, sizeof(want));
	for (size_t i = 0; i < ir_protocol_count(); i++) {
		const struct ir_protocol_info *info = ir_protocol_at(i);

		normalise_name(info->name, strlen(info->name), have, sizeof(have));
		if (strcmp(want, have) == 0) {
			*out = info->id;
			return 0;
		}
	}
	for (size_t i = 0; i < sizeof(protocol_aliases) / sizeof(protocol_aliases[0]); i++) {
		if (strcmp(want, protocol_aliases[i].alias) == 0 &&
		    ir_protocol_get(protocol_aliases[i].id)) {
			*out = protocol_aliases[i].id;
			return 0;
		}
	}
	return -ENOENT;
}

bool ir_protocol_rc_core_view(enum ir_protocol p, uint64_t scancode, enum ir_protocol *rc_proto,
			      uint64_t *rc_scancode)
{
	const struct ir_family *family = ir_protocol_family(p);

	if ((unsigned)p < 32 && family) {
		*rc_proto = p;
		*rc_scancode = scancode;
		return true;
	}
	if (family && family->rc_core_view)
		return family->rc_core_view(p, scancode, rc_proto, rc_scancode);
	return false;
}

void ir_protocol_set_all(struct ir_protocol_set *s)
{
	ir_protocol_set_clear(s);
	for (size_t i = 0; i < ir_protocol_count(); i++)
		ir_protocol_set_add(s, ir_protocol_at(i)->id);
}

void ir_protocol_set_default(struct ir_protocol_set *s)
{
	ir_protocol_set_clear(s);
	for (size_t i = 0; i < ir_protocol_count(); i++)
		if (!ir_protocol_at(i)->not_default)
			ir_protocol_set_add(s, ir_protocol_at(i)->id);
}

/* Adds the protocols that `token` (len bytes) names: "all", "default", a family name,
 * or a protocol name.  Returns 0 or -ENOENT. */
static int protocol_set_add_token(struct ir_protocol_set *s, const char *token, size_t len)
{
	char want[64], have[64];
	enum ir_protocol p;
	bool found = false;

	normalise_name(token, len, want, sizeof(want));
	if (strcmp(want, "all") == 0 || strcmp(want, "default") == 0) {
		struct ir_protocol_set all;

		if (want[0] == 'a')
			ir_protocol_set_all(&all);
		else
			ir_protocol_set_default(&all);
		for (size_t i = 0; i < IR_PROTO_COUNT / 64; i++)
			s->bits[i] |= all.bits[i];
		return 0;
	}
	for (size_t i = 0; i < ir_protocol_count(); i++) {
		const struct ir_protocol_info *info = ir_protocol_at(i);

		normalise_name(info->family, strlen(info->family), have, sizeof(have));
		if (strcmp(want, have) == 0) {
			ir_protocol_set_add(s, info->id);
			found = true;
		}
	}
	if (found)
		return 0;
	char copy[64];

	if (len >= sizeof(copy))
		return -ENOENT;
	memcpy(copy, token, len);
	copy[len] = '\0';
	if (ir_protocol_from_name(copy, &p) < 0)
		return -ENOENT;
	ir_protocol_set_add(s, p);
	return 0;
}

int ir_protocol_set_parse(const char *list, struct ir_protocol_set *out, char *bad,
			  size_t bad_size)
{
	const char *p = list;

	ir_protocol_set_clear(out);
	while (*p) {
		size_t len = strcspn(p, ",");
		const char *tok = p;
		size_t toklen = len;

		while (toklen && isspace((unsigned char)*tok)) {
			tok++;
			toklen--;
		}
		while (toklen && isspace((unsigned char)tok[toklen - 1]))
			toklen--;
		if (toklen && protocol_set_add_token(out, tok, toklen) < 0) {
			if (bad && bad_size) {
				size_t n = toklen < bad_size - 1 ? toklen : bad_size - 1;

				memcpy(bad, tok, n);
				bad[n] = '\0';
			}
			return -ENOENT;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Ends the transmission that started at `start_len` with enough silence to
 * fill `period` µs from its start, and at least `min_gap` µs. */
static int pad_transmission(struct ir_edge_buf *out, size_t start_len, uint32_t period,
			    uint32_t min_gap)
{
	uint64_t dur = 0;
	uint32_t trailing = 0;

	for (size_t i = start_len; i < out->len; i++)
		dur += out->edges[i].duration;
	if (out->len > start_len && out->edges[out->len - 1].kind == IR_SPACE)
		trailing = out->edges[out->len - 1].duration;
	uint64_t pad = trailing < min_gap ? min_gap - trailing : 0;

	if (dur + pad < period)
		pad = period - dur;
	while (pad > 0) {
		uint32_t chunk = pad > IR_DURATION_MAX / 2 ? IR_DURATION_MAX / 2 : (uint32_t)pad;
		int ret = ir_edge_buf_space(out, chunk);

		if (ret < 0)
			return ret;
		pad -= chunk;
	}
	return 0;
}

int ir_encode(enum ir_protocol p, uint64_t scancode, const struct ir_encode_opts *opts,
	      struct ir_edge_buf *out)
{
	const struct ir_protocol_info *info = ir_protocol_get(p);
	const struct ir_family *family = ir_protocol_family(p);
	struct ir_encode_opts defaults = { 0 };
	struct ir_edge_buf one = { 0 };
	size_t undo = out->len;
	int ret = 0;

	if (!info || !family)
		return -EINVAL;
	if (!info->has_encoder || !family->encode)
		return -EOPNOTSUPP;
	if (scancode & ~info->scancode_mask)
		return -EINVAL;
	if (!opts)
		opts = &defaults;

	for (unsigned i = 0; i <= opts->repeats && ret == 0; i++) {
		ir_edge_buf_clear(&one);
		ret = IR_ENCODE_FRAME_AGAIN;
		if (i > 0 && family->encode_repeat)
			ret = family->encode_repeat(p, scancode, &one);
		if (ret == IR_ENCODE_FRAME_AGAIN)
			ret = family->encode(p, scancode, opts->toggle & 1, &one);
		if (ret < 0)
			break;
		/* A frame that starts with a half-bit of darkness (RC-5's first
		 * bit) starts, for the receiver, at its first pulse. */
		size_t skip = one.len && one.edges[0].kind == IR_SPACE ? 1 : 0;

		if (out->len && out->edges[out->len - 1].kind == IR_PULSE)
			ret = -EINVAL; /* would merge into the caller's last pulse */
		size_t start = out->len;

		if (ret == 0)
			ret = ir_edge_buf_append(out, one.edges + skip, one.len - skip);
		if (ret == 0)
			ret = pad_transmission(out, start, info->frame_period_us,
					       info->min_trailing_space_us);
	}
	ir_edge_buf_free(&one);
	if (ret < 0)
		out->len = undo;
	return ret;
}
