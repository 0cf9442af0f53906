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

/* Is the space at @name[i] the one inside an "operator new"-like name? */
static bool operator_space(const char *name, size_t i)
{
	return i >= 8 && !strncmp(name + i - 8, "operator", 8);
}

/*
 * Template functions demangle with their return type first ("void
 * ns::f<int>"); reports show the name alone.  Drop everything up to the
 * last space outside brackets, but keep "operator new" whole.
 */
void demangle_strip_return_type(char *name)
{
	size_t i, cut = 0;
	int depth = 0;

	for (i = 0; name[i]; i++) {
		char c = name[i];

		if (c == '<' || c == '(' || c == '[')
			depth++;
		else if ((c == '>' || c == ')' || c == ']') && depth > 0)
			depth--;
		else if (c == ' ' && depth == 0 && !operator_space(name, i))
			cut = i + 1;
	}
	if (cut)
		memmove(name, name + cut, strlen(name + cut) + 1);
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
	demangle_strip_return_type(out);
	return out;
}
