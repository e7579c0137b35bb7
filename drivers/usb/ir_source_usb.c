/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_source_usb.c - USB IR receivers driven from user space with libusb-1.0:
 * MCE transceivers ("usb:mceusb", raw timings into the source's decoders,
 * and transmit) and on-board-decoding iMON receivers ("usb:imon", keys as
 * frames).  "usb:mceusb:BUS:ADDR" / "usb:imon:BUS:ADDR" pick one device;
 * "usb" alone takes the first of either kind.
 *
 * Threads: a libusb event thread owns the context, the device handle and
 * the IN transfer; it parses what arrives and hands edges, keys and
 * unplug/replug over through a lock-free SPSC queue, then pokes an
 * eventfd.  The user polls that eventfd and dispatch() feeds the sink.  A
 * thread rather than libusb's pollfds in the caller's loop because the
 * source interface offers the caller one fd, while libusb needs several
 * (usbfs handles, its own event and timer fds, the udev monitor) that
 * change on every plug and unplug.
 *
 * Plugging: with udevd running, libusb hotplug reports LEFT and ARRIVED.
 * Without it (containers, a bare VM) libusb still reports LEFT for an open
 * handle, but never ARRIVED, and a context never sees devices added after
 * it was made; so while the device is away the thread makes a fresh
 * context every RESCAN_MS and looks again.  An unplugged device first
 * fails its transfer with an I/O error and a few ms later with NO_DEVICE:
 * I/O errors are retried for a while before the device counts as gone.
 */
#include "ir_source.h"

#include <errno.h>
#include <libusb.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "ir_imon.h"
#include "ir_imon_display.h"
#include "ir_mceusb.h"
#include "ir_mceusb_devices.h"
#include "ir_reopen.h"
#include "ir_usb_queue.h"
#include "ir_time.h"
#include "ir_util.h"

#define IN_BUF_SIZE 512          /* a high-speed bulk packet: the largest IN packet */
#define OUT_TIMEOUT_MS 1000      /* the kernel driver's TX timeout */
#define EVENT_WAIT_MS 100        /* how long the thread sleeps in libusb at a time */
#define RESCAN_MS 500            /* looking for an unplugged device again */
#define RESCAN_UDEV_MS 5000      /* the same with udevd, whose ARRIVED events come first */
#define IO_RETRY_MS 20           /* spacing of IN resubmissions after an error */
#define IO_ERRORS_GONE 25        /* 0.5 s of failing IN transfers: the device is gone */
#define QUEUE_ITEMS 8192         /* 8192 edges: ~40 s of NEC at its densest */
#define UDEV_CONTROL "/run/udev/control" /* exists while udevd runs */

enum usb_kind {
	KIND_ANY,
	KIND_MCE,
	KIND_IMON,
};

struct usb_source {
	struct ir_source_sink *sink;
	enum usb_kind want;
	int want_bus, want_addr;  /* -1: any */
	bool detach_kernel;
	uint32_t timeout_us;
	enum ir_protocol imon_protocol;

	/* what is (or was) open, to find the same device after a replug */
	enum usb_kind kind;
	bool have_identity;
	uint16_t vendor, product;
	uint8_t bus;
	uint8_t ports[8];
	int nports;

	/* owned by the event thread (and by open() before it starts) */
	libusb_context *ctx;
	libusb_device_handle *handle; /* written under `lock`, read by transmit */
	const struct ir_mceusb_device *mce;
	uint8_t interface, ep_in, ep_out;
	uint8_t in_type, out_type;
	uint16_t in_len;          /* IN transfers are one packet long, as the kernel drivers read */
	struct libusb_transfer *xfer;
	uint8_t in_buf[IN_BUF_SIZE];
	bool xfer_busy, lost, retry_pending, stalled;
	unsigned io_errors;
	uint64_t retry_at_ms;
	struct ir_reopen reopen;  /* scans for the device while it is gone (the thread's) */
	struct ir_mceusb_rx *rx;
	struct ir_edge_buf parsed;
	struct ir_imon_parser imon;
	bool imon_raw;            /* 04e8:ff30: samples, not keys */
	struct ir_imon_raw imon_samples;
	bool display_text;        /* the LCD was started up and shows text (under `lock`) */
	/* 15c2:ffdc: the display its reports' configuration byte names (the
	 * first 8-byte report; under `lock`); IR_IMON_DISPLAY_VFD, the
	 * kernel's default, until one came */
	bool ffdc_known;
	enum ir_imon_display ffdc_display;
	bool hotplug_registered, udev_live;
	libusb_hotplug_callback_handle hotplug;
	atomic_bool arrived;
	bool overflow_pending;

	pthread_t thread;
	bool thread_started;
	atomic_bool stop;
	pthread_mutex_t lock;     /* handle, device[] against transmit and stats */
	struct ir_usb_queue queue;
	int efd;
	atomic_bool connected;
	atomic_uint_fast64_t reopens, dropped;
	char device[128];
	uint64_t start_us;
};

