/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_keymap.h - what decoded frames mean: remotes, their buttons, and the
 * decoders that remotes described by parameters need.
 *
 * A keymap holds any number of remotes, from rc_keymaps TOML files (one
 * remote per [[protocols]] entry) and lircd.conf files (one per `begin
 * remote`).  A button is bound to (protocol, decoder id, scancode): decoder
 * id 0 for irjack's built-in protocols (nec, rc6_mce, ...); remotes that
 * are described by timings (rc_keymaps' pulse_distance/pulse_length/
 * manchester/raw protocols, lircd.conf remotes) get a decoder of their own,
 * numbered from 1, whose frames carry that number (ir_frame.decoder_id).
 *
 * Key names are Linux input names (KEY_VOLUMEUP, BTN_LEFT ...), looked up
 * with libevdev; lircd.conf button names that are not Linux names are kept
 * (the lircd socket reports them) with keycode -1.
 *
 * A keymap is built once (loading) and then only read: lookups from several
 * threads are safe once loading is done.
 */
#ifndef IRJACK_IR_KEYMAP_H
#define IRJACK_IR_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_decoder.h"
#include "ir_protocol.h"

struct ir_keymap;
struct ir_family;

/* Returns 0 and sets *out, or -ENOMEM.  Free with ir_keymap_free(). */
int ir_keymap_new(struct ir_keymap **out);
void ir_keymap_free(struct ir_keymap *km);

/*
 * Moves everything of `from` to the end of `to` (renumbering remotes and
 * decoder ids); `from` is left empty.  Returns 0; -EINVAL when the decoder
 * ids would overflow, -ENOMEM, both with `to` unchanged.
 */
int ir_keymap_merge(struct ir_keymap *to, struct ir_keymap *from);

/* ---- building (for the loaders: ir_keymap_file.h) ---- */

/* Adds a remote named `name` (copied); its index goes to *index. */
int ir_keymap_add_remote(struct ir_keymap *km, const char *name, unsigned *index);

/*
 * Adds a decoder for remote `remote`: `family` must be a parametric family
 * (ir_family.parametric); `params` becomes the keymap's and is released with
 * `free_params` (may be NULL for static params).  Its id (1, 2, ...) goes to
 * *decoder_id.
 */
int ir_keymap_add_decoder(struct ir_keymap *km, unsigned remote, const struct ir_family *family,
			  void *params, void (*free_params)(void *params),
			  uint16_t *decoder_id);

/* A binding for a keymap that does not say its protocol (rc_keymaps'
 * "unknown"/"other"): matches a frame of any built-in protocol with that
 * scancode, when no binding names the frame's protocol (rc-core looks keys
 * up by scancode alone). */
#define IR_KEYMAP_ANY_PROTOCOL ((enum ir_protocol)(IR_PROTO_COUNT - 1))

/*
 * Binds (protocol, decoder_id, scancode) of remote `remote` to the button
 * `key_name` (copied).  Linux key names resolve to their code; others get
 * keycode -1.  A later binding of the same (protocol, decoder_id, scancode)
 * replaces the earlier one, as in ir-keytable.  Returns 0, -EINVAL for an
 * empty name or unknown remote, or -ENOMEM.
 */
int ir_keymap_add_key(struct ir_keymap *km, unsigned remote, enum ir_protocol protocol,
		      uint16_t decoder_id, uint64_t scancode, const char *key_name);
/*
 * As ir_keymap_add_key(), but an earlier binding of the same (protocol,
 * decoder_id, scancode) keeps answering lookups (lircd's rule: the first
 * button of a remote with a code names it); the new key is still listed
 * and encodable by its name.
 */
int ir_keymap_add_key_keep_first(struct ir_keymap *km, unsigned remote, enum ir_protocol protocol,
				 uint16_t decoder_id, uint64_t scancode, const char *key_name);

/* ---- using ---- */

struct ir_key_binding {
	const char *remote; /* the remote's name, owned by the keymap */
	const char *key;    /* the button's name, owned by the keymap */
	int keycode;        /* Linux KEY_/BTN_ code, or -1 */
	unsigned remote_index;
};

/* The button a frame stands for: true and *out filled, or false. */
bool ir_keymap_lookup(const struct ir_keymap *km, const struct ir_frame *frame,
		      struct ir_key_binding *out);

/* The built-in protocols the keymap's remotes use (to enable them). */
void ir_keymap_protocols(const struct ir_keymap *km, struct ir_protocol_set *set);

/*
 * Adds every decoder the keymap's remotes need to `dec` (one source's
 * decoder set), with their ids, and tells it the protocols the keymap names
 * (ir_decoder_set_preferred(): a pioneer keymap gets pioneer frames even
 * where the carrier is unknown).  Returns 0 or -ENOMEM.
 */
int ir_keymap_attach(const struct ir_keymap *km, struct ir_decoder *dec);

/* Counts and walks, for listings (LIST on the lircd socket, uinput's key
 * bits, `irjack keymap show`). */
size_t ir_keymap_remote_count(const struct ir_keymap *km);
const char *ir_keymap_remote_name(const struct ir_keymap *km, unsigned remote);
size_t ir_keymap_key_count(const struct ir_keymap *km);
struct ir_keymap_key {
	unsigned remote;
	enum ir_protocol protocol;
	uint16_t decoder_id;
	uint64_t scancode;
	const char *key;
	int keycode;
	/* added by ir_keymap_add_key_keep_first() after a key with the same
	 * code: listed and encodable, but lookups answer with the first */
	bool alias;
};
/* Keys in the order they were added; i < ir_keymap_key_count(). */
const struct ir_keymap_key *ir_keymap_key_at(const struct ir_keymap *km, size_t i);

/*
 * Encodes a button for transmit: the first binding of `key` in remote
 * `remote_name` (case-insensitive, as lircd), as timings appended to `out`
 * (with `repeats` repeat frames/codes).  Returns 0, -ENOENT for an unknown
 * remote or key, -EINVAL if it cannot be encoded, -ENOMEM.
 */
int ir_keymap_encode(const struct ir_keymap *km, const char *remote_name, const char *key,
		     unsigned repeats, struct ir_edge_buf *out);

/*
 * The carrier the button ir_keymap_encode() would send is meant for: the
 * remote's own (a lircd.conf `frequency` and `duty_cycle`; 38 kHz when it
 * gives none, as lircd) or its protocol's.  *duty_pct is 0 when neither
 * says.  Returns 0, or -ENOENT for an unknown remote or key.
 */
int ir_keymap_carrier(const struct ir_keymap *km, const char *remote_name, const char *key,
		      uint32_t *hz, unsigned *duty_pct);

/*
 * The remote of the first key named `key` (case-insensitive), for sending
 * a key by name alone; NULL if no remote has it.  Owned by the keymap.
 */
const char *ir_keymap_remote_of_key(const struct ir_keymap *km, const char *key);

#endif
