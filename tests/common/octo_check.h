/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTO_CHECK_H
#define OCTO_CHECK_H

/*
 * The EAL tests' assertion.  A failed CHECK says where and why and the test
 * goes on, so that one run of a scenario reports every behaviour it found
 * broken; main() turns the count into the exit status.  (cmocka's asserts
 * end the test at the first failure and need its runner, which does not fit
 * programs that own EAL and several lcores.)  The count is the octo_test
 * library's, so that its helpers check too.  The message, printf-style,
 * may be left out.
 */

#include <stdio.h>

/* CHECKs failed so far in this process */
extern int octo_failures;

/*
 * The end of a test program: "<@p what>: ok|FAILED (<n> failure(s))" on
 * stderr; the exit status, 0 when every CHECK held, else 1.
 */
int octo_check_verdict(const char *what);

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		octo_failures++; \
		fprintf(stderr, "FAIL %s:%d: %s:", __FILE__, __LINE__, #cond); \
		fprintf(stderr, " " __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

/* A CHECK whose failure leaves nothing for the rest of the function to test. */
#define REQUIRE(cond, ...) do { \
	if (!(cond)) { \
		CHECK(cond, __VA_ARGS__); \
		return; \
	} \
} while (0)

/* REQUIRE in a function that returns a value: @p ret on failure. */
#define REQUIRE_OR(ret, cond, ...) do { \
	if (!(cond)) { \
		CHECK(cond, __VA_ARGS__); \
		return ret; \
	} \
} while (0)

#endif /* OCTO_CHECK_H */
