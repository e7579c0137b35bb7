/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_source.h - a live (or replayed) IR source, whatever its hardware: a
 * sound card input (ALSA, PortAudio), the kernel's /dev/lircN, a USB
 * receiver (MCE, iMON), or a recording replayed as if it were live.
 *
 * A source is opened from a spec "BACKEND:DEVICE" (e.g. "alsa:hw:1,0",
 * "portaudio:default", "lirc:/dev/lirc0", "usb:mceusb", "file:x.wav").  The
 * backend may run its own thread (a capture thread, libusb events); it
 * never calls the user from there.  The user polls ir_source_fd() and calls
 * ir_source_dispatch() from its own thread; frames and edges are delivered
 * from inside that call, decoded by the source's own decoder state (audio:
 * an ir_receiver; timings: an ir_decoder; scancodes: as the device reported
 * them).  Timings from two sources never meet in one state machine.
 *
 * Errors are negative errno values; functions that can fail for a reason
 * worth telling the user also fill a message buffer.
 */
#ifndef IRJACK_IR_SOURCE_H
#define IRJACK_IR_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ir_decoder.h"
#include "ir_demod.h"
#include "ir_edge.h"
#include "ir_protocol.h"

struct ir_keymap;

struct ir_source_options {
	unsigned rate;           /* audio: requested rate; 0 = 48000 */
	unsigned period_us;      /* audio: requested period; 0 = about 4 ms */
	unsigned periods;        /* audio: periods per buffer; 0 = 4 */
	int channel;             /* 0-based, or -1 (IR_RECEIVER_CHANNEL_AUTO) */
	enum ir_polarity polarity;
	uint32_t timeout_us;     /* end-of-signal timeout; 0 = the default */
	const struct ir_protocol_set *protocols; /* NULL: all */
	const struct ir_keymap *keymap; /* its custom decoders run too; must outlive the source */
	bool realtime;           /* try SCHED_FIFO for a capture thread (silently normal if refused) */
	bool paced;              /* file sources: deliver in real time instead of at once */
	uint32_t start_delay_ms; /* paced file sources: start replaying this much later */
	bool detach_kernel;      /* USB: detach the kernel driver if it holds the device */
	size_t ring_ms;          /* audio: ring between capture thread and consumer; 0 = 500 ms */
	/* ALSA: force a sample format ("S16_LE", "S32_LE", "FLOAT_LE"...); NULL
	 * = the best the device offers natively (FLOAT, S32, S24, then S16). */
	const char *sample_format;
	/* Audio (ALSA, PortAudio): stop after this many frames, then dispatch
	 * returns -ENODATA (0 = never).  Clock-less PCMs (alsa-lib's file
	 * plugin) repeat stale samples past the end of their file, so a test
	 * must stop exactly at its length; lirc and USB sources ignore it. */
	uint64_t max_frames;
	/* Optional: trains of pulses no protocol took, with each family's
	 * reason (ir_decoder_set_why(); irjackd at log level debug).  Called
	 * on the thread that dispatches the source's frames. */
	ir_why_fn why;
	void *why_userdata;
};

/* Sets the defaults (all zero, channel auto, polarity auto). */
void ir_source_options_init(struct ir_source_options *opt);

enum ir_source_event {
	IR_SOURCE_XRUN,        /* audio was lost (overrun, ring full); decoders were reset */
	IR_SOURCE_GONE,        /* the device vanished; the source keeps trying to reopen it */
	IR_SOURCE_BACK,        /* the device is open again */
	IR_SOURCE_END,         /* a finite source (file) has delivered everything */
};

struct ir_source_callbacks {
	ir_frame_fn frame;     /* required: each decoded frame */
	/* Optional: each edge (audio: after demodulation; channel = the input
	 * channel it came from, 0 for timing sources). */
	void (*edge)(void *userdata, unsigned channel, const struct ir_edge *edge);
	/* Optional: state changes; `message` says what happened, for a log. */
	void (*event)(void *userdata, enum ir_source_event event, const char *message);
	/* Optional, audio only: the raw interleaved samples as delivered (for
	 * `irjack record`), before demodulation. */
	void (*samples)(void *userdata, const float *interleaved, size_t frames);
	void *userdata;
};

