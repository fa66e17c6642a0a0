/* SPDX-License-Identifier: BSD-3-Clause
 * Packet trace (trace.c) and pcap capture (cli_pcap.c).
 */
#ifndef VFWD_TRACE_H
#define VFWD_TRACE_H

#include "defs.h"

/* ---- packet trace (trace.c) ---- */
void trace_cli_register(void);

#endif /* VFWD_TRACE_H */
