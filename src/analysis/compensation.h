/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What `kft record --compensate` took off a trace's durations, and how
 * far a compensated figure can be trusted. The hooks time themselves, so
 * their own time comes off each call exactly; what they cannot time (the
 * clock's readings, the calls into them and back) is a calibrated figure
 * a stretch of program between two hooks: a call with n nested calls has
 * 2n + 1 such stretches, and is as good as that figure times them. The
 * calibration measured it a few times; half the range of its tries is
 * the doubt on each stretch.
 */
#ifndef KFT_COMPENSATION_H
#define KFT_COMPENSATION_H

#include <stdbool.h>
#include <stdint.h>

#include "../format/trace-format.h"

struct kft_compensation {
	bool known;		/* compensated, and calibrated as the control says */
	double gap_ns;		/* taken off each stretch besides the hooks' time */
	double spread_ns;	/* how far that figure may be off, each stretch */
	double taken_ns;	/* taken off in all, per nested call */
};

/* The compensation of the trace whose control is ctl (known false if the
 * trace was not compensated, or by a kft that did not say how). */
struct kft_compensation kft_compensation_of(const struct kft_control *ctl);

/* For calls that together enclose nested logged calls: how far their
 * compensated time may be off, either way (ns), and how much was taken
 * off it (ns, an estimate from the calibration's calls). */
double kft_compensation_doubt_ns(const struct kft_compensation *c, uint64_t calls,
				 uint64_t nested);
double kft_compensation_taken_ns(const struct kft_compensation *c, uint64_t calls,
				 uint64_t nested);

#endif
