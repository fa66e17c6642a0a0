/* SPDX-License-Identifier: BSD-3-Clause */
/* tgen: shared types of the traffic generator (profiles, pacing, trial results, search). */
#ifndef TGEN_H
#define TGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#define TGEN_MAX_FRAME 9000
#define TGEN_MIN_FRAME 64
#define TGEN_FCS_LEN 4
#define TGEN_L1_OVERHEAD 20 /* preamble + SFD + inter-frame gap, bytes */
#define TGEN_SIG_MAGIC 0x7467u
#define TGEN_NDIR 2
#define TGEN_WARMUP_TAG 0xff /* trial tag of warm-up packets */

/* ---- profiles and packets (pkt.c) ---- */
enum tgen_profile_kind { TGEN_PROFILE_UDP, TGEN_PROFILE_IMIX, TGEN_PROFILE_UDP6 };

struct tgen_profile {
	enum tgen_profile_kind kind;
	uint16_t frame_size; /* udp: every frame; imix: 0 */
	uint32_t flows;	     /* addresses that vary, >= 1 */
	bool vary_dst;	     /* the destination varies instead of the source (CSIT ip4dst) */
	bool flow_rnd;	     /* each packet draws its flow at random (CSIT's rnd), not in turn */
	bool bidir;
	uint8_t src6[16], dst6[16]; /* udp6: direction 0's addresses (direction 1 swaps them) */
};

/* The addresses of one direction's stream. */
struct tgen_stream {
	uint8_t src_mac[6];
	uint8_t dst_mac[6];
	uint32_t src_ip; /* host order; the base when flows > 1 */
	uint32_t dst_ip;
	uint16_t sport;
	uint16_t dport;
	uint32_t flows;
	bool vary_dst;
	bool flow_rnd; /* the flow of packet seq is tgen_flow_of(s, seq) */
	uint8_t dir; /* 0: port0 -> port1, 1: port1 -> port0 */
	bool ip6;    /* udp6: IPv6 with src6/dst6 (flows vary their low 32 bits) */
	uint8_t src6[16], dst6[16];
};

/* The signature every test packet carries right after the UDP header (16 bytes). */
struct tgen_sig {
	uint16_t magic; /* TGEN_SIG_MAGIC, network order */
	uint8_t dir;
	uint8_t trial; /* low 8 bits of the trial index: late packets are told apart */
	uint32_t seq;
	uint64_t tsc;
} __attribute__((packed));

#define TGEN_HDR_LEN 42 /* Ethernet + IPv4 + UDP */
#define TGEN_HDR6_LEN 62 /* Ethernet + IPv6 + UDP */
/* udp6's smallest frame: Ethernet 14 + IPv6 40 + UDP 8 + signature 16 + FCS 4 */
#define TGEN_MIN_FRAME6 82
#define TGEN_IMIX_PERIOD 12

int tgen_profile_parse(const char *name, struct tgen_profile *p);
const char *tgen_profile_name(const struct tgen_profile *p);
/* Frame size (with FCS) of packet number seq of the profile. */
uint16_t tgen_profile_frame_size(const struct tgen_profile *p, uint64_t seq);
/* Mean frame size (with FCS), for bps <-> pps. */
double tgen_profile_mean_frame(const struct tgen_profile *p);
uint16_t tgen_profile_max_frame(const struct tgen_profile *p);
/* One's complement sum (folded to 16 bits) of a 20-byte IPv4 header: the checksum is its
 * complement, and a header with a correct checksum sums to 0xffff (RFC 1071). */
uint16_t tgen_ip4_sum(const uint8_t *h);
/* Writes headers and signature of packet seq into buf (frame_size - FCS bytes long). */
/* The flow (0..flows-1) of packet seq: in turn, or drawn at random with --flow-order rnd. */
uint32_t tgen_flow_of(const struct tgen_stream *s, uint32_t seq);
void tgen_pkt_build(uint8_t *buf, const struct tgen_stream *s, uint16_t frame_size, uint32_t seq,
		    uint8_t trial, uint64_t tsc);
/* The fast path: headers prebuilt once per stream and frame size; per packet a copy, the
 * varying address and checksum when flows > 1, and the signature. Same bytes as
 * tgen_pkt_build. */
