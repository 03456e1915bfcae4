/* SPDX-License-Identifier: GPL-2.0-only */
/* kft's version, as --version and a trace's info file say it. */
#ifndef KFT_VERSION_H
#define KFT_VERSION_H

#define KFT_VERSION "0.1.0"

#endif