static int errno_from_libusb(int r)
{
	switch (r) {
	case LIBUSB_ERROR_ACCESS: return -EACCES;
	case LIBUSB_ERROR_NO_DEVICE: return -ENODEV;
	case LIBUSB_ERROR_NOT_FOUND: return -ENOENT;
	case LIBUSB_ERROR_BUSY: return -EBUSY;
	case LIBUSB_ERROR_TIMEOUT: return -ETIMEDOUT;
	case LIBUSB_ERROR_PIPE: return -EPIPE;
	case LIBUSB_ERROR_NO_MEM: return -ENOMEM;
	case LIBUSB_ERROR_NOT_SUPPORTED: return -ENOTSUP;
	case LIBUSB_ERROR_INVALID_PARAM: return -EINVAL;
	default: return -EIO;
	}
}

static enum usb_kind kind_of(uint16_t vendor, uint16_t product)
{
	if (ir_mceusb_device_find(vendor, product))
		return KIND_MCE;
	if (ir_imon_device_known(vendor, product) || ir_imon_raw_device_known(vendor, product))
		return KIND_IMON;
	return KIND_ANY;
}

static void wake_consumer(struct usb_source *us)
{
	uint64_t one = 1;

	(void)!write(us->efd, &one, sizeof(one));
}

static void push(struct usb_source *us, const struct ir_usb_item *item)
{
	if (!ir_usb_queue_push(&us->queue, item)) {
		atomic_fetch_add(&us->dropped, 1);
		us->overflow_pending = true;
	}
}

/* Queues an edge; after a loss, an IR_OVERFLOW first so decoders reset. */
static void push_edge(struct usb_source *us, struct ir_edge e)
{
	struct ir_usb_item item = { .kind = IR_USB_ITEM_EDGE };

	if (us->overflow_pending) {
		item.edge = (struct ir_edge){ .kind = IR_OVERFLOW };
		if (!ir_usb_queue_push(&us->queue, &item)) {
			atomic_fetch_add(&us->dropped, 1);
			return;
		}
		us->overflow_pending = false;
	}
	item.edge = e;
	push(us, &item);
}

static void push_state(struct usb_source *us, enum ir_usb_item_kind kind)
{
	struct ir_usb_item item = { .kind = (uint8_t)kind };

	push(us, &item);
	wake_consumer(us);
}

/* ---- matching devices ---- */

static bool same_place(struct usb_source *us, libusb_device *dev,
		       const struct libusb_device_descriptor *d)
{
	uint8_t ports[8];
	int n;

	if (d->idVendor != us->vendor || d->idProduct != us->product ||
	    libusb_get_bus_number(dev) != us->bus)
		return false;
	n = libusb_get_port_numbers(dev, ports, sizeof(ports));
	return n == us->nports && memcmp(ports, us->ports, (size_t)n) == 0;
}

static bool wanted(struct usb_source *us, libusb_device *dev, enum usb_kind *kind)
{
	struct libusb_device_descriptor d;

	if (libusb_get_device_descriptor(dev, &d) < 0)
		return false;
	*kind = kind_of(d.idVendor, d.idProduct);
	if (*kind == KIND_ANY || (us->want != KIND_ANY && us->want != *kind))
		return false;
	if (us->have_identity)
		return same_place(us, dev, &d);
	if (us->want_bus >= 0 && (libusb_get_bus_number(dev) != us->want_bus ||
				  libusb_get_device_address(dev) != us->want_addr))
		return false;
	return true;
}

/* ---- talking to the device ---- */

static int write_out(struct usb_source *us, const uint8_t *data, size_t len)
{
	int done = 0, r;

	if (us->out_type == LIBUSB_TRANSFER_TYPE_INTERRUPT)
		r = libusb_interrupt_transfer(us->handle, us->ep_out, (uint8_t *)data, (int)len,
					      &done, OUT_TIMEOUT_MS);
	else
		r = libusb_bulk_transfer(us->handle, us->ep_out, (uint8_t *)data, (int)len, &done,
					 OUT_TIMEOUT_MS);
	if (r < 0)
		return errno_from_libusb(r);
	return done == (int)len ? 0 : -EIO;
}

/* First-generation devices want serial-port style vendor requests before
 * they talk (bit rate, character length, handshake); what they answer is
 * of no use, and failures are not fatal (the kernel ignores them too). */
static void mce_gen1_setup(struct usb_source *us)
{
	uint8_t answer[2];

	libusb_control_transfer(us->handle, LIBUSB_ENDPOINT_IN | LIBUSB_REQUEST_TYPE_VENDOR,
				LIBUSB_REQUEST_SET_ADDRESS, 0, 0, answer, sizeof(answer), 3000);
	libusb_control_transfer(us->handle, LIBUSB_REQUEST_TYPE_VENDOR,
				LIBUSB_REQUEST_SET_FEATURE, 0xc04e, 0, NULL, 0, 3000);
	libusb_control_transfer(us->handle, LIBUSB_REQUEST_TYPE_VENDOR, 4, 0x0808, 0, NULL, 0,
				3000);
	libusb_control_transfer(us->handle, LIBUSB_REQUEST_TYPE_VENDOR, 2, 0, 0x0100, NULL, 0,
				3000);
}

/* Commands one at a time, as the device's own driver sends them. */
static int mce_init(struct usb_source *us)
{
	uint8_t cmds[64];
	long n = ir_mceusb_init_commands(us->mce, us->timeout_us, cmds, sizeof(cmds));
	size_t pos = 0;

	if (n < 0)
		return (int)n;
	if (us->mce->quirks & MCE_QUIRK_GEN1)
		mce_gen1_setup(us);
	while (pos < (size_t)n) {
		size_t len = ir_mceusb_command_len(cmds + pos, (size_t)n - pos);
		int r = len ? write_out(us, cmds + pos, len) : -EINVAL;

		if (r < 0)
			return r;
		pos += len;
	}
	return 0;
}

