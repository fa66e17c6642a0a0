/* SPDX-License-Identifier: BSD-3-Clause
 * Packet trace (`trace add port0-rx N`, `show trace [max N]`, `clear trace`),
 * as VPP users read it: per worker, `Packet N`, one time-stamped line per node
 * the packet passed (`00:00:01:234567: ip4-rewrite`) with its decision (next
 * node, the reason it was dropped under, the fields it rewrote). With no trace
 * on, every node of the worker graph runs its own process function (the trace
 * costs nothing); tracing does not change what leaves the box.
 */
#include <regex.h>

#include "pkt_util.h"

/* The registered process function of every node in the worker graph, as built. */
static rte_node_process_t orig_process[256];

static void
processes_save(void)
{
	struct rte_graph *g = vfwd.graph[0];
	rte_graph_off_t off;
	struct rte_node *node;
	rte_node_t count;

	rte_graph_foreach_node(count, off, g, node)
	{
		if (node->id < 256)
			orig_process[node->id] = node->process;
	}
}

/* How many nodes of the graph run a function other than their own. */
static unsigned
processes_swapped(void)
{
	struct rte_graph *g = vfwd.graph[0];
	rte_graph_off_t off;
	struct rte_node *node;
	rte_node_t count;
	unsigned n = 0;

	rte_graph_foreach_node(count, off, g, node)
	{
		n += node->id < 256 && node->process != orig_process[node->id];
	}
	return n;
}

static bool
matches(const char *text, const char *re)
{
	regex_t r;
	bool m;

	if (regcomp(&r, re, REG_EXTENDED | REG_NEWLINE) != 0)
		return false;
	m = regexec(&r, text, 0, NULL, 0) == 0;
	regfree(&r);
	return m;
}

/* The text of packet n (1-based) in a show trace output, or "" */
static char *
packet_text(const char *all, int n)
{
	char head[32], next[32];
	const char *s, *e;

	snprintf(head, sizeof(head), "Packet %d\n", n);
	snprintf(next, sizeof(next), "Packet %d\n", n + 1);
	s = strstr(all, head);
	if (s == NULL)
		return strdup("");
	e = strstr(s, next);
	return strndup(s, e ? (size_t)(e - s) : strlen(s));
}

/* Node names of the time-stamped lines, in order, joined by spaces. */
static void
node_path(const char *pkt, char *path, size_t len)
{
	regex_t r;
	regmatch_t m[2];
	const char *p = pkt;

	path[0] = '\0';
	regcomp(&r, "^[0-9]{2}:[0-9]{2}:[0-9]{2}:[0-9]{6}: ([a-z0-9-]+)$",
		REG_EXTENDED | REG_NEWLINE);
	while (regexec(&r, p, 2, m, 0) == 0) {
		size_t l = strlen(path);

		snprintf(path + l, len - l, "%s%.*s", l ? " " : "", (int)(m[1].rm_eo - m[1].rm_so),
			 p + m[1].rm_so);
		p += m[0].rm_eo;
	}
	regfree(&r);
}

static int
trace_off_runs_every_node_own_function(void)
{
	int ok = 1;

	CHECK(processes_swapped() == 0, "%u nodes swapped before any trace", processes_swapped());
	CHECK(env_cli("trace add port0-rx 2") == 0, "trace add");
	CHECK(processes_swapped() > 10, "only %u nodes traced", processes_swapped());
	CHECK(env_cli("clear trace") == 0, "clear trace");
	CHECK(processes_swapped() == 0, "%u nodes still swapped after clear trace",
	      processes_swapped());
	return ok;
}