struct tgen_tmpl {
	uint8_t hdr[TGEN_HDR6_LEN];
	uint32_t ck_base; /* IPv4: one's complement sum of the IPv4 header but addresses and
			   * checksum; IPv6: of the UDP checksum's pseudo-header, UDP header and
			   * padding, but the varying low 32 bits of an address and the signature */
	uint16_t frame_size;
	uint16_t hdr_len; /* TGEN_HDR_LEN or TGEN_HDR6_LEN */
};

void tgen_tmpl_init(struct tgen_tmpl *t, const struct tgen_stream *s, uint16_t frame_size);
void tgen_tmpl_build(uint8_t *buf, const struct tgen_tmpl *t, const struct tgen_stream *s,
		     uint32_t seq, uint8_t trial, uint64_t tsc);
/* Returns the signature of a tgen packet or NULL when buf is not one of ours. */
const struct tgen_sig *tgen_pkt_parse(const uint8_t *buf, uint32_t len);
int tgen_mac_parse(const char *s, uint8_t mac[6]);
int tgen_ip_parse(const char *s, uint32_t *ip);
int tgen_ip6_parse(const char *s, uint8_t ip6[16]);
/* The UDP checksum of an IPv6 frame of len bytes (no FCS) at buf, as a receiver checks it:
 * 0 when the frame's checksum is right (tests). */
uint16_t tgen_udp6_verify(const uint8_t *buf, uint32_t len);
/* ARP (pkt.c): build a request/reply; parse returns 1 for request, 2 for reply, 0 else. */
uint32_t tgen_arp_build(uint8_t *buf, int op, const uint8_t smac[6], uint32_t sip,
			const uint8_t tmac[6], uint32_t tip);
int tgen_arp_parse(const uint8_t *buf, uint32_t len, uint8_t smac[6], uint32_t *sip, uint32_t *tip);

/* ---- rates (rate.c) ---- */
struct tgen_rate {
	enum { TGEN_RATE_PPS, TGEN_RATE_BPS, TGEN_RATE_PCT, TGEN_RATE_MAX } unit;
	double value;
};

int tgen_rate_parse(const char *s, struct tgen_rate *r);
/* Packets per second for a rate, the profile's mean frame and the link speed; -errno when
 * the rate is impossible (zero, above line rate). */
int tgen_rate_to_pps(const struct tgen_rate *r, double mean_frame, uint64_t link_bps, double *pps);
double tgen_line_rate_pps(double mean_frame, uint64_t link_bps);
int tgen_bps_parse(const char *s, uint64_t *bps);

/* TSC pacer: packets due by time now, in small evenly spaced bursts. */
struct tgen_pacer {
	uint64_t start_tsc;
	double tsc_per_pkt; /* 0: unpaced */
	uint64_t sent;
	uint32_t burst;
	uint64_t max_lag_pkts; /* a pacer that falls further behind skips ahead */
	uint64_t skipped;
};

void tgen_pacer_init(struct tgen_pacer *p, double pps, uint64_t tsc_hz, uint64_t now);
/* How many packets to send now (0..burst). */
uint32_t tgen_pacer_due(struct tgen_pacer *p, uint64_t now);
uint32_t tgen_burst_for_rate(double pps);
/* Sets the pacer's burst (and the lag it tolerates before skipping: 1 ms and 4 bursts). */
void tgen_pacer_set_burst(struct tgen_pacer *p, double pps, uint32_t burst);
/* Sleeping pacing tolerates more lag (a late wake-up is caught up, a burst at a time). */
void tgen_pacer_set_max_lag(struct tgen_pacer *p, double pps, double lag_s);
/* The TSC at which the pacer's next whole burst is due (UINT64_MAX: unpaced). */
uint64_t tgen_pacer_next(const struct tgen_pacer *p);
/* At the end of a trial (TSC `end`; the transmit loop's last pass at `last`): how many of the
 * schedule's remaining slots to send now. A whole burst or more that the pacer was behind at
 * its last pass is the generator's lag and is skipped; the partial burst it held back and the
 * slots that fell due between its last pass and the end are sent, unless they are more than
 * the pacer catches up (the host kept tgen away), which are skipped as in _due. */
