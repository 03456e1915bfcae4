/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The calls a process image began inside, which tree views draw its
 * calls under: a fork child's are its parent's calls open at the fork
 * (the inherited rows at the head of its log, kft-data(5)); an exec'd
 * image's are the calls its thread had open when exec replaced the image
 * before (its open frames at the end, and what that image had itself
 * inherited). Internal to src/format/ (reader.c).
 */
#ifndef KFT_INHERITED_H
#define KFT_INHERITED_H

#include "reader.h"

/* Find them for every thread file of tr (each file's inherited,
 * ninherited, inherited_exec): 0, or -1 out of memory. */
int kft_inherited_find(struct kft_trace *tr, struct kft_error *err);

#endif
