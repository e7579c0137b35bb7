/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irjackd.c - the irjack service: every configured receiver decoded into
 * key presses for the configured outputs.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>
#include <unistd.h>
#include <syslog.h>

#include "ir_keymap.h"
#include "irjackd.h"
#include "irjackd_config.h"

#define DEFAULT_CONFIG "/etc/irjack/irjackd.conf"

static void usage_options(FILE *out)
{
	fprintf(out,
		"Usage: irjackd [--config FILE] [--lirc-options FILE] [--check-config]\n"
		"\n"
		"The irjack service: reads every configured IR receiver (a sound card's\n"
		"microphone input, /dev/lircN, USB receivers), decodes every common\n"
		"protocol, names the buttons with the configured keymaps (rc_keymaps TOML,\n"
		"lircd.conf) and hands key presses to the configured outputs (a uinput\n"
		"input device, a lircd-compatible socket for irw/irexec/Kodi, JSON lines,\n"
		"MQTT).\n"
		"\n"
		"Options:\n"
		"  -c, --config FILE    configuration file (default " DEFAULT_CONFIG ")\n"
		"  -O, --lirc-options FILE\n"
		"                       read LIRC's lirc_options.conf too (as [daemon]\n"
		"                       lirc_options; without a --config, and with no\n"
		"                       " DEFAULT_CONFIG ", from it alone)\n"
		"  -n, --check-config   read the configuration and every keymap it names,\n"
		"                       report what was understood or the first error\n"
		"                       (file:line: message), and exit\n"
		"  -h, --help           show this help\n"
		"  -V, --version        show the version\n"
		"\n");
}

static void usage_inputs(FILE *out)
{
	fprintf(out,
		"Configuration (INI):\n"
		"  [daemon]             keymap = FILE|DIR (repeatable), keyup_timeout_ms,\n"
		"                       log_level = error|warning|info|debug,\n"
		"                       lirc_options = FILE (LIRC's lirc_options.conf: its\n"
		"                       output socket, permission, driver/device, and the\n"
		"                       lircd.conf beside it),\n"
		"                       rc_maps = FILE (ir-keytable's rc_maps.cfg: the\n"
		"                       keymaps it gives the lirc/devinput sources'\n"
		"                       receivers, by driver and kernel table)\n"
		"  [source NAME]        type = alsa|portaudio|file|lirc|devinput|mceusb|imon|\n"
		"                       lircd, device (devinput: auto, rcN, name=GLOB or a\n"
		"                       /dev/input path; lircd: a socket path or\n"
		"                       HOST[:PORT]), rate, channel = left|right|auto|N,\n"
		"                       polarity = auto|high|low, protocols, timeout_ms,\n"
		"                       period_us (audio: capture period, default ~4000;\n"
		"                       longer survives a slow or busy machine),\n"
		"                       replay_delay_ms (file: a recording replayed live),\n"
		"                       required = yes|no (a device missing at start:\n"
		"                       exit 1 instead of waiting for it, the default)\n");
}

static void usage_outputs(FILE *out)
{
	fprintf(out,
		"  [output uinput]      name, vendor, product, per_remote = yes|no (one\n"
		"                       input device per keymap remote, called\n"
		"                       'NAME REMOTE' with only that remote's keys, the\n"
		"                       vendor id and a product id hashed from the\n"
		"                       remote's name; a reload makes and removes them\n"
		"                       as remotes come and go; frames no remote names\n"
		"                       reach no device)\n"
		"  [output lircd]       path, mode, simulate = yes|no, listen = [ADDR:]PORT\n"
		"                       (TCP, as lircd --listen); besides lircd's\n"
		"                       commands, irjack's own STATUS and DISPLAY\n"
		"                       (an iMON source's VFD/LCD: DISPLAY TEXT l1|l2,\n"
		"                       DISPLAY ICONS list [TEXT ...], DISPLAY CLOCK,\n"
		"                       DISPLAY OFF, DISPLAY WRITE HEX; `irjack display\n"
		"                       --socket`)\n"
		"  [output json]        path ('-': standard output)\n"
		"  [output mqtt]        host, port, client_id, topic_prefix, username,\n"
		"                       password|password_file, tls, cafile, certfile,\n"
		"                       keyfile, qos, keepalive, queue_max,\n"
		"                       discovery = yes|no (Home Assistant: an event\n"
		"                       entity per remote), discovery_prefix,\n"
		"                       ha_triggers = yes|no (a device trigger per\n"
		"                       button too); topics PREFIX/<source>/event,\n"
		"                       PREFIX/remote/<remote>/event, PREFIX/status,\n"
		"                       PREFIX/send (retained requests are refused),\n"
		"                       PREFIX/display (DISPLAY's text)\n");
}

static void usage_devices(FILE *out)
{
	fprintf(out,
		"  [output lircdev]     name (default lirc-irjack), source (default: the\n"
		"                       first): /dev/NAME, a LIRC character device made\n"
		"                       through CUSE (libfuse3, the cuse module) that\n"
		"                       serves the source as the kernel's lirc_dev serves a\n"
		"                       receiver: mode2 reads of its pulses, spaces and\n"
		"                       timeouts (for audio the demodulator's), scancode\n"
		"                       reads of its frames (rc-core protocol numbers),\n"
		"                       receive-only ioctls; for ir-ctl -r, mode2, lircd\n"
		"  [output lcddev]      name (default lcd0), source (a type = imon source;\n"
		"                       default: every source with a display): /dev/NAME,\n"
		"                       the iMON display as lirc_imon's character device\n"
		"                       made through CUSE, for lcdproc's imon (VFD: a\n"
		"                       write of 1..32 bytes is the screen) and imonlcd\n"
		"                       (LCD: one 8-byte packet per write) drivers; other\n"
		"                       sizes fail with EINVAL, no display with ENODEV\n"
		"  [transmitter NAME]   type = alsa|file|lirc|mceusb, device, mode, volume,\n"
		"                       remotes\n"
		"See config/irjackd.conf for an example.\n"
		"\n");
}