uint64_t tgen_pacer_end(struct tgen_pacer *p, uint64_t last, uint64_t end);
/* The schedule's slots in elapsed TSC ticks (a slot due at the very end counts). */
uint64_t tgen_pacer_slots(const struct tgen_pacer *p, uint64_t elapsed);

/* ---- pacing that yields (idle.c) ---- */
enum tgen_pacing { TGEN_PACING_AUTO, TGEN_PACING_BUSY, TGEN_PACING_SLEEP };
#define TGEN_SLEEP_GAP_NS 50000	  /* sleeping pacing: bursts at least 50 us apart */
#define TGEN_SLEEP_MIN_NS 5000	  /* never sleep for less: spin instead */
#define TGEN_RX_MIN_NS 20000	  /* adaptive receive: poll 20 us after packets came ... */
#define TGEN_RX_MAX_NS 100000	  /* ... doubling to 100 us while none do */
#define TGEN_SLEEP_MAX_LAG_S 0.01 /* a sleeping pacer woken later than this skips */

struct tgen_idle {
	bool sleep;
	uint64_t tsc_hz;
	uint64_t min_sleep, rx_min, rx_max, rx_gap, rx_next;
	uint64_t sleeps, slept_ns;
};

int tgen_pacing_parse(const char *s, enum tgen_pacing *m);
const char *tgen_pacing_name(bool sleep);
/* Whether pacing m sleeps at pps_per_dir (auto: when the busy pacer's bursts are at least
 * TGEN_SLEEP_GAP_NS apart; unpaced never sleeps). */
bool tgen_pacing_sleeps(enum tgen_pacing m, double pps_per_dir);
uint32_t tgen_burst_for_pacing(double pps, bool sleep);
void tgen_idle_init(struct tgen_idle *w, bool sleep, uint64_t tsc_hz, uint64_t now);
/* After a receive poll that got n packets: when to poll next. */
void tgen_idle_rx(struct tgen_idle *w, uint64_t now, unsigned n);
/* The TSC to sleep until (the earlier of deadline and the next receive poll), or 0 when it
 * is too close (or the pacing does not sleep). */
uint64_t tgen_idle_wake(const struct tgen_idle *w, uint64_t now, uint64_t deadline);
/* Sleeps until wake_tsc (clock_nanosleep on an absolute CLOCK_MONOTONIC time). */
void tgen_idle_sleep_until(struct tgen_idle *w, uint64_t wake_tsc, uint64_t now_tsc);

/* ---- CPU time per thread (cpu.c) ---- */
#define TGEN_MAX_THREADS 16
struct tgen_thread_cpu {
	unsigned tid;
	char name[20];
	uint64_t cpu_ns;
};
unsigned tgen_cpu_sample(struct tgen_thread_cpu *t, unsigned max);
void tgen_cpu_delta(struct tgen_thread_cpu *after, unsigned n, const struct tgen_thread_cpu *before,
		    unsigned nb);

/* ---- receive statistics (stats.c) ---- */
#define TGEN_LAT_SUB 32
#define TGEN_LAT_BUCKETS (64 * TGEN_LAT_SUB)

struct tgen_lat {
	uint64_t count, min, max;
	double sum;
	uint64_t hist[TGEN_LAT_BUCKETS];
};

struct tgen_seq {
	uint64_t *bits;
	uint64_t nbits;
	uint64_t max_seen;
	bool any;
	uint64_t received, unique, duplicates, reordered, out_of_range;
};

/* An HDR histogram (hdr.c), HdrHistogram's layout and V2 compressed base64 encoding. */
struct tgen_hdr {
	uint64_t *counts;
	uint32_t len;
	uint64_t total, min, max, clamped; /* clamped: values above highest, counted there */
	double sum;
	int sig, unit_mag, sub_count_mag, sub_half_mag, buckets, lzc_base;
	uint32_t sub_count, sub_half;
	uint64_t sub_mask;
	int64_t lowest, highest;
};

