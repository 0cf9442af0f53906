/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_UTIL_DEMANGLE_H
#define __PERF_UTIL_DEMANGLE_H

#include <stddef.h>

/*
 * The readable name of a C++ (Itanium ABI) symbol as reports show it:
 * a function without its parameter list, return type or clone suffix
 * ("ns::klass::method"), a special name in full ("virtual thunk to
 * B::f(long)", "vtable for A").  Returns a malloc'ed string, or NULL when
 * @name is not a mangled name.
 */
char *demangle_cxx(const char *name);

/*
 * The readable name of a Rust symbol (legacy or v0 mangling), as Linux
 * perf shows it; a malloc'ed string, or NULL when @name is not one.
 */
char *demangle_rust(const char *name);

/* Cut "(params) const" off a demangled name, in place. */
void demangle_strip_params(char *name);

/* Cut a template function's return type off, in place. */
void demangle_strip_return_type(char *name);

#endif /* __PERF_UTIL_DEMANGLE_H */