/* Newer iMONs have no OUT endpoint and take packets as HID SET_REPORT. */
static int imon_send(struct usb_source *us, const uint8_t pkt[8])
{
	int r;

	if (us->ep_out)
		return write_out(us, pkt, 8);
	r = libusb_control_transfer(us->handle,
				    LIBUSB_ENDPOINT_OUT | LIBUSB_REQUEST_TYPE_CLASS |
				    LIBUSB_RECIPIENT_INTERFACE,
				    0x09, 0x0200, 0x0001, (uint8_t *)pkt, 8, OUT_TIMEOUT_MS);
	return r < 0 ? errno_from_libusb(r) : 0;
}

static int imon_init(struct usb_source *us)
{
	uint8_t pkt[8];

	ir_imon_panel_packet(pkt);
	(void)imon_send(us, pkt); /* receivers without a panel refuse it */
	if (ir_imon_protocol_packet(us->imon_protocol, pkt) < 0)
		return -EINVAL;
	return imon_send(us, pkt);
}

static void LIBUSB_CALL on_in(struct libusb_transfer *t);

static void submit_in(struct usb_source *us)
{
	int r = libusb_submit_transfer(us->xfer);

	if (r == 0) {
		us->xfer_busy = true;
		us->retry_pending = false;
	} else if (r == LIBUSB_ERROR_NO_DEVICE) {
		us->lost = true;
	} else if (++us->io_errors >= IO_ERRORS_GONE) {
		us->lost = true;
	} else {
		us->retry_pending = true;
		us->retry_at_ms = ir_monotonic_ms() + IO_RETRY_MS;
	}
}

static void parse_in(struct usb_source *us, const uint8_t *data, size_t len)
{
	if (us->kind == KIND_MCE) {
		/* first-generation devices start every transfer with 0xB1 0x60 */
		if (us->mce->quirks & MCE_QUIRK_GEN1) {
			if (len < 2)
				return;
			data += 2;
			len -= 2;
		}
		us->parsed.len = 0;
		if (ir_mceusb_rx_feed(us->rx, data, len, &us->parsed) < 0)
			us->overflow_pending = true;
		for (size_t i = 0; i < us->parsed.len; i++)
			push_edge(us, us->parsed.edges[i]);
	} else if (us->imon_raw) {
		struct ir_edge edges[IMON_RAW_MAX_EDGES];
		int n = ir_imon_raw_feed(&us->imon_samples, data, len, edges);

		for (int i = 0; i < n; i++)
			push_edge(us, edges[i]);
	} else {
		struct ir_imon_key key;

		if (us->product == 0xffdc && !us->ffdc_known && len == IMON_PACKET_LEN) {
			pthread_mutex_lock(&us->lock);
			us->ffdc_display = ir_imon_ffdc_display(data[IMON_FFDC_CONFIG_BYTE]);
			us->ffdc_known = true;
			pthread_mutex_unlock(&us->lock);
		}
		if (ir_imon_parse(&us->imon, data, len, &key) < 0 ||
		    (key.kind != IR_IMON_PRESS && key.kind != IR_IMON_PANEL))
			return;
		struct ir_usb_item item = {
			.kind = IR_USB_ITEM_KEY,
			.protocol = (uint16_t)key.protocol,
			.scancode = key.scancode,
			.toggle = key.toggle,
			.time_us = ir_monotonic_us(),
		};
		push(us, &item);
	}
	wake_consumer(us);
}

static void LIBUSB_CALL on_in(struct libusb_transfer *t)
{
	struct usb_source *us = t->user_data;

	us->xfer_busy = false;
	switch (t->status) {
	case LIBUSB_TRANSFER_COMPLETED:
		us->io_errors = 0;
		parse_in(us, t->buffer, (size_t)t->actual_length);
		submit_in(us);
		break;
	case LIBUSB_TRANSFER_CANCELLED:
		break;
	case LIBUSB_TRANSFER_NO_DEVICE:
		us->lost = true;
		break;
	case LIBUSB_TRANSFER_TIMED_OUT:
		submit_in(us);
		break;
	default: /* ERROR (the first sign of an unplug), STALL, OVERFLOW */
		if (t->status == LIBUSB_TRANSFER_STALL)
			us->stalled = true; /* cleared from the thread, outside this callback */
		if (++us->io_errors >= IO_ERRORS_GONE) {
			us->lost = true;
		} else {
			us->retry_pending = true;
			us->retry_at_ms = ir_monotonic_ms() + IO_RETRY_MS;
		}
		break;
	}
}

