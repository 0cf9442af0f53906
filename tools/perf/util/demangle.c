// SPDX-License-Identifier: GPL-2.0
/*
 * C++ symbol names, through the C++ runtime's own demangler; Rust's
 * through libiberty's, as Linux perf's names come from it.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <perf/types.h>
#include <libiberty/demangle.h>
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
		for (i = 0; i < ARRAY_SIZE(quals); i++) {
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

/* Does a name component spelled "operator..." start at @name[i]? */
static bool operator_at(const char *name, size_t i)
{
	if (strncmp(name + i, "operator", 8))
		return false;
	return i == 0 || name[i - 1] == ' ' || name[i - 1] == ':';
}

/*
 * Template functions demangle with their return type first ("void
 * ns::f<int>"); reports show the name alone.  Drop everything up to the
 * last space outside brackets.  An operator's name ("operator new",
 * "operator unsigned long") ends the name, so no space from there on
 * separates a return type.
 */
void demangle_strip_return_type(char *name)
{
	size_t i, cut = 0;
	int depth = 0;

	for (i = 0; name[i]; i++) {
		char c = name[i];

		if (depth == 0 && operator_at(name, i))
			break;
		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' || c == ')' || c == ']' || c == '}') &&
			 depth > 0)
			depth--;
		else if (c == ' ' && depth == 0)
			cut = i + 1;
	}
	if (cut)
		memmove(name, name + cut, strlen(name + cut) + 1);
}

/*
 * A function returning a pointer to a function or to a member demangles
 * inside out, "int (*ns::f<int>())()" or "int (A::*f<int>() const)()";
 * its name is the part inside the parentheses once the return type and
 * the outer parameter list are gone.
 */
static void unwrap_pointer_return(char *name)
{
	size_t len = strlen(name), i, start;
	int depth = 0, angle;

	while (len > 2 && name[0] == '(' && name[len - 1] == ')') {
		/* The '(' must match the final ')', as in "(*f())". */
		for (i = 0; i < len; i++) {
			if (name[i] == '(')
				depth++;
			else if (name[i] == ')' && --depth == 0)
				break;
		}
		if (i != len - 1)
			return;
		name[len - 1] = '\0';
		/*
		 * Skip "*", "&" or "klass::*" in front of the name, but not
		 * a '*' inside the name's template arguments.
		 */
		start = 1;
		angle = 0;
		for (i = 1; name[i] && name[i] != '('; i++) {
			if (name[i] == '<')
				angle++;
			else if (name[i] == '>' && angle > 0)
				angle--;
			else if ((name[i] == '*' || name[i] == '&') && !angle)
				start = i + 1;
		}
		memmove(name, name + start, strlen(name + start) + 1);
		demangle_strip_params(name);
		len = strlen(name);
	}
}

/*
 * GCC names clones of a function "<mangled>.<kind>[.<n>]", shown as
 * "f() [clone .isra.0]"; reports name the clone after its function.
 */
static void strip_clone_suffixes(char *name)
{
	static const char clone[] = " [clone ";
	size_t len = strlen(name);
	char *p;

	while (len && name[len - 1] == ']') {
		name[len - 1] = '\0';
		p = strrchr(name, '[');
		if (!p || p == name || strncmp(p - 1, clone, sizeof(clone) - 1)) {
			name[len - 1] = ']';
			return;
		}
		len = p - 1 - name;
		name[len] = '\0';
	}
}

/*
 * Reports name a symbol after the mangled name's longest leading part
 * that demangles: what follows a complete name, such as ".cold", ".llvm.N"
 * or the "_" that ends a reference temporary, does not keep a symbol from
 * being shown readable.
 */
static char *demangle_prefix(const char *name)
{
	size_t len = strlen(name);
	int status;
	char *buf, *out;

	buf = strdup(name);
	if (!buf)
		return NULL;
	while (len > 2) {
		buf[len] = '\0';
		status = -1;
		out = __cxa_demangle(buf, NULL, NULL, &status);
		if (!status && out)
			break;
		free(out);
		out = NULL;
		len--;
	}
	free(buf);
	return out;
}

char *demangle_cxx(const char *name)
{
	char *out;

	if (strncmp(name, "_Z", 2))
		return NULL;
	out = demangle_prefix(name);
	if (!out)
		return NULL;
	strip_clone_suffixes(out);
	/*
	 * Special names ("vtable for A", "virtual thunk to B::f(long)",
	 * "guard variable for f()::x", ...) keep their prefix and the full
	 * signature of the function they refer to, as Linux perf shows them.
	 */
	if (name[2] == 'T' || name[2] == 'G')
		return out;
	demangle_strip_params(out);
	demangle_strip_return_type(out);
	unwrap_pointer_return(out);
	return out;
}

/*
 * Rust's legacy names are C++ names whose last part is the hash
 * "17h<16 hex digits>E"; v0 names start with "_R".  libiberty shows
 * both without the hash, C++'s "$LT$"-style escapes decoded, and v0
 * generics and impls spelled as Rust spells them ("<m::Walker>::spin").
 */
char *demangle_rust(const char *name)
{
	if (strncmp(name, "_R", 2) && strncmp(name, "_ZN", 3))
		return NULL;
	return rust_demangle(name, DMGL_NO_OPTS);
}
