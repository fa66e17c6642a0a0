/* SPDX-License-Identifier: BSD-3-Clause
 * vfwd internals (not installed): every subsystem's header, for the tests and
 * the fuzzers. The files of libvfwd include the headers they use instead.
 */
#ifndef VFWD_INT_H
#define VFWD_INT_H

#include "defs.h"
#include "conf.h"
#include "state.h"
#include "port.h"
#include "error.h"
#include "trace.h"
#include "edge.h"
#include "graph.h"
#include "feature.h"
#include "nbr.h"
#include "fib.h"
#include "fib6.h"
#include "cli.h"
#include "runtime.h"
#include "plugins.h"
#include "startup.h"
#include "icmp_error.h"

#endif /* VFWD_INT_H */