static int find_endpoints(struct usb_source *us, libusb_device *dev, char *err, size_t err_size)
{
	struct libusb_config_descriptor *cfg;
	int r = libusb_get_active_config_descriptor(dev, &cfg);

	if (r < 0) {
		snprintf(err, err_size, "cannot read the configuration: %s", libusb_strerror(r));
		return errno_from_libusb(r);
	}
	us->ep_in = us->ep_out = 0;
	for (int i = 0; i < cfg->bNumInterfaces; i++) {
		const struct libusb_interface_descriptor *alt;

		if (cfg->interface[i].num_altsetting < 1)
			continue;
		alt = &cfg->interface[i].altsetting[0];
		if (alt->bInterfaceNumber != us->interface)
			continue;
		for (int e = 0; e < alt->bNumEndpoints; e++) {
			const struct libusb_endpoint_descriptor *ep = &alt->endpoint[e];
			uint8_t type = ep->bmAttributes & LIBUSB_TRANSFER_TYPE_MASK;

			if (type != LIBUSB_TRANSFER_TYPE_BULK && type != LIBUSB_TRANSFER_TYPE_INTERRUPT)
				continue;
			if ((ep->bEndpointAddress & LIBUSB_ENDPOINT_IN) && !us->ep_in) {
				us->ep_in = ep->bEndpointAddress;
				us->in_type = type;
				/* A transfer ends on a short packet or when full: one
				 * packet's worth makes each packet (an iMON's 8-byte
				 * key) arrive on its own. */
				us->in_len = ep->wMaxPacketSize & 0x7ff;
				if (us->in_len == 0 || us->in_len > IN_BUF_SIZE)
					us->in_len = IN_BUF_SIZE;
			} else if (!(ep->bEndpointAddress & LIBUSB_ENDPOINT_IN) && !us->ep_out) {
				us->ep_out = ep->bEndpointAddress;
				us->out_type = type;
			}
		}
	}
	libusb_free_config_descriptor(cfg);
	if (!us->ep_in || (us->kind == KIND_MCE && !us->ep_out)) {
		snprintf(err, err_size, "interface %u has no IR endpoints", us->interface);
		return -ENODEV;
	}
	return 0;
}

static void close_handle(struct usb_source *us)
{
	libusb_device_handle *h = us->handle;

	if (!h)
		return;
	pthread_mutex_lock(&us->lock);
	us->handle = NULL;
	pthread_mutex_unlock(&us->lock);
	libusb_release_interface(h, us->interface);
	libusb_close(h);
}

/* Opens, claims and initialises `dev`.  On failure nothing stays open. */
/* Opens and claims the interface (detaching the kernel's driver only when
 * asked to).  Returns 0 with us->handle set, or a negative errno. */
static int claim_device(struct usb_source *us, libusb_device *dev,
			const struct libusb_device_descriptor *d, char *err, size_t err_size)
{
	libusb_device_handle *h;
	int r = libusb_open(dev, &h);

	if (r < 0) {
		snprintf(err, err_size, "cannot open /dev/bus/usb/%03u/%03u: %s%s",
			 libusb_get_bus_number(dev), libusb_get_device_address(dev),
			 libusb_strerror(r),
			 r == LIBUSB_ERROR_ACCESS ? " (see config/60-irjack.rules)" : "");
		return errno_from_libusb(r);
	}
	if (us->detach_kernel) {
		libusb_set_auto_detach_kernel_driver(h, 1);
	} else if (libusb_kernel_driver_active(h, us->interface) == 1) {
		snprintf(err, err_size, "the kernel's %s driver holds %04x:%04x "
			 "(use --detach-kernel to take it over)",
			 us->kind == KIND_MCE ? "mceusb" : "imon", d->idVendor, d->idProduct);
		libusb_close(h);
		return -EBUSY;
	}
	r = libusb_claim_interface(h, us->interface);
	if (r < 0) {
		snprintf(err, err_size, "cannot claim %04x:%04x: %s", d->idVendor, d->idProduct,
			 libusb_strerror(r));
		libusb_close(h);
		return errno_from_libusb(r);
	}
	pthread_mutex_lock(&us->lock);
	us->handle = h;
	pthread_mutex_unlock(&us->lock);
	return 0;
}

/* The receiver's parser and its init commands. */
static int init_receiver(struct usb_source *us, const struct libusb_device_descriptor *d)
{
	int r;

	if (us->kind == KIND_MCE) {
		ir_mceusb_rx_free(us->rx);
		us->rx = NULL;
		r = ir_mceusb_rx_new(&us->rx);
		if (r == 0) {
			ir_mceusb_rx_set_undercount(us->rx, us->mce->quirks & MCE_QUIRK_RX2_UNDERCOUNT);
			r = mce_init(us);
		}
		return r;
	}
	us->imon_raw = ir_imon_raw_device_known(d->idVendor, d->idProduct);
	pthread_mutex_lock(&us->lock);
	us->ffdc_known = false; /* a replugged 0xffdc may be another model */
	pthread_mutex_unlock(&us->lock);
	ir_imon_raw_init(&us->imon_samples);
	ir_imon_parser_init(&us->imon, d->idProduct, us->imon_protocol);
	/* the raw receivers take no commands */
	return us->imon_raw ? 0 : imon_init(us);
}

/* The IN transfer, submitted.  Returns 0 or a negative errno. */
static int start_reading(struct usb_source *us, const struct libusb_device_descriptor *d,
			 char *err, size_t err_size)
{
	if (!us->xfer && !(us->xfer = libusb_alloc_transfer(0)))
		return -ENOMEM;
	if (us->in_type == LIBUSB_TRANSFER_TYPE_INTERRUPT)
		libusb_fill_interrupt_transfer(us->xfer, us->handle, us->ep_in, us->in_buf, us->in_len,
					       on_in, us, 0);
	else
		libusb_fill_bulk_transfer(us->xfer, us->handle, us->ep_in, us->in_buf, us->in_len,
					  on_in, us, 0);
	us->lost = false;
	us->io_errors = 0;
	us->retry_pending = false;
	submit_in(us);
	if (!us->xfer_busy) {
		snprintf(err, err_size, "cannot read from %04x:%04x", d->idVendor, d->idProduct);
		libusb_free_transfer(us->xfer);
		us->xfer = NULL;
		return -EIO;
	}
	return 0;
}