static int
routed_dropped_and_untraced_packets_show_as_vpp_prints_them(void)
{
	struct pkt_spec routed = {.src = HOST0, .dst = NET48, .payload = 26};
	struct pkt_spec noroute = {.src = HOST0, .dst = RTE_IPV4(99, 0, 0, 1), .payload = 26};
	struct rte_mbuf *out, *out3;
	char *all, *p1, *p2, path[512];
	int ok = 1;

	CHECK(env_cli("trace add port0-rx 2") == 0, "trace add");
	out = forwarded(pkt_make(&routed), 1);
	CHECK(out != NULL, "traced packet not forwarded");
	CHECK(dropped_under(pkt_make(&noroute), "ip4-lookup", "no route"), "no route");
	out3 = forwarded(pkt_make(&routed), 1); /* the third is not traced (N = 2) */
	CHECK(out3 != NULL, "untraced packet not forwarded");
	if (out != NULL && out3 != NULL) {
		const uint8_t *f = rte_pktmbuf_mtod(out, const uint8_t *);

		CHECK(out->pkt_len == out3->pkt_len &&
			      memcmp(f, rte_pktmbuf_mtod(out3, void *), out->pkt_len) == 0,
		      "the traced packet left unlike the untraced one");
		CHECK(f[22] == 63 && memcmp(f, &nbr1_mac, 6) == 0, "not rewritten");
	}
	rte_pktmbuf_free(out);
	rte_pktmbuf_free(out3);

	all = cli_output("show trace");
	CHECK(strstr(all, "------------------- Start of thread 1 vfwd_wk_0 -------------------") ==
		      all,
	      "thread header:\n%s", all);
	CHECK(strstr(all, "Packet 1\n\n") && strstr(all, "Packet 2\n\n") &&
		      !strstr(all, "Packet 3"),
	      "want packets 1 and 2 only:\n%s", all);
	p1 = packet_text(all, 1);
	for (const char *l = p1; *l;) { /* the trace as the README shows it, on "# " lines */
		const char *e = strchr(l, '\n');
		int n = e ? (int)(e - l) : (int)strlen(l);

		printf("# %.*s\n", n, l);
		l += n + (e != NULL);
	}
	node_path(p1, path, sizeof(path));
	CHECK(strcmp(path, "port0-rx ethernet-input ip4-input ip4-lookup ip4-rewrite port1-output "
			   "port1-tx") == 0,
	      "packet 1 path '%s'", path);
	CHECK(matches(p1, "^  IP4: 02:00:00:00:00:02 -> [0-9a-f:]{17}$") &&
		      matches(p1, "^  UDP: 10.0.0.2 -> 48.0.0.1$") &&
		      matches(p1, "^    tos 0x00, ttl 64, length 46, checksum 0x[0-9a-f]{4}$"),
	      "packet 1 decode:\n%s", p1);
	CHECK(matches(p1, "ip4-rewrite\n  rewrite dst mac [0-9a-f:]{17} -> 02:00:00:00:01:02\n"
			  "  rewrite src mac 02:00:00:00:00:02 -> [0-9a-f:]{17}\n"
			  "  rewrite ttl 64 -> 63\n"
			  "  rewrite checksum 0x[0-9a-f]{4} -> 0x[0-9a-f]{4}\n"
			  "  next port1-output\n"),
	      "packet 1 rewrite:\n%s", p1);
	CHECK(matches(p1, "ethernet-input\n  next ip4-input\n"), "ethernet-input:\n%s", p1);
	CHECK(matches(p1, "port1-tx\n  left the graph here"), "tx:\n%s", p1);
	p2 = packet_text(all, 2);
	node_path(p2, path, sizeof(path));
	CHECK(strcmp(path, "port0-rx ethernet-input ip4-input ip4-lookup error-drop") == 0,
	      "packet 2 path '%s'", path);
	CHECK(matches(p2, "ip4-lookup\n  error ip4-lookup: no route\n  next error-drop\n") &&
		      matches(p2, "error-drop\n  rx:port0\n  ip4-lookup: no route\n"),
	      "packet 2 drop:\n%s", p2);
	free(p1);
	free(p2);
	free(all);
	all = cli_output("show trace max 1");
	CHECK(strstr(all, "Packet 1") && !strstr(all, "Packet 2"), "max 1:\n%s", all);
	free(all);
	CHECK(env_cli("clear trace") == 0, "clear trace");
	all = cli_output("show trace");
	CHECK(strstr(all, "No packets in trace buffer") != NULL, "after clear:\n%s", all);
	free(all);
	return ok;
}

