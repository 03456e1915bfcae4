// SPDX-License-Identifier: GPL-2.0-only
/*
 * Perfetto's own trace format (protobuf), written from the call stream
 * without Perfetto's SDK. Processes, threads, coroutines and signal
 * handlers are tracks; each call is a slice (a begin and an end event).
 * Each track is a packet sequence of its own, so that it can carry
 * incremental state: its function names interned once, and timestamps
 * as deltas on a sequence clock. Packets go out deflated in blocks
 * (compressed_packets), as Perfetto's own service writes them.
 *
 * Field numbers are those of Perfetto's published protos
 * (protos/perfetto/trace/...); tests/perfetto/kft-perfetto.proto lists
 * the ones used here.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../common/addrmap.h"
#include "../common/grow.h"
#include "../common/protobuf.h"
#include "../format/call-args.h"
#include "export-common.h"
#include "mark-cursor.h"
#include "views.h"

/* Trace */
#define TRACE_PACKET 1
/* TracePacket */
#define PACKET_CLOCK_SNAPSHOT 6
#define PACKET_TIMESTAMP 8
#define PACKET_SEQUENCE_ID 10
#define PACKET_TRACK_EVENT 11
#define PACKET_INTERNED_DATA 12
#define PACKET_SEQUENCE_FLAGS 13
#define PACKET_COMPRESSED 50
#define PACKET_TIMESTAMP_CLOCK 58
#define PACKET_DEFAULTS 59
#define PACKET_TRACK_DESCRIPTOR 60
#define SEQ_INCREMENTAL_STATE_CLEARED 1
#define SEQ_NEEDS_INCREMENTAL_STATE 2
/* ClockSnapshot, ClockSnapshot.Clock */
#define SNAPSHOT_CLOCK 1
#define CLOCK_ID 1
#define CLOCK_TIMESTAMP 2
#define CLOCK_INCREMENTAL 3
#define CLOCK_BOOTTIME 6
#define CLOCK_SEQUENCE_DELTAS 64	/* the first sequence-scoped id */
/* TracePacketDefaults, TrackEventDefaults */
#define DEFAULTS_CLOCK 58
#define DEFAULTS_TRACK_EVENT 11
#define EVENT_DEFAULTS_TRACK 11
/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor */
#define TRACK_UUID 1
#define TRACK_NAME 2
#define TRACK_PROCESS 3
#define TRACK_THREAD 4
#define TRACK_PARENT 5
#define PROCESS_PID 1
#define PROCESS_NAME 6
#define PROCESS_LABELS 8
#define THREAD_PID 1
#define THREAD_TID 2
#define THREAD_NAME 5
/* TrackEvent, DebugAnnotation */
#define EVENT_CATEGORY_IIDS 3
#define EVENT_ANNOTATIONS 4
#define EVENT_TYPE 9
#define EVENT_NAME_IID 10
#define EVENT_NAME 23
#define TYPE_SLICE_BEGIN 1
#define TYPE_SLICE_END 2
#define TYPE_INSTANT 3
#define ANNOTATION_BOOL 2
#define ANNOTATION_STRING 6
#define ANNOTATION_NAME 10
/* InternedData, EventCategory, EventName */
#define INTERNED_CATEGORIES 1
#define INTERNED_NAMES 2
#define INTERNED_IID 1
#define INTERNED_NAME 2
#define CATEGORY_USER 1
#define CATEGORY_KERNEL 2
#define CATEGORY_SCHED 3
/* the names of spans off the CPU, past any function's */
#define IID_SLEPT (1ULL << 40)
#define IID_PREEMPTED (IID_SLEPT + 1)

/* Raw packets deflated a block at a time; Perfetto wants each compressed
 * packet under 512 KiB. */
#define BLOCK_BYTES (256 << 10)
/* The sequence that describes tracks; the tracks' own start after it. */
#define DESCRIPTOR_SEQUENCE 1