/* Who the device is, to find it again after it vanishes. */
static void remember_identity(struct usb_source *us, libusb_device *dev,
			      const struct libusb_device_descriptor *d)
{
	int r;

	us->have_identity = true;
	us->vendor = d->idVendor;
	us->product = d->idProduct;
	us->bus = libusb_get_bus_number(dev);
	r = libusb_get_port_numbers(dev, us->ports, sizeof(us->ports));
	us->nports = r < 0 ? 0 : r;
	pthread_mutex_lock(&us->lock);
	snprintf(us->device, sizeof(us->device), "usb:%s:%03u:%03u (%04x:%04x %s)",
		 us->kind == KIND_MCE ? "mceusb" : "imon", us->bus, libusb_get_device_address(dev),
		 d->idVendor, d->idProduct, us->mce ? us->mce->name : "SoundGraph iMON");
	pthread_mutex_unlock(&us->lock);
}

static int open_device(struct usb_source *us, libusb_device *dev, enum usb_kind kind, char *err,
		       size_t err_size)
{
	struct libusb_device_descriptor d;
	int r;

	libusb_get_device_descriptor(dev, &d);
	us->kind = kind;
	us->mce = kind == KIND_MCE ? ir_mceusb_device_find(d.idVendor, d.idProduct) : NULL;
	us->interface = us->mce ? us->mce->interface : 0;
	r = find_endpoints(us, dev, err, err_size);
	if (r == 0)
		r = claim_device(us, dev, &d, err, err_size);
	if (r < 0)
		return r;
	r = init_receiver(us, &d);
	if (r < 0) {
		snprintf(err, err_size, "cannot initialise %04x:%04x: %s", d.idVendor, d.idProduct,
			 strerror(-r));
		close_handle(us);
		return r;
	}
	r = start_reading(us, &d, err, err_size);
	if (r < 0) {
		close_handle(us);
		return r;
	}
	remember_identity(us, dev, &d);
	atomic_store(&us->connected, true);
	return 0;
}

/* Looks through the bus for the device; -ENOENT if it is not there. */
static int try_open(struct usb_source *us, char *err, size_t err_size)
{
	libusb_device **list;
	ssize_t n = libusb_get_device_list(us->ctx, &list);
	int ret = -ENOENT;

	if (n < 0) {
		snprintf(err, err_size, "cannot list USB devices: %s", libusb_strerror((int)n));
		return errno_from_libusb((int)n);
	}
	for (ssize_t i = 0; i < n; i++) {
		enum usb_kind kind;

		if (!wanted(us, list[i], &kind))
			continue;
		ret = open_device(us, list[i], kind, err, err_size);
		if (ret == 0)
			break;
	}
	libusb_free_device_list(list, 1);
	if (ret == -ENOENT && err_size && !err[0])
		snprintf(err, err_size, "no %s found",
			 us->want == KIND_MCE ? "MCE USB transceiver" :
			 us->want == KIND_IMON ? "iMON receiver" : "MCE or iMON USB receiver");
	return ret;
}

/* Cancels the IN transfer, lets libusb finish it, and closes the device. */
static void teardown(struct usb_source *us)
{
	if (us->xfer_busy) {
		libusb_cancel_transfer(us->xfer);
		for (int i = 0; i < 20 && us->xfer_busy; i++) {
			struct timeval tv = { 0, 50000 };

			libusb_handle_events_timeout_completed(us->ctx, &tv, NULL);
		}
	}
	/* A transfer keeps a reference to the device it last went to, which
	 * libusb drops on the next submit: after renew_context() freed that
	 * device's context, that would touch freed memory.  So each
	 * connection gets a transfer of its own.  One whose cancellation
	 * never completed cannot be freed safely: it is left behind. */
	if (us->xfer && !us->xfer_busy)
		libusb_free_transfer(us->xfer);
	us->xfer = NULL;
	us->xfer_busy = false;
	close_handle(us);
	atomic_store(&us->connected, false);
	us->lost = false;
	us->retry_pending = false;
}

static int LIBUSB_CALL on_hotplug(libusb_context *ctx, libusb_device *dev,
				  libusb_hotplug_event event, void *user_data)
{
	struct usb_source *us = user_data;

	(void)ctx;
	if (event == LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT) {
		if (us->handle && libusb_get_device(us->handle) == dev)
			us->lost = true;
	} else {
		atomic_store(&us->arrived, true);
	}
	return 0;
}

static void register_hotplug(struct usb_source *us)
{
	us->hotplug_registered =
		libusb_has_capability(LIBUSB_CAP_HAS_HOTPLUG) &&
		libusb_hotplug_register_callback(us->ctx,
						 LIBUSB_HOTPLUG_EVENT_DEVICE_ARRIVED |
						 LIBUSB_HOTPLUG_EVENT_DEVICE_LEFT,
						 0, LIBUSB_HOTPLUG_MATCH_ANY,
						 LIBUSB_HOTPLUG_MATCH_ANY,
						 LIBUSB_HOTPLUG_MATCH_ANY, on_hotplug, us,
						 &us->hotplug) == LIBUSB_SUCCESS;
}