struct ir_source_stats {
	const char *backend;   /* "alsa", "lirc"... */
	char device[128];      /* what is open */
	char format[32];       /* audio: the sample format in use ("S16_LE"...); timing: "mode2"... */
	unsigned rate;         /* audio: the rate the device gave (0 for timing sources) */
	unsigned channels;     /* audio: channels captured */
	unsigned period_frames;/* audio: period in frames */
	uint64_t samples;      /* audio frames (or edges) delivered to the decoders */
	uint64_t frames;       /* IR frames decoded */
	uint64_t xruns;        /* overruns recovered */
	uint64_t dropped;      /* audio frames lost because the consumer was late (ring full) */
	uint64_t reopens;      /* times the device came back after vanishing */
	bool connected;        /* the device is open now */
	bool realtime;         /* the capture thread got SCHED_FIFO */
};

/*
 * A backend (internal to libirjack; one per kind of hardware).  open()
 * gets a sink to push into from dispatch(); fd() is readable when
 * dispatch() has something to do (it may also be called spuriously).
 */
struct ir_source_sink;
/* What a backend reads; it orders listings (devices, errors). */
enum ir_source_kind {
	IR_SOURCE_KIND_AUDIO,  /* a sound card input: samples to demodulate */
	IR_SOURCE_KIND_TIMING, /* a receiver that reports timings or scancodes */
	IR_SOURCE_KIND_FILE,   /* a recording replayed */
};
struct ir_source_backend {
	const char *name;    /* the spec prefix */
	enum ir_source_kind kind;
	const char *summary; /* one line for --help and `irjack devices` */
	int (*open)(const char *device, const struct ir_source_options *opt,
		    struct ir_source_sink *sink, void **impl, char *err, size_t err_size);
	int (*fd)(void *impl);
	/* Returns 0, -ENODATA when a finite source has ended, or another
	 * negative errno on a fatal error (message through the sink). */
	int (*dispatch)(void *impl);
	void (*stats)(void *impl, struct ir_source_stats *st);
	void (*close)(void *impl);
	/* Optional: prints the devices it can open, one per line
	 * ("SPEC<TAB>description"); returns how many, or a negative errno. */
	int (*list)(FILE *out, bool capture, bool playback);
	/* Optional, transceivers: plays `edges` (pulses and spaces) with
	 * `carrier_hz` (0 = unmodulated) on emitters `ports` (bit 0 = the
	 * first; 0 = all).  Called from the user's thread. */
	int (*transmit)(void *impl, const struct ir_edge *edges, size_t n, uint32_t carrier_hz,
			unsigned ports, char *err, size_t err_size);
	/* Optional, receivers with a front-panel display (usb:imon): shows
	 * `request` (the backend's own syntax, one line).  Called from the
	 * user's thread. */
	int (*display)(void *impl, const char *request, char *err, size_t err_size);
};

/* What a backend pushes into (from dispatch() only). */
void ir_source_sink_audio_format(struct ir_source_sink *sink, unsigned rate, unsigned channels);
void ir_source_sink_samples(struct ir_source_sink *sink, const float *interleaved, size_t frames);
void ir_source_sink_edges(struct ir_source_sink *sink, const struct ir_edge *edges, size_t n);
void ir_source_sink_frame(struct ir_source_sink *sink, const struct ir_frame *frame);
/* A timing source that knows how long the space after its last pulse has
 * lasted so far, before the space edge itself is due (a paced replay),
 * asks when that silence becomes decisive (µs from the pulse's end; 0 =
 * no decoder waits on it) and tells the decoders once it has lasted that
 * long: ir_decoder_space_deadline() / ir_decoder_space_elapsed(). */
uint32_t ir_source_sink_space_deadline(struct ir_source_sink *sink);
void ir_source_sink_space_elapsed(struct ir_source_sink *sink, uint32_t elapsed_us);
/* Audio or timings were lost (or the device went/came back): resets the
 * decoders and reports `event` with `message`. */
void ir_source_sink_event(struct ir_source_sink *sink, enum ir_source_event event,
			  const char *message);

/*
 * Adds a backend to the registry (the pipeline names no backend itself:
 * each registers itself with IR_SOURCE_BACKEND_REGISTER).  `b` must
 * outlive the program.  Returns 0, -EEXIST (the name is taken), -ENOSPC,
 * -EINVAL.
 */
