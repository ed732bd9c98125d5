/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/* The e-switch's log type and its refusals: every rte_flow_error it fills
 * is logged there (DEBUG) with the message the caller gets.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include <rte_flow.h>
#include <rte_log.h>

#include "octonic_esw_internal.h"

RTE_LOG_REGISTER_SUFFIX(octonic_esw_logtype, flow, NOTICE);

int
octonic_esw_error(struct rte_flow_error *error, int code, enum rte_flow_error_type type,
		const void *cause, const char *fmt, ...)
{
	/* rte_flow_error keeps a pointer to the message: give it storage that
	 * outlives the call, one buffer per thread.
	 */
	static __thread char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	SW_LOG(DEBUG, "refused: %s", msg);
	return rte_flow_error_set(error, code, type, cause, msg);
}

/* The refusal of a call for a PF the e-switch does not have: -EINVAL */
int
octonic_esw_no_pf(struct rte_flow_error *error, uint16_t pf)
{
	return octonic_esw_error(error, EINVAL, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
		"PF %u does not exist", pf);
}