struct open_slice {
	uint64_t end;
	uint32_t depth;
};

/* One track: a thread, or one of its coroutines, or its signal handlers. */
struct track {
	uint32_t pid, tid, coroutine;
	bool irq;
	uint64_t last_ns;		/* the sequence clock's time */
	uint8_t *named;			/* a bit a function: interned here */
	size_t nnamed;			/* bytes */
	struct open_slice *open;	/* innermost last */
	size_t nopen, capopen;
	const struct kft_offcpu *spans;	/* a thread's own track: off the CPU */
	size_t nspans, next_span;
	uint8_t span_named;		/* bit 0: "slept", bit 1: "preempted" */
	struct mark_cursor marks;	/* a thread's own track: its markers */
};

struct perfetto {
	struct export_ctx x;
	FILE *out;
	bool compress;
	struct kft_pb block;		/* packets not yet written */
	struct kft_pb packet;		/* the one being made */
	struct kft_pb wrapped;		/* a compressed block's packet */
	uint8_t *zbuf;
	size_t zcap;
	struct track *tracks;
	size_t ntracks, captracks;
	struct kft_addrmap by_thread;	/* (pid, tid, coroutine, irq) -> track */
	struct kft_addrmap processes;	/* pid -> 1 when described */
	uint64_t slices;
};

static uint64_t track_uuid(size_t t)
{
	return (uint64_t)t + 1;
}

/* A process's track: apart from the threads' (a pid is at most 2^22). */
static uint64_t process_uuid(uint32_t pid)
{
	return (1ULL << 40) | pid;
}

static uint32_t sequence_of(size_t t)
{
	return (uint32_t)t + DESCRIPTOR_SEQUENCE + 1;
}

/* The raw block out, deflated unless asked not to. */
static int flush_block(struct perfetto *p)
{
	const struct kft_pb *out = &p->block;
	uLongf zlen;

	if (!p->block.len)
		return 0;
	if (p->compress) {
		zlen = compressBound(p->block.len);
		if (zlen > p->zcap) {
			uint8_t *bigger = realloc(p->zbuf, zlen);

			if (!bigger)
				return -1;
			p->zbuf = bigger;
			p->zcap = zlen;
		}
		if (compress2(p->zbuf, &zlen, p->block.data, p->block.len, 1) != Z_OK)
			return -1;
		kft_pb_reset(&p->wrapped);
		size_t pk = kft_pb_open(&p->wrapped, TRACE_PACKET);

		kft_pb_bytes(&p->wrapped, PACKET_COMPRESSED, p->zbuf, zlen);
		kft_pb_close(&p->wrapped, pk);
		if (p->wrapped.failed)
			return -1;
		out = &p->wrapped;
	}
	if (fwrite(out->data, 1, out->len, p->out) != out->len)
		return -1;
	kft_pb_reset(&p->block);
	return 0;
}

/* The packet made in p->packet into the block. */
static int put_packet(struct perfetto *p)
{
	if (p->packet.failed)
		return -1;
	kft_pb_bytes(&p->block, TRACE_PACKET, p->packet.data, p->packet.len);
	kft_pb_reset(&p->packet);
	if (p->block.failed)
		return -1;
	return p->block.len >= BLOCK_BYTES ? flush_block(p) : 0;
}


/* The process of the program kft record started: its first image's. */
static uint32_t program_pid(const struct kft_trace *tr)
{
	uint32_t pid = 0, session = UINT32_MAX;

	for (size_t i = 0; i < tr->nthreads; i++)
		if (tr->threads[i].hdr.session < session && !kft_thread_is_kernel(&tr->threads[i])) {
			session = tr->threads[i].hdr.session;
			pid = tr->threads[i].hdr.pid;
		}
	return pid;
}

