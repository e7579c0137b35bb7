/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mce_gadget.c - a fake MCE IR transceiver for the VM tests: the device
 * side of a FunctionFS function (configfs gadget 0471:0815 on dummy_hcd,
 * set up by tests/vm/guest-usb.sh).
 *
 * Usage: mce_gadget [--imon | --ffdc-config BYTE] FFS_DIR OUT_LOG
 *
 * One vendor-class interface with a bulk IN and a bulk OUT endpoint, full
 * and high speed.  Each time the host enables the function (a bind, or a
 * rebind after an unplug) it sends the next NEC frame of its script on IN,
 * as MCE RX packets: the 9 ms header pulse as two samples (127 + 53
 * units), a 40 ms trailing space as seven, the second data packet split
 * across two USB writes, then the end-of-burst 0x80.  Everything the host
 * writes on OUT goes to OUT_LOG, one "OUT <hex>" line per transfer.
 * Prints "READY" once the descriptors are in (then the UDC may be bound).
 *
 * With --imon it is an iMON receiver instead (gadget 15c2:0038): 8-byte
 * interrupt endpoints, and on the first enable the key packets of
 * imon_script (a PAD key press and its release, idle chatter, a pad move).
 *
 * With --ffdc-config BYTE it is a 15c2:ffdc iMON (the gadget's id is set
 * by the script): the same endpoints, and from the first enable on an
 * idle report every 10 ms, FF FF FF FF FF FF BYTE FF, for ever, as these
 * receivers chatter all the time; byte 6 is the configuration byte the
 * kernel's imon driver reads to tell a VFD model from an LCD one (the
 * other bytes are the idle chatter the usb source ignores; only byte 6
 * is known to mean something).
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/ch9.h>
#include <linux/usb/functionfs.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UNIT_US 50
#define SAMPLE_MAX 127
#define PACKET_SAMPLES 30
#define PULSE 0x80

/* The frames sent on the first, second, ... enable (NEC address, command). */
static const uint8_t script[][2] = { { 0x04, 0x08 }, { 0x10, 0x20 } };

/* iMON packets: REWIND pressed, released (bit 14), 0xffdc-style idle
 * chatter, the pad pushed up (5 bytes: 01, buttons, x, y, 00). */
static const struct {
	uint8_t len;
	uint8_t bytes[8];
} imon_script[] = {
	{ 8, { 0x2a, 0x81, 0x95, 0xb7, 0x00, 0x00, 0x00, 0x00 } },
	{ 8, { 0x2a, 0x81, 0xd5, 0xb7, 0x00, 0x00, 0x00, 0x00 } },
	{ 8, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } },
	{ 5, { 0x01, 0x00, 0x02, 0xf4, 0x00 } },
};

static bool imon;
static int ffdc_config = -1; /* --ffdc-config: the byte; -1: not a 0xffdc */
static char ffs_dir[200];
static FILE *out_log;
static sem_t send_frame;

struct endpoints {
	struct usb_interface_descriptor intf;
	struct usb_endpoint_descriptor_no_audio in, out;
} __attribute__((packed));

static struct {
	struct usb_functionfs_descs_head_v2 head;
	__le32 fs_count, hs_count;
	struct endpoints fs, hs;
} __attribute__((packed)) descriptors;

#define PRODUCT "eHome Infrared Transceiver"
static struct {
	struct usb_functionfs_strings_head head;
	__le16 lang;
	char product[sizeof(PRODUCT)];
} __attribute__((packed)) strings;