int ir_source_register(const struct ir_source_backend *b);

/* A backend file's registration, run before main(): the build links
 * backend libraries whole, so every backend built in is registered. */
#define IR_SOURCE_BACKEND_REGISTER(backend)                                              \
	__attribute__((constructor)) static void register_##backend(void)                \
	{                                                                                \
		ir_source_register(&backend);                                            \
	}

/* The backends registered (NULL-terminated), audio first, files last. */
const struct ir_source_backend *const *ir_source_backends(void);
const struct ir_source_backend *ir_source_backend_find(const char *name);

/* ---- specs: the one place they are parsed ---- */

/*
 * The spec of a source named the way a configuration file names it: a kind
 * ("alsa", "portaudio", "file", "lirc", "devinput", or the USB receivers
 * "mceusb" and "imon") and a device ("" or NULL: the kind's default).  Returns the
 * spec's length, as snprintf() (>= size: cut short), or -EINVAL for an
 * unknown kind.
 */
int ir_source_spec_from_kind(const char *kind, const char *device, char *spec, size_t size);

/*
 * The spec for a command line's DEVICE and BACKEND (either may be NULL): a
 * full spec ("alsa:hw:1", "lirc:/dev/lirc0", "file:x.wav", a path, a
 * backend's name) is kept; a bare ALSA PCM name ("hw:1,0", "default",
 * "irfile:IN=x.raw") gets "BACKEND:" (default alsa); no DEVICE is
 * "BACKEND:default".  Returns 0, -EPROTONOSUPPORT (BACKEND is not built
 * in) or -ENAMETOOLONG (does not fit in `size`).
 */
int ir_source_spec_resolve(const char *device, const char *backend, char *spec, size_t size);

struct ir_source;

/*
 * Opens `spec`: "BACKEND:DEVICE", or "BACKEND" alone for its default
 * device, or a bare path ending in .wav/.flac/.mode2/... (a file source),
 * or "/dev/lircN".  The backend starts capturing at once.  Returns 0 and
 * sets *out (free with ir_source_free()), or a negative errno with a
 * message in `err`: -ENOENT (no such device/file), -EPROTONOSUPPORT
 * (unknown backend, or not built in), -EACCES, -EBUSY, -EINVAL (bad spec or
 * options), -ENOMEM.
 */
int ir_source_open(const char *spec, const struct ir_source_options *opt,
		   const struct ir_source_callbacks *cb, struct ir_source **out,
		   char *err, size_t err_size);

/* Stops the backend (joins its threads), closes the device, frees all. */
void ir_source_free(struct ir_source *src);

/* A file descriptor to poll for POLLIN; -1 if the source must be
 * dispatched on a timer instead (then every few ms). */
int ir_source_fd(const struct ir_source *src);

/* Delivers what is ready through the callbacks.  Returns 0, -ENODATA once
 * a finite source has ended (after flushing its decoders), or another
 * negative errno on a fatal error (`err` filled). */
int ir_source_dispatch(struct ir_source *src, char *err, size_t err_size);

/* Transceivers (usb:mceusb): transmits through the device the source
 * reads from.  Returns 0, -ENOTSUP (the backend or device cannot send),
 * -ENODEV (unplugged just now), -EINVAL, or an I/O error, with `err` filled. */
int ir_source_transmit(struct ir_source *src, const struct ir_edge *edges, size_t n,
		       uint32_t carrier_hz, unsigned ports, char *err, size_t err_size);

/* Receivers with a front-panel display (usb:imon: "TEXT line1|line2",
 * "ICONS list", "CLOCK", "OFF"; see ir_imon_display.h): shows `request`.
 * Returns 0, -ENOTSUP (no display here), -ENODEV (unplugged), -EINVAL (a
 * bad request), or an I/O error, with `err` filled. */
int ir_source_display(struct ir_source *src, const char *request, char *err, size_t err_size);

/* Figures for `irjack monitor` / `irjack status`. */
void ir_source_stats(const struct ir_source *src, struct ir_source_stats *st);

/* Audio sources: the signal report of the decoded channel (or of the
 * first one with edges in auto mode); -ENOTSUP for timing sources,
 * -EAGAIN before any audio. */
int ir_source_signal_report(struct ir_source *src, struct ir_signal_report *r);

#endif
