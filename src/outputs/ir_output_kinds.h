/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ir_output_kinds.h - the output kinds built in (ir_output.h), each over
 * its module: uinput (out_uinput.h), the lircd socket (out_lircd.h), JSON
 * lines (out_json.h), MQTT (out_mqtt.h), the CUSE LIRC device
 * (out_lircdev_cuse.h), the CUSE iMON display device (out_lcddev.h).  Internal to src/outputs; a
 * program finds them with ir_output_kind_find().
 */
#ifndef IRJACK_IR_OUTPUT_KINDS_H
#define IRJACK_IR_OUTPUT_KINDS_H

#include "ir_output.h"

extern const struct ir_output_kind ir_output_uinput; /* struct ir_uinput_settings */
extern const struct ir_output_kind ir_output_lircd;  /* struct ir_lircd_settings */
extern const struct ir_output_kind ir_output_json;   /* struct ir_json_settings */
extern const struct ir_output_kind ir_output_mqtt;   /* struct ir_mqtt_settings */
extern const struct ir_output_kind ir_output_lircdev; /* struct ir_lircdev_settings */
extern const struct ir_output_kind ir_output_lcddev; /* struct ir_lcddev_settings */

#endif
