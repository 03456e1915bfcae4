// SPDX-License-Identifier: GPL-2.0-only
#include "compensation.h"

struct kft_compensation kft_compensation_of(const struct kft_control *ctl)
{
	struct kft_compensation c = { 0 };

	if (!(ctl->mode & KFT_MODE_COMPENSATE) || !ctl->comp_taken_ps)
		return c;
	c.known = true;
	c.gap_ns = (double)ctl->comp_gap_ps / 1000;
	c.spread_ns = (double)ctl->comp_spread_ps / 1000;
	c.taken_ns = (double)ctl->comp_taken_ps / 1000;
	return c;
}

double kft_compensation_doubt_ns(const struct kft_compensation *c, uint64_t calls,
				 uint64_t nested)
{
	/* one stretch before each call's first nested call, one after each
	 * nested call's end, one between its two hooks: the doubt is the
	 * same figure's each time, so it adds up */
	return c->spread_ns * (double)(2 * nested + calls);
}

double kft_compensation_taken_ns(const struct kft_compensation *c, uint64_t calls,
				 uint64_t nested)
{
	return c->taken_ns * (double)nested + c->gap_ns * (double)calls;
}