static void describe(struct endpoints *e, uint16_t packet)
{
	e->intf.bLength = sizeof(e->intf);
	e->intf.bDescriptorType = USB_DT_INTERFACE;
	e->intf.bNumEndpoints = 2;
	e->intf.bInterfaceClass = USB_CLASS_VENDOR_SPEC;
	e->intf.iInterface = 1;
	e->in.bLength = e->out.bLength = sizeof(e->in);
	e->in.bDescriptorType = e->out.bDescriptorType = USB_DT_ENDPOINT;
	e->in.bmAttributes = e->out.bmAttributes =
		imon ? USB_ENDPOINT_XFER_INT : USB_ENDPOINT_XFER_BULK;
	e->in.wMaxPacketSize = e->out.wMaxPacketSize = htole16(imon ? 8 : packet);
	e->in.bInterval = e->out.bInterval = imon ? (packet == 512 ? 4 : 1) : 0; /* 1 ms */
	e->in.bEndpointAddress = 1 | USB_DIR_IN;
	e->out.bEndpointAddress = 2 | USB_DIR_OUT;
}

static int open_endpoint(const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", ffs_dir, name);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "mce_gadget: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

static size_t add_run(uint8_t *s, size_t n, unsigned us, int pulse)
{
	unsigned units = (us + UNIT_US / 2) / UNIT_US;

	while (units) {
		unsigned u = units > SAMPLE_MAX ? SAMPLE_MAX : units;

		s[n++] = (uint8_t)(u | (pulse ? PULSE : 0));
		units -= u;
	}
	return n;
}

/* The samples of one NEC frame and its trailing silence. */
static size_t nec_samples(uint8_t *s, uint8_t address, uint8_t command)
{
	const uint8_t bytes[4] = { address, (uint8_t)~address, command, (uint8_t)~command };
	size_t n = 0;

	n = add_run(s, n, 9000, 1);
	n = add_run(s, n, 4500, 0);
	for (int i = 0; i < 32; i++) {
		n = add_run(s, n, 560, 1);
		n = add_run(s, n, (bytes[i / 8] >> (i % 8)) & 1 ? 1690 : 560, 0);
	}
	n = add_run(s, n, 560, 1);
	return add_run(s, n, 40000, 0);
}

static void *in_writer(void *arg)
{
	int fd = open_endpoint("ep1");
	unsigned next = 0;

	(void)arg;
	for (;;) {
		uint8_t samples[256], stream[512];
		size_t ns, len = 0, cuts[8], ncuts = 0, start = 0;

		while (sem_wait(&send_frame) < 0 && errno == EINTR)
			;
		if (ffdc_config >= 0) {
			uint8_t idle[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, (uint8_t)ffdc_config, 0xff };

			printf("chattering with config byte %02x\n", ffdc_config);
			fflush(stdout);
			for (;;) /* a write waits for the host's read; ESHUTDOWN while unbound */
				usleep(write(fd, idle, sizeof(idle)) < 0 ? 20000 : 10000);
		}
		if (imon) {
			for (size_t i = 0; next == 0 && i < sizeof(imon_script) / sizeof(imon_script[0]); i++)
				if (write(fd, imon_script[i].bytes, imon_script[i].len) < 0)
					fprintf(stderr, "mce_gadget: IN: %s\n", strerror(errno));
			printf("sent the iMON script\n");
			fflush(stdout);
			next++;
			continue;
		}
		if (next >= sizeof(script) / sizeof(script[0]))
			continue;
		ns = nec_samples(samples, script[next][0], script[next][1]);
		for (size_t i = 0; i < ns; i += PACKET_SAMPLES) {
			size_t k = ns - i < PACKET_SAMPLES ? ns - i : PACKET_SAMPLES;

			stream[len++] = (uint8_t)(0x80 | k);
			memcpy(stream + len, samples + i, k);
			len += k;
			if (i == PACKET_SAMPLES) /* the second packet: cut it in two writes */
				cuts[ncuts++] = len - k + 9;
			cuts[ncuts++] = len;
		}
		stream[len++] = 0x80;
		cuts[ncuts - 1] = len;
		for (size_t c = 0; c < ncuts; start = cuts[c++]) {
			if (write(fd, stream + start, cuts[c] - start) < 0) {
				fprintf(stderr, "mce_gadget: IN: %s\n", strerror(errno));
				break;
			}
		}
		printf("sent NEC %02x %02x in %zu writes\n", script[next][0], script[next][1], ncuts);
		fflush(stdout);
		next++;
	}
	return NULL;
}

static void *out_reader(void *arg)
{
	int fd = open_endpoint("ep2");
	uint8_t buf[1024];

	(void)arg;
	for (;;) {
		/* A read ends on a short packet or a full buffer: an iMON's 8-byte
		 * packets fill their endpoint, so read them one at a time. */
		ssize_t n = read(fd, buf, imon ? 8 : sizeof(buf));

		if (n < 0) {
			/* ESHUTDOWN while unbound: wait for the next enable */
			usleep(20000);
			continue;
		}
		fputs("OUT ", out_log);
		for (ssize_t i = 0; i < n; i++)
			fprintf(out_log, "%02x", buf[i]);
		fputc('\n', out_log);
		fflush(out_log);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t in, out;
	int ep0;

	if (argc == 4 && strcmp(argv[1], "--imon") == 0) {
		imon = true;
		argv++;
		argc--;
	} else if (argc == 5 && strcmp(argv[1], "--ffdc-config") == 0) {
		imon = true;
		ffdc_config = (int)strtol(argv[2], NULL, 0) & 0xff;
		argv += 2;
		argc -= 2;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: mce_gadget [--imon | --ffdc-config BYTE] FFS_DIR OUT_LOG\n");
		return 2;
	}
	snprintf(ffs_dir, sizeof(ffs_dir), "%s", argv[1]);
	out_log = fopen(argv[2], "w");
	if (!out_log) {
		perror(argv[2]);
		return 1;
	}
	sem_init(&send_frame, 0, 0);

	descriptors.head.magic = htole32(FUNCTIONFS_DESCRIPTORS_MAGIC_V2);
	descriptors.head.length = htole32(sizeof(descriptors));
	descriptors.head.flags = htole32(FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC);
	descriptors.fs_count = descriptors.hs_count = htole32(3);
	describe(&descriptors.fs, 64);
	describe(&descriptors.hs, 512);
	strings.head.magic = htole32(FUNCTIONFS_STRINGS_MAGIC);
	strings.head.length = htole32(sizeof(strings));
	strings.head.str_count = htole32(1);
	strings.head.lang_count = htole32(1);
	strings.lang = htole16(0x0409);
	memcpy(strings.product, PRODUCT, sizeof(PRODUCT));

	ep0 = open_endpoint("ep0");
	if (write(ep0, &descriptors, sizeof(descriptors)) != (ssize_t)sizeof(descriptors) ||
	    write(ep0, &strings, sizeof(strings)) != (ssize_t)sizeof(strings)) {
		fprintf(stderr, "mce_gadget: descriptors refused: %s\n", strerror(errno));
		return 1;
	}
	printf("READY\n");
	fflush(stdout);
	pthread_create(&in, NULL, in_writer, NULL);
	pthread_create(&out, NULL, out_reader, NULL);
	for (;;) {
		struct usb_functionfs_event ev[4];
		ssize_t n = read(ep0, ev, sizeof(ev));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "mce_gadget: ep0: %s\n", strerror(errno));
			return 1;
		}
		for (size_t i = 0; i < (size_t)n / sizeof(ev[0]); i++) {
			if (ev[i].type == FUNCTIONFS_ENABLE) {
				printf("enabled\n");
				fflush(stdout);
				sem_post(&send_frame);
			} else if (ev[i].type == FUNCTIONFS_DISABLE) {
				printf("disabled\n");
				fflush(stdout);
			} else if (ev[i].type == FUNCTIONFS_SETUP) {
				/* no vendor requests on a generation-2 device: stall */
				if (ev[i].u.setup.bRequestType & USB_DIR_IN)
					(void)!read(ep0, NULL, 0);
				else
					(void)!write(ep0, NULL, 0);
			}
		}
	}
}