static int describe_process(struct perfetto *p, uint32_t pid)
{
	uint32_t *seen = kft_addrmap_slot(&p->processes, 0, pid);
	char comm[32], how[64];
	size_t d, proc;

	if (!seen)
		return -1;
	if (*seen != KFT_ADDRMAP_NONE)
		return 0;
	*seen = 1;
	kft_export_thread_name(p->x.tr, pid, 0, comm, sizeof(comm));
	kft_pb_varint(&p->packet, PACKET_SEQUENCE_ID, DESCRIPTOR_SEQUENCE);
	d = kft_pb_open(&p->packet, PACKET_TRACK_DESCRIPTOR);
	kft_pb_varint(&p->packet, TRACK_UUID, process_uuid(pid));
	proc = kft_pb_open(&p->packet, TRACK_PROCESS);
	kft_pb_varint(&p->packet, PROCESS_PID, pid);
	kft_pb_string(&p->packet, PROCESS_NAME, comm);
	/* how the program kft record ran ended, on its process */
	if (pid == program_pid(p->x.tr) && kft_view_ending(p->x.tr, how, sizeof(how))) {
		char label[96];

		snprintf(label, sizeof(label), "program ended: %s", how);
		kft_pb_string(&p->packet, PROCESS_LABELS, label);
	}
	kft_pb_close(&p->packet, proc);
	kft_pb_close(&p->packet, d);
	return put_packet(p);
}

/* Track t's descriptor: a thread's own track, or a child track of it for
 * a coroutine or the signal handlers (described first). */
static int describe_track(struct perfetto *p, size_t t, size_t thread_track)
{
	const struct track *k = &p->tracks[t];
	char name[48];
	size_t d, th;

	kft_pb_varint(&p->packet, PACKET_SEQUENCE_ID, DESCRIPTOR_SEQUENCE);
	d = kft_pb_open(&p->packet, PACKET_TRACK_DESCRIPTOR);
	kft_pb_varint(&p->packet, TRACK_UUID, track_uuid(t));
	if (t == thread_track) {
		kft_pb_varint(&p->packet, TRACK_PARENT, process_uuid(k->pid));
		kft_export_thread_name(p->x.tr, k->pid, k->tid, name, sizeof(name));
		th = kft_pb_open(&p->packet, TRACK_THREAD);
		kft_pb_varint(&p->packet, THREAD_PID, k->pid);
		kft_pb_varint(&p->packet, THREAD_TID, k->tid);
		kft_pb_string(&p->packet, THREAD_NAME, name);
		kft_pb_close(&p->packet, th);
	} else {
		kft_pb_varint(&p->packet, TRACK_PARENT, track_uuid(thread_track));
		if (k->irq)
			snprintf(name, sizeof(name), "%" PRIu32 " signal handlers", k->tid);
		else
			snprintf(name, sizeof(name), "%" PRIu32 " coroutine %" PRIu32, k->tid,
				 k->coroutine);
		kft_pb_string(&p->packet, TRACK_NAME, name);
	}
	kft_pb_close(&p->packet, d);
	return put_packet(p);
}

/* The first packet of track t's sequence: its state cleared, its clock
 * (deltas from the call's entry), its default track, the categories. */