/* Without udevd a context never learns of new devices: start afresh. */
static void renew_context(struct usb_source *us)
{
	libusb_context *fresh;

	if (libusb_init(&fresh) < 0)
		return;
	if (us->hotplug_registered)
		libusb_hotplug_deregister_callback(us->ctx, us->hotplug);
	libusb_exit(us->ctx);
	us->ctx = fresh;
	register_hotplug(us);
}

/* With udevd, hotplug says when the device is back and a scan is only a
 * safety net; without it, scanning is all there is. */
static uint64_t rescan_ms(const struct usb_source *us)
{
	return us->udev_live ? RESCAN_UDEV_MS : RESCAN_MS;
}

/* One attempt of the thread's reopen loop. */
static int reopen_device(void *ctx)
{
	struct usb_source *us = ctx;
	char err[160] = "";

	if (!us->udev_live)
		renew_context(us);
	return try_open(us, err, sizeof(err));
}

static void *event_thread(void *arg)
{
	struct usb_source *us = arg;

	while (!atomic_load(&us->stop)) {
		if (us->handle) {
			/* nothing is in flight while a resubmission waits: wake for it */
			struct timeval tv = { 0, (us->retry_pending ? IO_RETRY_MS : EVENT_WAIT_MS) * 1000 };

			libusb_handle_events_timeout_completed(us->ctx, &tv, NULL);
			if (us->retry_pending && !us->lost && ir_monotonic_ms() >= us->retry_at_ms) {
				if (us->stalled)
					libusb_clear_halt(us->handle, us->ep_in);
				us->stalled = false;
				submit_in(us);
			}
			if (us->lost) {
				teardown(us);
				ir_reopen_gone(&us->reopen, ir_monotonic_ms());
				push_state(us, IR_USB_ITEM_GONE);
			}
			continue;
		}
		if (us->udev_live) {
			struct timeval tv = { 0, EVENT_WAIT_MS * 1000 };

			libusb_handle_events_timeout_completed(us->ctx, &tv, NULL);
		} else {
			struct timespec ts = { 0, EVENT_WAIT_MS * 1000000L };

			nanosleep(&ts, NULL);
		}
		if (ir_reopen_attempt(&us->reopen, ir_monotonic_ms(), atomic_exchange(&us->arrived, false),
				      reopen_device, us)) {
			atomic_fetch_add(&us->reopens, 1);
			push_state(us, IR_USB_ITEM_BACK);
		}
	}
	if (us->handle)
		teardown(us);
	return NULL;
}

/* ---- the backend ---- */

static void usb_close(void *impl)
{
	struct usb_source *us = impl;

	if (!us)
		return;
	if (us->thread_started) {
		atomic_store(&us->stop, true);
		pthread_join(us->thread, NULL);
	} else if (us->handle) {
		teardown(us);
	}
	if (us->xfer)
		libusb_free_transfer(us->xfer);
	if (us->ctx) {
		if (us->hotplug_registered)
			libusb_hotplug_deregister_callback(us->ctx, us->hotplug);
		libusb_exit(us->ctx);
	}
	ir_mceusb_rx_free(us->rx);
	ir_edge_buf_free(&us->parsed);
	ir_usb_queue_free(&us->queue);
	if (us->efd >= 0)
		close(us->efd);
	pthread_mutex_destroy(&us->lock);
	free(us);
}

/* "mceusb", "imon" or "" with an optional ":BUS:ADDR". */
static int parse_device(struct usb_source *us, const char *device, char *err, size_t err_size)
{
	const char *rest = device;
	unsigned bus, addr;
	char tail;

	us->want = KIND_ANY;
	us->want_bus = us->want_addr = -1;
	if (strncmp(device, "mceusb", 6) == 0) {
		us->want = KIND_MCE;
		rest = device + 6;
	} else if (strncmp(device, "imon", 4) == 0) {
		us->want = KIND_IMON;
		rest = device + 4;
	}
	if (!rest[0])
		return 0;
	if (rest[0] == ':' && sscanf(rest + 1, "%u:%u%c", &bus, &addr, &tail) == 2 && bus < 256 &&
	    addr < 128) {
		us->want_bus = (int)bus;
		us->want_addr = (int)addr;
		return 0;
	}
	snprintf(err, err_size, "usb:%s: expected usb:mceusb, usb:imon or usb:KIND:BUS:ADDR",
		 device);
	return -EINVAL;
}

static int usb_open(const char *device, const struct ir_source_options *opt,
		    struct ir_source_sink *sink, void **impl, char *err, size_t err_size)
{
	struct usb_source *us = calloc(1, sizeof(*us));
	int ret;