#define TGEN_HDR_SIG 3			 /* significant digits, as CSIT's TRex histograms */
#define TGEN_HDR_HIGHEST_US 3600000000ll /* one hour, in microseconds */
/* Latency at load: the percentiles (log scale toward 100 %) written beside each histogram. */
#define TGEN_LAT_CURVE_N 9
extern const double tgen_lat_curve_pct[TGEN_LAT_CURVE_N];

int tgen_hdr_init(struct tgen_hdr *h, int64_t highest, int sig);
void tgen_hdr_free(struct tgen_hdr *h);
void tgen_hdr_reset(struct tgen_hdr *h);
void tgen_hdr_record(struct tgen_hdr *h, uint64_t v);
/* HdrHistogram's value at percentile pct (0..100): the top of the bucket that holds it. */
uint64_t tgen_hdr_value_at(const struct tgen_hdr *h, double pct);
/* The V2 compressed encoding, base64 (malloc'd; NULL without memory). */
char *tgen_hdr_encode(const struct tgen_hdr *h);

void tgen_lat_reset(struct tgen_lat *l);
void tgen_lat_add(struct tgen_lat *l, uint64_t ns);
uint64_t tgen_lat_percentile(const struct tgen_lat *l, double q);
int tgen_seq_init(struct tgen_seq *s, uint64_t nbits);
void tgen_seq_reset(struct tgen_seq *s);
void tgen_seq_free(struct tgen_seq *s);
void tgen_seq_add(struct tgen_seq *s, uint32_t seq);

/* ---- one trial's result ---- */
/* One direction's latency in microseconds, as CSIT's latency fields hold it. */
struct tgen_dir_lat {
	uint64_t count, min_us, avg_us, max_us, clamped;
	uint64_t curve_us[TGEN_LAT_CURVE_N]; /* at tgen_lat_curve_pct */
	char *hdrh; /* base64 V2 compressed HdrHistogram; NULL: no packet */
};

struct tgen_result {
	uint32_t index;
	const char *phase;
	double rate_pps_requested;
	double duration_s;
	uint64_t tx_packets, tx_bytes, rx_packets, rx_bytes, loss_packets;
	uint64_t dir_tx[TGEN_NDIR], dir_rx[TGEN_NDIR]; /* per direction (port0->1, port1->0) */
	double loss_ratio;
	double tx_pps, rx_pps, tx_bps, rx_bps;
	uint64_t reordered, duplicates, tx_refused, late_packets, rx_other, pacer_skipped;
	uint64_t lat_min, lat_avg, lat_max, lat_p50, lat_p90, lat_p99, lat_p999;
	bool pacing_sleep;	   /* the pacer slept between bursts */
	uint32_t burst;		   /* packets per burst of each direction */
	uint64_t sleeps, slept_ns; /* sleeps of the trial loop and their time */
	unsigned n_threads;	   /* CPU time of each thread during the trial */
	struct tgen_thread_cpu threads[TGEN_MAX_THREADS];
	double rate_pps_offered; /* measured: tx_packets / duration_s */
	bool generator_limited;	 /* offered fell short of requested beyond the tolerance */
	struct tgen_dir_lat dlat[TGEN_NDIR]; /* latency per direction (microseconds) */
};

/* Offered-rate check (rate.c): true when offered_pps falls short of requested_pps by more
 * than tol (a ratio), beyond slack_pkts packets over the trial (the pacer sends whole bursts,
 * so a trial can end up to one burst per direction short). Unpaced (requested 0): false. */
bool tgen_rate_short(double requested_pps, double offered_pps, double duration_s, double tol,
		     double slack_pkts);

void tgen_dir_lat_fill(struct tgen_dir_lat *l, const struct tgen_hdr *h);
void tgen_dir_lat_free(struct tgen_dir_lat *l);

/* ---- NDR/PDR search (search.c), free of DPDK so the unit tests drive it ---- */
struct tgen_bound {
	double lo, hi; /* lo: highest passing rate (0: none); hi: lowest failing (0: none) */
	double lo_dur, hi_dur;
	uint32_t downs; /* failing trials in a row with no passing one */
	/* a rate the DUT passed but tgen could not offer (a generator-limited passing trial):
	 * the search stops climbing there (0: none) */
	double gen_r, gen_dur;
	uint32_t gen_tries; /* generator-limited passing trials since gen_r was last offered */
};

