// SPDX-License-Identifier: GPL-2.0-only
#include "plan-notes.h"

void kft_plan_note(FILE *notes, const struct kft_patch_plan *plan, const char *name, bool lib,
		   const char *when, bool report)
{
	if (!plan->nfuncs && !plan->nskips && plan->nunhooked) {
		fprintf(notes, "kft: note: %s %s the filter logs none of its functions: nothing "
			"of it is patched\n", name, lib ? "(--lib):" : "is not instrumented:");
		return;
	}
	if (!plan->nfuncs && !plan->nskips) {
		fprintf(notes, "kft: note: %s %s names none of its functions (stripped): nothing "
			"of it is traced%s\n", name, lib ? "(--lib)" : "is not instrumented and",
			lib ? "" : ", only the instrumented programs it starts");
		return;
	}
	fprintf(notes, "kft: note: %s %s %zu of %s %zu functions%s are patched %s", name,
		lib ? "(--lib):" : "is not instrumented:", plan->nfuncs,
		plan->nunhooked ? "the" : "its", plan->nfuncs + plan->nskips - plan->nparts,
		plan->nunhooked ? " the filter logs" : "", when);
	if (plan->nparts)
		fprintf(notes, " (%zu %s not counted)", plan->nparts,
			plan->nparts > 1 ? "pieces of the C runtime and cold parts"
					 : "piece of the C runtime or cold part");
	/* (the functions left out first, then what is none of them) */
	if (plan->nskips > plan->nparts && !report)
		fprintf(notes, " (--dynamic-report says why not the others)");
	fputc('\n', notes);
	for (int parts = 0; report && parts < 2; parts++) {
		size_t n = parts ? plan->nparts : plan->nskips - plan->nparts;

		if (n)
			fprintf(notes, "kft:   %s (%zu):\n", parts ? "not counted, none of its "
				"functions" : "left as they are", n);
		for (size_t i = 0; i < plan->nskips; i++)
			if (plan->skips[i].part == parts)
				fprintf(notes, "kft:   %s (%#llx): %s\n", plan->skips[i].name,
					(unsigned long long)plan->skips[i].addr,
					plan->skips[i].why);
	}
}

void kft_plan_notes(FILE *notes, const struct kft_patch_plans *plans, const char *name,
		    const struct kft_lib_list *libs, const char *when, bool report)
{
	for (size_t i = 0; i < plans->n; i++) {
		bool lib = i || !plans->program;

		kft_plan_note(notes, &plans->v[i], lib ? libs->v[i - plans->program].name : name, lib,
			      when, report);
	}
}