	if (!us) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	us->efd = -1;
	pthread_mutex_init(&us->lock, NULL);
	us->sink = sink;
	us->detach_kernel = opt->detach_kernel;
	us->timeout_us = opt->timeout_us;
	/* iMON receivers decode one protocol at a time: MCE only when asked
	 * for it and not for iMON's own. */
	us->imon_protocol = opt->protocols && ir_protocol_set_has(opt->protocols, IR_PROTO_RC6_MCE) &&
			    !ir_protocol_set_has(opt->protocols, IR_PROTO_IMON) ?
			    IR_PROTO_RC6_MCE : IR_PROTO_IMON;
	us->start_us = ir_monotonic_us();
	ret = parse_device(us, device, err, err_size);
	if (ret < 0)
		goto fail;
	ret = ir_usb_queue_init(&us->queue, QUEUE_ITEMS);
	if (ret < 0) {
		snprintf(err, err_size, "%s", strerror(-ret));
		goto fail;
	}
	us->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (us->efd < 0) {
		ret = -errno;
		snprintf(err, err_size, "eventfd: %s", strerror(errno));
		goto fail;
	}
	ret = libusb_init(&us->ctx);
	if (ret < 0) {
		snprintf(err, err_size, "libusb: %s", libusb_strerror(ret));
		ret = errno_from_libusb(ret);
		us->ctx = NULL;
		goto fail;
	}
	us->udev_live = libusb_has_capability(LIBUSB_CAP_HAS_HOTPLUG) &&
			access(UDEV_CONTROL, F_OK) == 0;
	register_hotplug(us);
	/* a fixed interval: hotplug (or nothing) says when it is back */
	ir_reopen_init(&us->reopen, (unsigned)rescan_ms(us), (unsigned)rescan_ms(us));
	ret = try_open(us, err, err_size);
	if (ret < 0)
		goto fail;
	ret = pthread_create(&us->thread, NULL, event_thread, us);
	if (ret) {
		snprintf(err, err_size, "cannot start the USB thread: %s", strerror(ret));
		ret = -ret;
		goto fail;
	}
	us->thread_started = true;
	*impl = us;
	return 0;
fail:
	usb_close(us);
	return ret;
}

static int usb_fd(void *impl)
{
	return ((struct usb_source *)impl)->efd;
}

#define DISPATCH_EDGES 64

static int usb_dispatch(void *impl)
{
	struct usb_source *us = impl;
	struct ir_edge batch[DISPATCH_EDGES];
	struct ir_usb_item item;
	size_t n = 0;
	uint64_t count;
	char msg[192];

	(void)!read(us->efd, &count, sizeof(count));
	while (ir_usb_queue_pop(&us->queue, &item)) {
		if (item.kind == IR_USB_ITEM_EDGE) {
			batch[n++] = item.edge;
			if (n == DISPATCH_EDGES) {
				ir_source_sink_edges(us->sink, batch, n);
				n = 0;
			}
			continue;
		}
		if (n) {
			ir_source_sink_edges(us->sink, batch, n);
			n = 0;
		}
		if (item.kind == IR_USB_ITEM_KEY) {
			struct ir_frame f = {
				.protocol = (enum ir_protocol)item.protocol,
				.flags = item.toggle ? IR_FRAME_TOGGLE : 0,
				.scancode = item.scancode,
				.start_us = item.time_us - us->start_us,
				.end_us = item.time_us - us->start_us,
			};
			ir_source_sink_frame(us->sink, &f);
		} else {
			pthread_mutex_lock(&us->lock);
			snprintf(msg, sizeof(msg), "%s %s", us->device,
				 item.kind == IR_USB_ITEM_GONE ? "unplugged" : "is back");
			pthread_mutex_unlock(&us->lock);
			ir_source_sink_event(us->sink, item.kind == IR_USB_ITEM_GONE ?
					     IR_SOURCE_GONE : IR_SOURCE_BACK, msg);
		}
	}
	if (n)
		ir_source_sink_edges(us->sink, batch, n);
	return 0;
}

static void usb_stats(void *impl, struct ir_source_stats *st)
{
	struct usb_source *us = impl;

	pthread_mutex_lock(&us->lock);
	snprintf(st->device, sizeof(st->device), "%s", us->device);
	pthread_mutex_unlock(&us->lock);
	snprintf(st->format, sizeof(st->format), "%s",
		 us->kind == KIND_MCE ? "mceusb" : "imon scancodes");
	st->connected = atomic_load(&us->connected);
	st->reopens = atomic_load(&us->reopens);
	st->dropped = atomic_load(&us->dropped);
}

static int usb_transmit(void *impl, const struct ir_edge *edges, size_t n, uint32_t carrier_hz,
			unsigned ports, char *err, size_t err_size)
{
	struct usb_source *us = impl;
	uint8_t carrier[4];
	size_t samples = 0, ends[256]; /* 256 writes: 30 kB, over 30000 samples */
	uint8_t *stream;
	long len, writes;
	int ret = 0;

	if (us->kind != KIND_MCE || (us->mce->quirks & MCE_QUIRK_NO_TX)) {
		snprintf(err, err_size, "this receiver has no transmitter");
		return -ENOTSUP;
	}
	if (ir_mceusb_carrier_cmd(carrier_hz, carrier) < 0) {
		snprintf(err, err_size, "carrier %u Hz is out of the device's range", carrier_hz);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++)
		samples += edges[i].duration / (MCE_UNIT_US * MCE_SAMPLE_MAX) + 1;
	/* mask command, the samples, a header per 30 of them, the trailer */
	size_t cap = 3 + samples + samples / MCE_PACKET_MAX_SAMPLES + 2;
	stream = malloc(cap);
	if (!stream)
		return -ENOMEM;
	len = ir_mceusb_tx_build(edges, n, ir_mceusb_tx_mask(us->mce, ports), stream, cap);
	writes = len < 0 ? len : ir_mceusb_tx_split(stream, (size_t)len, MCE_TX_WRITE_MAX, ends,
						      ARRAY_SIZE(ends));
	if (writes < 0) {
		snprintf(err, err_size, "cannot encode for the device: %s", strerror((int)-writes));
		free(stream);
		return (int)writes;
	}
	pthread_mutex_lock(&us->lock);
	if (!us->handle) {
		snprintf(err, err_size, "the device is unplugged");
		ret = -ENODEV;
	} else {
		ret = write_out(us, carrier, sizeof(carrier));
		for (long w = 0, start = 0; ret == 0 && w < writes; start = (long)ends[w++])
			ret = write_out(us, stream + start, ends[w] - (size_t)start);
		if (ret < 0)
			snprintf(err, err_size, "%s: %s", us->device, strerror(-ret));
	}
	pthread_mutex_unlock(&us->lock);
	free(stream);
	return ret;
}

