/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_tx.h - transmitting: one interface over every way irjack sends IR, used
 * by `irjack send` and irjackd alike.
 *
 * A transmitter is opened from a spec "BACKEND:DEVICE":
 *   alsa:PCM        the carrier synthesized (dsp/ir_synth.h) and played on a
 *                   sound card's headphone output, where IR LEDs are wired
 *                   ("alsa:default", "alsa:hw:1"); a bare PCM name that names
 *                   no backend is taken for one ("hw:1", "irsink:OUT=x.raw")
 *   wav:FILE        the same audio written to a stereo float WAV file (each
 *                   send writes the file anew)
 *   file:FILE       the timings appended to FILE as mode2 text (tests)
 *   lirc:/dev/lircN the kernel's LIRC transmitter (also a bare /dev/lircN)
 *   usb             an MCE transceiver, through the running source that
 *                   holds it (struct ir_tx_options.source: a USB device has
 *                   one owner)
 * Backends register themselves (IR_TX_BACKEND_REGISTER), like sources.
 *
 * ir_tx_send() plays one stretch of timings on one carrier and returns when
 * the light is out (audio: after the drain); it touches nothing but its
 * transmitter, so a worker thread may own a transmitter and send from it.
 * Errors are negative errno values with a one-line reason in `err`.
 */
#ifndef IRJACK_IR_TX_H
#define IRJACK_IR_TX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir_edge.h"
#include "ir_protocol.h"
#include "ir_synth.h"

struct ir_keymap;
struct ir_source;

/* The carrier a stretch of timings is meant for. */
struct ir_tx_carrier {
	uint32_t hz;       /* 0: IR_CARRIER_DEFAULT_HZ */
	unsigned duty_pct; /* 0: the transmitter's own (audio: 33 %) */
	/* The user asked for exactly this carrier / duty cycle: a device that
	 * cannot take it fails the send.  Otherwise it sends at its own, as
	 * lircd does (a refusal other than "cannot change it" is reported
	 * through the options' warn callback). */
	bool hz_required, duty_required;
};

struct ir_tx_options {
	/* audio (alsa, wav) */
	unsigned rate;             /* Hz; 0: 48000 */
	enum ir_synth_mode mode;   /* IR_SYNTH_AUTO: by rate */
	double volume;             /* peak amplitude 0..1 (default 0.8) */
	double ramp_us;            /* raised-cosine rise and fall of each burst */
	/* lirc */
	uint32_t emitters;         /* LIRC_SET_TRANSMITTER_MASK (bit 0 = the first); 0: leave */
	/* usb */
	struct ir_source *source;  /* the source to send through; must outlive the transmitter */
	/* Optional: what an operator should hear about without the send failing. */
	void (*warn)(void *userdata, const char *message);
	void *userdata;
};

/* Every default: 48 kHz, mode by rate, volume 0.8, nothing else. */
void ir_tx_options_init(struct ir_tx_options *opt);

struct ir_tx;

/*
 * Opens the transmitter `spec` names.  Returns 0 and *out (ir_tx_close()),
 * or a negative errno with the reason in `err`: -EPROTONOSUPPORT (no such
 * backend, or not built in), -ENOENT, -EACCES, -EOPNOTSUPP (the device
 * cannot transmit), -EINVAL (bad spec or options), -ENOMEM.
 */
int ir_tx_open(const char *spec, const struct ir_tx_options *opt, struct ir_tx **out, char *err,
	       size_t err_size);
void ir_tx_close(struct ir_tx *tx);

/* The backend `spec` selects ("alsa", "lirc" ...), whether or not it is
 * built in: for telling users which options apply. */
const char *ir_tx_spec_backend(const char *spec);

/*
 * Plays `n` edges (pulses and spaces; a leading space is silence first,
 * other kinds are ignored) on `carrier` (NULL: the defaults).  Returns 0
 * once sent; -EDOM when the transmitter cannot make that carrier (audio:
 * at its rate and mode; nothing was sent); or another negative errno, with
 * `err` filled.
 */
int ir_tx_send(struct ir_tx *tx, const struct ir_edge *edges, size_t n,
	       const struct ir_tx_carrier *carrier, char *err, size_t err_size);

/*
 * Hands (protocol, scancode) with `repeats` repeats to a transmitter that
 * encodes by itself (the kernel's LIRC_MODE_SCANCODE); its carrier is the
 * protocol's unless `carrier` requires one.  Returns 0, -EOPNOTSUPP for a
 * transmitter that cannot, or another negative errno with `err` filled.
 */
int ir_tx_send_scancode(struct ir_tx *tx, enum ir_protocol protocol, uint64_t scancode,
			unsigned repeats, const struct ir_tx_carrier *carrier, char *err,
			size_t err_size);

/* What the last send did, where the backend can tell (audio). */
struct ir_tx_stats {
	const char *backend;      /* "alsa" ... */
	const char *format;       /* audio: the sample format played ("FLOAT_LE"), or NULL */
	unsigned rate;            /* audio: Hz */
	size_t period_frames;     /* audio: the device's period */
	uint64_t frames;          /* audio: frames played by the last send */
	unsigned underruns;       /* audio: recovered so far */
	uint64_t wall_us;         /* how long the last send took, to the light going out */
};
void ir_tx_stats(const struct ir_tx *tx, struct ir_tx_stats *st);

/* ---- what to send ---- */

/*
 * Appends the timings of a keymap button (remote `remote`, key `key`, as
 * ir_keymap_encode) with `repeats` repeats to `out`, and sets *carrier to
 * the remote's carrier (not required).  Returns 0, -ENOENT (no such remote
 * or key), -EINVAL (the button has no timings), -ENOMEM.
 */
int ir_tx_encode_key(const struct ir_keymap *km, const char *remote, const char *key,
		     unsigned repeats, struct ir_edge_buf *out, struct ir_tx_carrier *carrier);

/*
 * Appends (protocol, scancode) with `repeats` repeats to `out`; sets
 * *carrier to the protocol's unless carrier->hz is already set (the first
 * code of several decides).  Returns 0 or ir_encode()'s errors.
 */
int ir_tx_encode_scancode(enum ir_protocol protocol, uint64_t scancode, unsigned repeats,
			  struct ir_edge_buf *out, struct ir_tx_carrier *carrier);

/* ---- backends ---- */

struct ir_tx_backend {
	const char *name;    /* the spec prefix */
	const char *summary; /* one line */
	int (*open)(const char *device, const struct ir_tx_options *opt, void **impl, char *err,
		    size_t err_size);
	int (*send)(void *impl, const struct ir_edge *edges, size_t n,
		    const struct ir_tx_carrier *carrier, char *err, size_t err_size);
	/* Optional (transmitters that encode by themselves). */
	int (*send_scancode)(void *impl, enum ir_protocol protocol, uint64_t scancode,
			     unsigned repeats, const struct ir_tx_carrier *carrier, char *err,
			     size_t err_size);
	/* Optional. */
	void (*stats)(void *impl, struct ir_tx_stats *st);
	void (*close)(void *impl);
};

/* Adds a backend (IR_TX_BACKEND_REGISTER runs it before main()).  Returns
 * 0, -EEXIST, -ENOSPC, -EINVAL. */
int ir_tx_register(const struct ir_tx_backend *b);

#define IR_TX_BACKEND_REGISTER(backend)                                                  \
	__attribute__((constructor)) static void register_##backend(void)                \
	{                                                                                \
		ir_tx_register(&backend);                                                \
	}

const struct ir_tx_backend *ir_tx_backend_find(const char *name);

#endif
