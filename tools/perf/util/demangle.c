// SPDX-License-Identifier: GPL-2.0
/*
 * C++ symbol names, through the C++ runtime's own demangler.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "demangle.h"

/* The C++ ABI's demangler, exported with C linkage by libstdc++. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

static bool ends_with(const char *s, size_t len, const char *tail)
{
	size_t n = strlen(tail);

	return len >= n && !memcmp(s + len - n, tail, n);
}

/* Drop trailing qualifiers of a member function: " const", "&", ... */
static size_t skip_qualifiers(const char *s, size_t len)
{
	static const char * const quals[] = {
		" const", " volatile", " &&", " &", " noexcept", " transaction_safe",
	};
	bool again = true;
	size_t i;

	while (again) {
		again = false;
		for (i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
			if (ends_with(s, len, quals[i])) {
				len -= strlen(quals[i]);
				again = true;
			}
		}
	}
	return len;
}

void demangle_strip_params(char *name)
{
	size_t len = skip_qualifiers(name, strlen(name));
	int depth = 0;

	if (!len || name[len - 1] != ')')
		return;
	/* Walk back to the '(' that opens the final parameter list. */
	while (len--) {
		if (name[len] == ')')
			depth++;
		else if (name[len] == '(' && --depth == 0)
			break;
	}
	if (depth == 0 && len > 0 && len != (size_t)-1)
		name[len] = '\0';
}

char *demangle_cxx(const char *name)
{
	int status = -1;
	char *out;

	if (strncmp(name, "_Z", 2))
		return NULL;
	out = __cxa_demangle(name, NULL, NULL, &status);
	if (status || !out) {
		free(out);
		return NULL;
	}
	demangle_strip_params(out);
	return out;
}