/* Sends a screen through the open receiver, with the kernel driver's
 * pause after each packet (5 or 20 ms; up to ~0.2 s for an LCD's first
 * screen, which the caller's loop waits for). */
static int usb_display(void *impl, const char *request, char *err, size_t err_size)
{
	struct usb_source *us = impl;
	struct ir_imon_screen screen;
	struct ir_imon_packets pk;
	enum ir_imon_display d;
	time_t now = time(NULL);
	struct tm tm;
	int ret = 0;

	pthread_mutex_lock(&us->lock);
	d = us->product == 0xffdc && us->ffdc_known ? us->ffdc_display
						    : ir_imon_display_for(us->product);
	pthread_mutex_unlock(&us->lock);
	if (us->kind != KIND_IMON || us->imon_raw || d == IR_IMON_DISPLAY_NONE) {
		snprintf(err, err_size, "this receiver has no display");
		return -ENOTSUP;
	}
	if (ir_imon_screen_parse(request, &screen, err, err_size) < 0)
		return -EINVAL;
	localtime_r(&now, &tm);
	pthread_mutex_lock(&us->lock);
	if (!us->handle) {
		snprintf(err, err_size, "the device is unplugged");
		ret = -ENODEV;
	} else if (ir_imon_screen_packets(d, us->product, &screen, !us->display_text, &tm, &pk) < 0) {
		snprintf(err, err_size, "%s: a %s takes %s", us->device, ir_imon_display_name(d),
			 d == IR_IMON_DISPLAY_VFD ? "1 to 32 bytes per write" : "8-byte packets");
		ret = -EINVAL;
	} else {
		for (size_t i = 0; ret == 0 && i < pk.n; i++) {
			struct timespec pause = { 0, (long)ir_imon_display_delay_ms(us->product) * 1000000L };

			ret = imon_send(us, pk.pkt[i]);
			nanosleep(&pause, NULL);
		}
		if (ret < 0)
			snprintf(err, err_size, "%s: %s", us->device, strerror(-ret));
		else
			us->display_text = screen.kind == IR_IMON_SCREEN_TEXT;
	}
	pthread_mutex_unlock(&us->lock);
	return ret;
}

static int usb_list(FILE *out, bool capture, bool playback)
{
	libusb_context *ctx;
	libusb_device **list;
	ssize_t n;
	int count = 0;

	if (!capture && !playback)
		return 0;
	if (libusb_init(&ctx) < 0)
		return -EIO;
	n = libusb_get_device_list(ctx, &list);
	for (ssize_t i = 0; i < n; i++) {
		struct libusb_device_descriptor d;
		const struct ir_mceusb_device *mce;

		if (libusb_get_device_descriptor(list[i], &d) < 0)
			continue;
		mce = ir_mceusb_device_find(d.idVendor, d.idProduct);
		if (mce && (capture || !(mce->quirks & MCE_QUIRK_NO_TX))) {
			fprintf(out, "usb:mceusb:%03u:%03u\t%s (%04x:%04x)\n",
				libusb_get_bus_number(list[i]), libusb_get_device_address(list[i]),
				mce->name, d.idVendor, d.idProduct);
			count++;
		} else if (capture && (ir_imon_device_known(d.idVendor, d.idProduct) ||
				       ir_imon_raw_device_known(d.idVendor, d.idProduct))) {
			fprintf(out, "usb:imon:%03u:%03u\tSoundGraph iMON receiver%s (%04x:%04x)\n",
				libusb_get_bus_number(list[i]), libusb_get_device_address(list[i]),
				ir_imon_raw_device_known(d.idVendor, d.idProduct) ? ", raw samples" : "",
				d.idVendor, d.idProduct);
			count++;
		}
	}
	if (n >= 0)
		libusb_free_device_list(list, 1);
	libusb_exit(ctx);
	return n < 0 ? errno_from_libusb((int)n) : count;
}

static const struct ir_source_backend ir_source_backend_usb = {
	.name = "usb",
	.kind = IR_SOURCE_KIND_TIMING,
	.summary = "USB IR receivers through libusb: usb:mceusb[:BUS:ADDR] (MCE transceivers), "
		   "usb:imon[:BUS:ADDR]",
	.open = usb_open,
	.fd = usb_fd,
	.dispatch = usb_dispatch,
	.stats = usb_stats,
	.close = usb_close,
	.list = usb_list,
	.transmit = usb_transmit,
	.display = usb_display,
};

IR_SOURCE_BACKEND_REGISTER(ir_source_backend_usb)