static int start_sequence(struct perfetto *p, size_t t, uint64_t at)
{
	size_t m, clock, defaults, events, interned, cat;
	static const char *const categories[] = { [CATEGORY_USER] = "user",
						  [CATEGORY_KERNEL] = "kernel",
						  [CATEGORY_SCHED] = "sched" };

	p->tracks[t].last_ns = at;
	kft_pb_varint(&p->packet, PACKET_TIMESTAMP, at);
	kft_pb_varint(&p->packet, PACKET_TIMESTAMP_CLOCK, CLOCK_BOOTTIME);
	kft_pb_varint(&p->packet, PACKET_SEQUENCE_ID, sequence_of(t));
	kft_pb_varint(&p->packet, PACKET_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	m = kft_pb_open(&p->packet, PACKET_CLOCK_SNAPSHOT);
	clock = kft_pb_open(&p->packet, SNAPSHOT_CLOCK);
	kft_pb_varint(&p->packet, CLOCK_ID, CLOCK_BOOTTIME);
	kft_pb_varint(&p->packet, CLOCK_TIMESTAMP, at);
	kft_pb_close(&p->packet, clock);
	clock = kft_pb_open(&p->packet, SNAPSHOT_CLOCK);
	kft_pb_varint(&p->packet, CLOCK_ID, CLOCK_SEQUENCE_DELTAS);
	kft_pb_varint(&p->packet, CLOCK_TIMESTAMP, at);
	kft_pb_varint(&p->packet, CLOCK_INCREMENTAL, 1);
	kft_pb_close(&p->packet, clock);
	kft_pb_close(&p->packet, m);
	defaults = kft_pb_open(&p->packet, PACKET_DEFAULTS);
	kft_pb_varint(&p->packet, DEFAULTS_CLOCK, CLOCK_SEQUENCE_DELTAS);
	events = kft_pb_open(&p->packet, DEFAULTS_TRACK_EVENT);
	kft_pb_varint(&p->packet, EVENT_DEFAULTS_TRACK, track_uuid(t));
	kft_pb_close(&p->packet, events);
	kft_pb_close(&p->packet, defaults);
	interned = kft_pb_open(&p->packet, PACKET_INTERNED_DATA);
	for (size_t i = CATEGORY_USER; i <= CATEGORY_SCHED; i++) {
		cat = kft_pb_open(&p->packet, INTERNED_CATEGORIES);
		kft_pb_varint(&p->packet, INTERNED_IID, i);
		kft_pb_string(&p->packet, INTERNED_NAME, categories[i]);
		kft_pb_close(&p->packet, cat);
	}
	kft_pb_close(&p->packet, interned);
	return put_packet(p);
}

/* The track of c's thread, coroutine and context, described when new. */
static int track_of(struct perfetto *p, const struct kft_call *c, uint64_t at, size_t *out)
{
	bool irq = c->flags & KFT_REC_SIGNAL;
	uint64_t key = (uint64_t)c->tid << 32 | c->coroutine;
	uint32_t *slot = kft_addrmap_slot(&p->by_thread, (uint64_t)c->pid << 1 | irq, key);
	size_t thread_track = 0, t;

	if (!slot)
		return -1;
	if (*slot != KFT_ADDRMAP_NONE) {
		*out = *slot;
		return 0;
	}
	if (c->coroutine || irq) {
		/* the thread's own track first, as the child's parent */
		struct kft_call plain = *c;

		plain.coroutine = 0;
		plain.flags &= ~KFT_REC_SIGNAL;
		if (track_of(p, &plain, at, &thread_track))
			return -1;
	}
	if (kft_grow((void **)&p->tracks, p->ntracks, &p->captracks, sizeof(*p->tracks), 16))
		return -1;
	t = p->ntracks++;
	memset(&p->tracks[t], 0, sizeof(p->tracks[t]));
	p->tracks[t].pid = c->pid;
	p->tracks[t].tid = c->tid;
	p->tracks[t].coroutine = c->coroutine;
	p->tracks[t].irq = irq;
	if (!c->coroutine && !irq) {
		thread_track = t;
		if (p->x.o->switches)
			p->tracks[t].spans = kft_switches_of(&p->x.tr->switches, c->tid,
							     &p->tracks[t].nspans);
		mark_follow(&p->tracks[t].marks, p->x.tr, c);
	}
	/* the slot may have moved as the map grew */
	slot = kft_addrmap_slot(&p->by_thread, (uint64_t)c->pid << 1 | irq, key);
	if (!slot)
		return -1;
	*slot = (uint32_t)t;
	*out = t;
	if (describe_process(p, c->pid) || describe_track(p, t, thread_track) ||
	    start_sequence(p, t, at))
		return -1;
	return 0;
}

/* A begin or end event on track t at time at (never before the last). */
static void event(struct perfetto *p, size_t t, uint64_t at)
{
	struct track *k = &p->tracks[t];

	if (at < k->last_ns)
		at = k->last_ns;
	kft_pb_varint(&p->packet, PACKET_TIMESTAMP, at - k->last_ns);
	k->last_ns = at;
	kft_pb_varint(&p->packet, PACKET_SEQUENCE_ID, sequence_of(t));
	kft_pb_varint(&p->packet, PACKET_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
}

/* The calls of track t that ended before an entry at `at` of a call at
 * depth, innermost first. */
static int end_slices(struct perfetto *p, size_t t, uint64_t at, uint32_t depth)
{
	struct track *k = &p->tracks[t];

	while (k->nopen) {
		const struct open_slice *top = &k->open[k->nopen - 1];
		size_t ev;

		if (top->depth < depth && top->end >= at)
			break;
		event(p, t, top->end);
		ev = kft_pb_open(&p->packet, PACKET_TRACK_EVENT);
		kft_pb_varint(&p->packet, EVENT_TYPE, TYPE_SLICE_END);
		kft_pb_close(&p->packet, ev);
		k->nopen--;
		if (put_packet(p))
			return -1;
	}
	return 0;
}

/* The calls of track t that ended by `at`, whatever their depth. */
static int end_slices_by(struct perfetto *p, size_t t, uint64_t at)
{
	struct track *k = &p->tracks[t];

	while (k->nopen && k->open[k->nopen - 1].end <= at) {
		size_t ev;

		event(p, t, k->open[k->nopen - 1].end);
		ev = kft_pb_open(&p->packet, PACKET_TRACK_EVENT);
		kft_pb_varint(&p->packet, EVENT_TYPE, TYPE_SLICE_END);
		kft_pb_close(&p->packet, ev);
		k->nopen--;
		if (put_packet(p))
			return -1;
	}
	return 0;
}

/* Track t's markers made before `before` (since the trace's base), each
 * an instant event named by its text, inside the calls then open. */
static int put_marks(struct perfetto *p, size_t t, uint64_t before)
{
	struct track *k = &p->tracks[t];
	uint64_t until = before > UINT64_MAX - p->x.base ? UINT64_MAX : before + p->x.base;
	const struct kft_mark *m;

	while ((m = mark_before(&k->marks, until))) {
		uint64_t at = m->ns > p->x.base ? m->ns - p->x.base : 0;
		char text[KFT_MARK_TEXT + 1];
		size_t ev;

		*kft_view_mark_text(text, m) = '\0';
		if (end_slices_by(p, t, at))
			return -1;
		event(p, t, at);
		ev = kft_pb_open(&p->packet, PACKET_TRACK_EVENT);
		kft_pb_varint(&p->packet, EVENT_TYPE, TYPE_INSTANT);
		kft_pb_string(&p->packet, EVENT_NAME, text);
		kft_pb_varint(&p->packet, EVENT_CATEGORY_IIDS, CATEGORY_USER);
		kft_pb_close(&p->packet, ev);
		if (put_packet(p))
			return -1;
	}
	return 0;
}

/* Track t's spans off the CPU and markers before `before`, in time order;
 * a span is a slice inside the calls then open (a thread ends no call
 * while off the CPU). */
static int put_spans(struct perfetto *p, size_t t, uint64_t before)
{
	struct track *k = &p->tracks[t];

	while (k->next_span < k->nspans) {
		const struct kft_offcpu *s = &k->spans[k->next_span];
		uint64_t from = s->from_ns > p->x.base ? s->from_ns - p->x.base : 0;
		uint64_t to = s->to_ns > p->x.base ? s->to_ns - p->x.base : 0;
		uint64_t iid = s->preempted ? IID_PREEMPTED : IID_SLEPT;
		unsigned int bit = s->preempted ? 2 : 1;
		size_t ev, interned, name;

		if (from >= before)
			break;
		if (put_marks(p, t, from))
			return -1;
		k->next_span++;
		if (s->to_ns <= p->x.base)
			continue;	/* before the run began */
		if (end_slices_by(p, t, from))
			return -1;
		if (k->nopen && to > k->open[k->nopen - 1].end)
			to = k->open[k->nopen - 1].end;
		event(p, t, from);
		if (!(k->span_named & bit)) {
			interned = kft_pb_open(&p->packet, PACKET_INTERNED_DATA);
			name = kft_pb_open(&p->packet, INTERNED_NAMES);
			kft_pb_varint(&p->packet, INTERNED_IID, iid);
			kft_pb_string(&p->packet, INTERNED_NAME,
				      s->preempted ? "off CPU: preempted" : "off CPU: slept");
			kft_pb_close(&p->packet, name);
			kft_pb_close(&p->packet, interned);
			k->span_named |= (uint8_t)bit;
		}
		ev = kft_pb_open(&p->packet, PACKET_TRACK_EVENT);
		kft_pb_varint(&p->packet, EVENT_TYPE, TYPE_SLICE_BEGIN);
		kft_pb_varint(&p->packet, EVENT_NAME_IID, iid);
		kft_pb_varint(&p->packet, EVENT_CATEGORY_IIDS, CATEGORY_SCHED);
		kft_pb_close(&p->packet, ev);
		if (put_packet(p))
			return -1;
		event(p, t, to);
		ev = kft_pb_open(&p->packet, PACKET_TRACK_EVENT);
		kft_pb_varint(&p->packet, EVENT_TYPE, TYPE_SLICE_END);
		kft_pb_close(&p->packet, ev);
		if (put_packet(p))
			return -1;
	}
	return put_marks(p, t, before);
}

/* Whether function f's name is yet to be interned on track t (and from
 * now on, it is). */
static int name_is_new(struct track *k, uint32_t f, bool *fresh)
{
	size_t byte = f / 8;

	if (byte >= k->nnamed) {
		size_t n = byte + 64;
		uint8_t *bigger = realloc(k->named, n);

		if (!bigger)
			return -1;
		memset(bigger + k->nnamed, 0, n - k->nnamed);
		k->named = bigger;
		k->nnamed = n;
	}
	*fresh = !(k->named[byte] & (1U << (f % 8)));
	k->named[byte] |= (uint8_t)(1U << (f % 8));
	return 0;
}

/* The call's saved arguments and return value as the slice's debug
 * annotations, the text the other views show. */
static void put_args(struct perfetto *p, const struct kft_call *c)
{
	struct kft_named_value v[KFT_ARGSPEC_ITEMS];
	struct kft_call_args a;
	int n;

	if (!kft_call_args(p->x.tr, c, &a))
		return;
	n = kft_call_args_named(&a, c->dur_ns >= 0, v, KFT_ARGSPEC_ITEMS);
	for (int i = 0; i < n; i++) {
		size_t note = kft_pb_open(&p->packet, EVENT_ANNOTATIONS);

		kft_pb_string(&p->packet, ANNOTATION_NAME, v[i].name);
		kft_pb_string(&p->packet, ANNOTATION_STRING, v[i].text);
		kft_pb_close(&p->packet, note);
	}
}

static int begin_slice(struct perfetto *p, const struct kft_call *c, uint32_t f)
{
	uint64_t at = kft_export_entry(&p->x, c), end = at + kft_export_duration(&p->x, c);
	struct track *k;
	size_t t, ev, interned, name, note;
	bool fresh;

	if (track_of(p, c, at, &t) || put_spans(p, t, at) || end_slices(p, t, at, c->depth))
		return -1;
	k = &p->tracks[t];
	if (k->nopen && end > k->open[k->nopen - 1].end)
		end = k->open[k->nopen - 1].end;	/* inside its parent, always */
	if (name_is_new(k, f, &fresh) ||
	    kft_grow((void **)&k->open, k->nopen, &k->capopen, sizeof(*k->open), 32))
		return -1;
	event(p, t, at);
	if (fresh) {
		interned = kft_pb_open(&p->packet, PACKET_INTERNED_DATA);
		name = kft_pb_open(&p->packet, INTERNED_NAMES);
		kft_pb_varint(&p->packet, INTERNED_IID, (uint64_t)f + 1);
		kft_pb_string(&p->packet, INTERNED_NAME, p->x.names.funcs[f].name);
		kft_pb_close(&p->packet, name);
		kft_pb_close(&p->packet, interned);
	}
	ev = kft_pb_open(&p->packet, PACKET_TRACK_EVENT);
	kft_pb_varint(&p->packet, EVENT_TYPE, TYPE_SLICE_BEGIN);
	kft_pb_varint(&p->packet, EVENT_NAME_IID, (uint64_t)f + 1);
	kft_pb_varint(&p->packet, EVENT_CATEGORY_IIDS,
		      (c->flags & KFT_REC_KERNEL) ? CATEGORY_KERNEL : CATEGORY_USER);
	if (c->dur_ns < 0) {
		note = kft_pb_open(&p->packet, EVENT_ANNOTATIONS);
		kft_pb_string(&p->packet, ANNOTATION_NAME,
			      c->flags & KFT_CALL_INHERITED ? "inherited" : "unfinished");
		kft_pb_varint(&p->packet, ANNOTATION_BOOL, 1);
		kft_pb_close(&p->packet, note);
	}
	if (p->x.tr->nargs)
		put_args(p, c);
	kft_pb_close(&p->packet, ev);
	k->open[k->nopen].end = end;
	k->open[k->nopen++].depth = c->depth;
	p->slices += !(c->flags & KFT_CALL_INHERITED);
	return put_packet(p);
}

static void perfetto_free(struct perfetto *p)
{
	for (size_t t = 0; t < p->ntracks; t++) {
		free(p->tracks[t].named);
		free(p->tracks[t].open);
	}
	free(p->tracks);
	kft_addrmap_free(&p->by_thread);
	kft_addrmap_free(&p->processes);
	kft_pb_free(&p->block);
	kft_pb_free(&p->packet);
	kft_pb_free(&p->wrapped);
	free(p->zbuf);
	kft_export_end(&p->x);
}

int kft_export_perfetto(FILE *out, const struct kft_trace *tr, struct kft_symbolizer *sz,
			const struct kft_export_opts *o, bool compress,
			struct kft_export_result *res, struct kft_error *err)
{
	struct perfetto p = { .out = out, .compress = compress };
	struct kft_calls *cs = NULL;
	struct kft_call c;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (kft_export_begin(&p.x, tr, sz, o, err) ||
	    !(cs = kft_calls_open_trees(tr, NULL, 0, err)))
		goto out;
	p.x.total = kft_calls_total(cs);
	while (kft_calls_next(cs, &c) > 0) {
		uint32_t f;

		kft_export_progress(&p.x);
		if (c.dur_ns == -2)
			continue;	/* a stack-watch row */
		/* a fork child's inherited call is drawn, counted with its parent */
		res->calls += !(c.flags & KFT_CALL_INHERITED);
		if (kft_export_func(&p.x, &c, &f) ||
		    (kft_export_kept(&p.x, &c, f) && begin_slice(&p, &c, f)))
			goto failed;
	}
	for (size_t t = 0; t < p.ntracks; t++)
		if (put_spans(&p, t, UINT64_MAX) || end_slices(&p, t, UINT64_MAX, 0))
			goto failed;
	if (flush_block(&p) || ferror(out))
		goto failed;
	res->written = p.slices;
	ret = 0;
	goto out;
failed:
	/* what fails but a write is memory (zlib's too) */
	kft_error_set(err, ferror(out) ? "write error" : "out of memory");
out:
	kft_calls_close(cs);
	perfetto_free(&p);
	return ret;
}