struct tgen_search {
	double min_pps, max_pps, width, pdr_loss;
	double trial_s, final_s;
	uint32_t max_trials;
	uint32_t trials;
	struct tgen_bound b[2]; /* 0: NDR, 1: PDR */
	double last_rx_pps;
	bool started;
};

struct tgen_search_step {
	double rate_pps;
	double duration_s;
	const char *phase;
};

/* What one trial tells the search. */
struct tgen_search_trial {
	double requested_pps;
	double offered_pps; /* tx packets / trial time */
	double duration_s;
	double loss_ratio;
	bool generator_limited;
};

/* What ended a criterion's search: a DUT that lost packets above the result, a generator
 * that could not offer more, or the top of the search range with nothing lost. */
enum tgen_limit { TGEN_LIMIT_DUT, TGEN_LIMIT_GENERATOR, TGEN_LIMIT_MAX_RATE };

void tgen_search_init(struct tgen_search *s, double min_pps, double max_pps, double width,
		      double pdr_loss, double trial_s, double final_s, uint32_t max_trials);
/* 1: run the trial in *step; 0: search done. */
int tgen_search_next(struct tgen_search *s, struct tgen_search_step *step);
/* A trial that passes counts at its requested rate, or at its offered rate when tgen fell
 * short (generator_limited); a failing trial counts at its requested rate (the DUT did not
 * forward that schedule). */
void tgen_search_record(struct tgen_search *s, const struct tgen_search_trial *t);
/* The rate a passing trial counts at. */
double tgen_search_pass_rate(const struct tgen_search_trial *t);
/* Result for criterion k (0 NDR, 1 PDR): rate, or 0 with *below true; *limit says what
 * bounded it. */
double tgen_search_result(const struct tgen_search *s, int k, bool *below, enum tgen_limit *limit);
const char *tgen_limit_name(enum tgen_limit l);

/* ---- MLRsearch semantics (mlrsearch.c), free of DPDK too ---- */
struct tgen_mlr_params {
	double min_pps, max_pps;
	double pdr_loss;     /* PDR's goal loss ratio (NDR's is 0) */
	double width;	     /* relative, of the final goals (preceding ones: 4x) */
	double trial_s;	     /* every trial's duration (MLRsearch's final trial duration) */
	double duration_sum; /* goal duration sum per load */
	double exceed_ratio; /* share of the duration sum that may be bad at a lower bound */
	double warmup_s;     /* the discarded warm-up trial at max load (0: trial_s; < 0: none) */
	uint32_t max_trials;
};

struct tgen_mlr_trial {
	double load; /* the load asked for */
	double offered, duration_s, loss_ratio, fwd_pps;
	bool limited; /* tgen offered less than the load (generator_limited) */
};

struct tgen_mlr {
	struct tgen_mlr_params p;
	double pdr_loss;
	struct tgen_mlr_trial *t;
	uint32_t n;
	bool warmed;
	double asked; /* the load of the last step */
};

struct tgen_mlr_result {
	double lower_pps, upper_pps; /* the relevant bounds (0: none) */
	double conditional_pps;	     /* conditional throughput at the lower bound */
	uint32_t lower_trials;	     /* trials measured at the lower bound */
	double offered_pps;	     /* the lowest rate its good trials offered (<= lower_pps) */
	bool gen_short;		     /* one of them was generator-limited */
	bool below;
	enum tgen_limit limit;
};

int tgen_mlr_init(struct tgen_mlr *m, const struct tgen_mlr_params *p);
void tgen_mlr_free(struct tgen_mlr *m);
/* 1: run the trial in *step (phase "warmup" first, then "search" for the preceding targets
 * and "final"); 0: every goal is met. */
int tgen_mlr_next(struct tgen_mlr *m, struct tgen_search_step *step);
/* Records the trial just run (the warm-up one is discarded). */
void tgen_mlr_record(struct tgen_mlr *m, const struct tgen_search_trial *t);
/* The final goal k (0 NDR, 1 PDR). */
void tgen_mlr_result(const struct tgen_mlr *m, int k, struct tgen_mlr_result *res);

#endif