static void usage_limits(FILE *out)
{
	fprintf(out,
		"Limits: lircd socket lines 256 bytes (longer: an ERROR reply), 64 clients\n"
		"(more are refused), 64 KiB of unread output per client (then it is\n"
		"disconnected), SEND_ONCE repeats 1000; configuration lines 197\n"
		"characters; keymaps 100000 keys and 4 MiB per file; timing files\n"
		"256 MiB (read whole; audio files are streamed); timeouts 10 ms to 10 s.\n"
		"\n"
		"Exit status: 0 on a clean stop (or a valid configuration with\n"
		"--check-config), 2 on a configuration error, 1 on a runtime failure.\n");
}

static void usage(FILE *out)
{
	usage_options(out);
	usage_inputs(out);
	usage_outputs(out);
	usage_devices(out);
	usage_limits(out);
}

static void print_summary(const struct irjackd_config *cfg, const struct ir_keymap *km)
{
	printf("%s: configuration valid\n", cfg->path);
	for (unsigned i = 0; i < cfg->source_count; i++) {
		const struct irjackd_source *s = &cfg->sources[i];

		printf("  source %s: %s %s", s->name, irjackd_source_type_name(s->type),
		       s->device[0] ? s->device : "(first found)");
		if (s->rate)
			printf(", %u Hz", s->rate);
		printf("\n");
	}
	for (unsigned i = 0; i < cfg->transmitter_count; i++) {
		const struct irjackd_transmitter *t = &cfg->transmitters[i];

		printf("  transmitter %s: %s %s\n", t->name, irjackd_tx_type_name(t->type),
		       t->device[0] ? t->device : "(first found)");
	}
	if (cfg->uinput)
		printf("  output uinput: \"%s\" %04x:%04x%s\n", cfg->uinput_name, cfg->uinput_vendor,
		       cfg->uinput_product, cfg->uinput_per_remote ? ", one device per remote" : "");
	if (cfg->lircd)
		printf("  output lircd: %s (mode %04o)%s%s\n", cfg->lircd_path, cfg->lircd_mode,
		       cfg->lircd_listen[0] ? ", TCP " : "", cfg->lircd_listen);
	if (cfg->json)
		printf("  output json: %s\n", cfg->json_path);
	if (cfg->lircdev)
		printf("  output lircdev: /dev/%s, source %s\n", cfg->lircdev_name,
		       cfg->lircdev_source[0] ? cfg->lircdev_source : cfg->sources[0].name);
	if (cfg->lcddev)
		printf("  output lcddev: /dev/%s, source %s\n", cfg->lcddev_name,
		       cfg->lcddev_source[0] ? cfg->lcddev_source : "(every display)");
	if (cfg->mqtt)
		printf("  output mqtt: %s:%u%s, qos %u, queue %u%s\n", cfg->mqtt_cfg.host,
		       cfg->mqtt_cfg.port, cfg->mqtt_cfg.tls ? " (TLS)" : "", cfg->mqtt_cfg.qos,
		       cfg->mqtt_cfg.queue_max, cfg->mqtt_cfg.discovery ? ", discovery" : "");
	printf("  keymaps: %zu remote%s, %zu button%s\n", ir_keymap_remote_count(km),
	       ir_keymap_remote_count(km) == 1 ? "" : "s", ir_keymap_key_count(km),
	       ir_keymap_key_count(km) == 1 ? "" : "s");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "check-config", no_argument, NULL, 'n' },
		{ "lirc-options", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct irjackd_config *cfg;
	struct irjackd_config_error err;
	const char *path = DEFAULT_CONFIG;
	struct ir_keymap *km = NULL;
	bool check = false, lirc_only = false, config_given = false;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "c:O:nhV", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			path = optarg;
			config_given = true;
			break;
		case 'n':
			check = true;
			break;
		case 'O':
			irjackd_config_set_lirc_options(optarg);
			lirc_only = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("irjackd " IRJACK_VERSION "\n");
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "irjackd: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	cfg = malloc(sizeof(*cfg));
	if (!cfg) {
		fprintf(stderr, "irjackd: out of memory\n");
		return 1;
	}
	/* a LIRC install moved over with no irjackd.conf yet: lirc_options.conf
	 * alone, read as an empty configuration (reloads read it the same way) */
	if (lirc_only && !config_given && access(path, F_OK) < 0)
		path = "";
	irjackd_config_defaults(cfg);
	ret = irjackd_config_load(path, cfg, &err);
	if (ret < 0) {
		if (err.line)
			fprintf(stderr, "irjackd: %s:%u: %s\n", path, err.line, err.message);
		else if (*path)
			fprintf(stderr, "irjackd: %s: %s\n", path, err.message);
		else
			fprintf(stderr, "irjackd: %s\n", err.message);
		free(cfg);
		return 2;
	}
	if (irjackd_load_keymaps(cfg, &km) < 0) {
		free(cfg);
		return 2;
	}
	if (check) {
		print_summary(cfg, km);
		ir_keymap_free(km);
		free(cfg);
		return 0;
	}
	/* irjackd_run() owns cfg and km from here (a reload replaces them) */
	ret = irjackd_run(path, cfg, km);
	return ret < 0 ? 1 : 0;
}