static int
icmp_error_is_traced_from_the_expired_packet_to_its_reply(void)
{
	struct pkt_spec ttl1 = {.src = HOST0, .dst = NET48, .ttl = 1, .payload = 26};
	char *all, *p1, path[512];
	int ok = 1;

	CHECK(env_cli("set ip icmp-error enable") == 0, "icmp on");
	CHECK(env_cli("trace add port0-rx 1") == 0, "trace add");
	inject(pkt_make(&ttl1));
	walk();
	drain_free();
	all = cli_output("show trace");
	p1 = packet_text(all, 1);
	node_path(p1, path, sizeof(path));
	/* ip4-icmp-error turns the packet into the error and routes it back out of port0 */
	CHECK(strcmp(path, "port0-rx ethernet-input ip4-input ip4-lookup ip4-rewrite "
			   "ip4-icmp-error ip4-lookup ip4-rewrite port0-output port0-tx") == 0,
	      "path '%s'", path);
	CHECK(matches(p1,
		      "ip4-rewrite\n  counted ip4-rewrite: ip4 ttl <= 1\n  next ip4-icmp-error\n"),
	      "ttl:\n%s", p1);
	CHECK(matches(p1,
		      "ip4-icmp-error\n  new packet \\([0-9]+ bytes\\):\n.*\n  ICMP: 10.0.0.1 -> "
		      "10.0.0.2\n.*\n  ICMP type 11 code 0\n  counted ip4-icmp-error: time "
		      "exceeded "
		      "response sent\n  next ip4-lookup\n"),
	      "icmp error:\n%s", p1);
	free(p1);
	free(all);
	CHECK(env_cli("clear trace") == 0, "clear trace");
	CHECK(env_cli("set ip icmp-error disable") == 0, "icmp off");
	return ok;
}

static int
bad_trace_commands_are_refused_and_change_nothing(void)
{
	static const char *const bad[] = {
		"trace add ip4-lookup 5", "trace add port0-rx 0", "trace add port0-rx 5000",
		"trace add port0-rx x",	  "trace add port0-rx",	  "show trace max x",
		"clear trace now",
	};
	int ok = cli_all_refused(bad, RTE_DIM(bad));

	{
		char *o = cli_output("trace add nosuch-rx 1");

		CHECK(strstr(o, "one of: port0-rx port1-rx") != NULL, "names the inputs: %s", o);
		free(o);
	}
	CHECK(processes_swapped() == 0, "a refused trace add swapped %u nodes",
	      processes_swapped());
	return ok;
}

static const char *const cfg[] = {
	"ip route add 48.0.0.0/8 via 10.0.1.2 port1",
	"set ip neighbor port0 10.0.0.2 02:00:00:00:00:02",
	"set ip icmp-error disable",
};

static const struct graph_test tests[] = {
	GRAPH_TEST(trace_off_runs_every_node_own_function),
	GRAPH_TEST(routed_dropped_and_untraced_packets_show_as_vpp_prints_them),
	GRAPH_TEST(icmp_error_is_traced_from_the_expired_packet_to_its_reply),
	GRAPH_TEST(bad_trace_commands_are_refused_and_change_nothing),
};

int
main(void)
{
	const struct graph_env_conf conf = {.name = "trace-test",
					    .n_mbufs = 4096,
					    .n_workers = 1,
					    .before_cfg = processes_save,
					    .cfg = cfg,
					    .n_cfg = RTE_DIM(cfg)};

	return graph_test_main(&conf, tests, RTE_DIM(tests));
}
