// SPDX-License-Identifier: GPL-2.0-only
/* The config language: any text is parsed, or refused with an error that
 * names its line; what parses prints back and parses again the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kft_config cfg, again;
	struct kft_error err;
	char *text, *text2;

	if (kft_config_parse(&cfg, (const char *)data, size, "fuzz.conf", &err)) {
		if (strncmp(err.msg, "fuzz.conf", 9))
			abort();	/* an error names where */
		return 0;
	}
	text = kft_config_format(&cfg);
	if (text) {
		/* the printed form is a config that means the same */
		if (kft_config_parse(&again, text, strlen(text), "printed", &err)) {
			fprintf(stderr, "printed:\n%s\nrefused: %s\n", text, err.msg);
			abort();
		}
		text2 = kft_config_format(&again);
		if (!text2 || strcmp(text, text2)) {
			fprintf(stderr, "printed:\n%s\nthen:\n%s\n", text, text2 ? text2 : "");
			abort();
		}
		free(text2);
		kft_config_release(&again);
		free(text);
	}
	kft_config_release(&cfg);
	return 0;
}
