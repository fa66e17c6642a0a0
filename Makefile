# fwdlab — top-level entry points. Each folder owns its own Makefile; this file only
# delegates. `make help` lists the targets.
SHELL := /bin/bash
TOP := $(CURDIR)
VARIANT ?= default
# TG=trex: the TG VM carries TRex (images/out/tg-trex) and the lab's verbs use it
# (`make images TG=trex`, `make lab TG=trex` = LAB_ARGS="--generator trex").
TG ?= tgen
ifeq ($(TG),trex)
override LAB_ARGS += --generator trex
endif
# DUT=vpp: the DUT VM carries FD.io VPP in vfwd's place (images/out/dut-vpp, `make images
# DUT=vpp`; `make lab DUT=vpp` = LAB_ARGS="--forwarder vpp"; peers/README.md "VPP in the DUT VM").
DUT ?= vfwd
ifeq ($(DUT),vpp)
override LAB_ARGS += --forwarder vpp
endif
export TOP VARIANT
# Parallel jobs of the C builds (make forwarder, make tgen): one per CPU.
JOBS ?= $(shell nproc)

# Test suites `make test` runs (a folder joins by having a `check` target): fast unit tests
# first, the host topology's tests next, the VM tests last (tests/lanes.sh).
SUITES ?= forwarder forwarder/plugins/example-rs tgen lab/fwdstat peers trex lab topologies images tests
RESULTS := $(TOP)/build/test-results.tsv
# Every target installs the Debian packages its folders list (only what is missing), so
# each works on a fresh machine: `$(call deps,FOLDER...)`.
deps = @$(TOP)/scripts/install-deps $(1)

.PHONY: help lab lab-down test test-all forwarder plugins tgen images images-verify images-lock images-update bench \
	bench-tgen bench-peers relocs swap dump deps format lint clean

help:
	@echo "make lab            boot the b2b lab (TG + DUT VMs) and run the reference NDR benchmark"
	@echo "make lab-down       remove everything make lab created"
	@echo "make test           what CI runs: the build phase, then every suite (unit first, VMs last)"
	@echo "make test-all       make test, then long fuzzing, fwdstat under ASan, the 200k/2M-route suites, scratch image rebuilds"
	@echo "lab/fwdlab cache list|verify|clean   the build cache (TRex, VPP, images, DPDK examples, .debs)"
	@echo "make forwarder      build vfwd, vfwdctl, libvfwd.so, plugins into build/vfwd/\$$VARIANT"
	@echo "make tgen           build the traffic generator into build/tgen"
	@echo "make images         build the DUT and TG VM images into images/out (exactly images/*/packages.lock)"
	@echo "                    TG=trex: the TG image with TRex too (images/out/tg-trex)"
	@echo "make lab TG=trex    the b2b lab with TRex as the generator (LAB_ARGS=--generator trex)"
	@echo "make lab DUT=vpp    the b2b lab with VPP in the DUT VM (LAB_ARGS=--forwarder vpp)"
	@echo "make images-lock    write images/*/packages.lock for the recipes (keeps locked versions)"
	@echo "make images-update  re-resolve the locks to the archive's newest versions, print the changes"
	@echo "make bench          forwarder benchmark against DPDK peers (not a test)"
	@echo "make deps           install the Debian packages every folder lists"

deps:
	@scripts/install-deps

forwarder:
	$(call deps,forwarder)
	$(MAKE) -C forwarder -j$(JOBS) VARIANT=$(VARIANT) all
	$(MAKE) -C forwarder VARIANT=$(VARIANT) plugins

plugins:
	$(call deps,forwarder forwarder/plugins/example-rs)
	$(MAKE) -C forwarder VARIANT=$(VARIANT) plugins

relocs:
	$(call deps,forwarder)
	$(MAKE) -C forwarder relocs
	$(MAKE) -C peers relocs

tgen:
	$(call deps,tgen)
	$(MAKE) -C tgen -j$(JOBS)

# The DUT and TG images build side by side (separate work folders; the .deb cache is
# written by atomic renames): 190 s instead of 249 s on an idle 2-core host (README).
IMAGES_JOBS ?= 2
images: forwarder tgen
	$(call deps,images provisioning)
	$(MAKE) -C images -j$(IMAGES_JOBS) $(if $(filter trex,$(TG)),all tg-trex)

images-verify: forwarder tgen
	$(call deps,images provisioning)
	$(MAKE) -C images verify

images-lock: forwarder tgen
	$(MAKE) -C images lock

images-update: forwarder tgen
	$(MAKE) -C images update

bench: forwarder
	$(call deps,forwarder forwarder/plugins/example-rs)
	$(MAKE) -C forwarder bench
	$(MAKE) -C forwarder/plugins/example-rs bench

bench-tgen: forwarder tgen
	$(call deps,tgen forwarder)
	$(MAKE) -C tgen bench
	@if trex/build.sh --print >/dev/null 2>&1; then $(MAKE) -C trex bench; \
	else echo "bench-tgen: no TRex build (make -C trex build): TRex left out"; fi

# Every DUT backend side by side (peers/bench: it builds the DPDK examples and pcaptool, reserves
# 2 MiB hugepages and gives them back); BENCH_ARGS="--gen pcap --repeat 1" for a short run.
bench-peers: forwarder tgen
	$(call deps,peers)
	$(MAKE) -C peers bench

lab:
	lab/fwdlab up $(LAB_ARGS)
	lab/fwdlab ndr $(LAB_ARGS)

lab-down:
	lab/fwdlab down $(LAB_ARGS)

# Without DUT_BUILD the tree's own build of VARIANT, built first (a fresh clone has none).
swap: $(if $(DUT_BUILD),,forwarder)
	lab/fwdlab swap $(or $(DUT_BUILD),build/vfwd/$(VARIANT)) $(LAB_ARGS)

dump:
	lab/fwdlab dump $(LAB_ARGS)

# `make test`: what CI runs. The Debian packages; then the build phase (the build cache checked
# in full beside the C builds: a corrupt entry is removed, and rebuilt by the build that needs
# it), every program the suites use built once, side by side where they do not depend on each
# other (TRex, VPP and the VM images from the build cache, scripts/cache, or built into it);
# then the suites in two lanes (tests/lanes.sh): the host lane (each suite's host tests, in
# SUITES order), then the VM lane (b2b's faults, the fresh-clone lab, the field lab, the images
# suite's DUT boot), or both at once with TEST_LANES=side-by-side; then the summary (totals,
# each lane's time, skips, failures, the 15 slowest tests).
test:
	$(call deps)
	@mkdir -p build && rm -f $(RESULTS) $(TOP)/build/test-builds.tsv $(TOP)/build/test-suites.tsv
	@t0=$$(date +%s); $(MAKE) --no-print-directory -k -j2 test-builds || true; \
		echo "==== build phase: $$(($$(date +%s) - t0)) s"
	@tests/lanes.sh $(SUITES) || true
	@tests/summary.sh $(RESULTS)

# `make test-all`: `make test`, then what is too slow for CI: each fuzzer for
# TEST_ALL_FUZZ_SECONDS (forwarder's three, fwdstat's two), fwdstat's script tests against an
# ASan/UBSan build, fwdstat's trend and bisect campaigns on the host topology (check-long), the
# lab across two libvirt hosts (tests check-vm-long), CSIT's 200k and 2M-route suites on the host topology
# (tests/long/), and both images rebuilt from scratch and compared byte for byte.
TEST_ALL_FUZZ_SECONDS ?= 600
test-all: test
	@rc=0; \
	$(MAKE) --no-print-directory -C forwarder check-fuzz FUZZ_SECONDS=$(TEST_ALL_FUZZ_SECONDS) || rc=1; \
	$(MAKE) --no-print-directory -C lab/fwdstat fuzz FUZZ_SECONDS=$(TEST_ALL_FUZZ_SECONDS) || rc=1; \
	$(MAKE) --no-print-directory -C lab/fwdstat check-asan || rc=1; \
	$(MAKE) --no-print-directory -C lab/fwdstat check-long || rc=1; \
	$(MAKE) --no-print-directory -C tests check-vm-long || rc=1; \
	tests/runner.sh --suite test-all --timeout 7200 -- $(wildcard $(TOP)/tests/long/*.sh) || rc=1; \
	$(MAKE) --no-print-directory -C images verify SCRATCH=1 || rc=1; \
	tests/summary.sh $(RESULTS) && exit $$rc

# The build phase (tests/build-step times each one and fails `make test` naming it). Run with
# -j2: the forwarder first (the longest C build; it builds peers' pcaptool, which its tests and
# example-rs's use), TRex and VPP (each -j2 under nice 19) beside the C programs, the images
# once their payloads are there.
TEST_BUILDS := tb-cache tb-forwarder tb-vpp tb-tgen tb-fwdstat tb-example-rs tb-trex tb-peers \
	tb-images tb-images-field
.PHONY: test-builds $(TEST_BUILDS)
test-builds: $(TEST_BUILDS)
# The build cache checked in full (every entry hashed against its manifest; a corrupt one removed,
# then rebuilt by the build that needs it) beside the C builds, before any entry is used.
tb-cache:
	@tests/build-step cache bash -c 'scripts/cache verify | grep -v "^ok " | sed "s/^/cache: /" || true'
tb-forwarder:
	@tests/build-step forwarder $(MAKE) -C forwarder test-build
tb-example-rs: tb-forwarder
	@tests/build-step example-rs $(MAKE) -C forwarder/plugins/example-rs test-build
tb-tgen:
	@tests/build-step tgen $(MAKE) -C tgen test-build
tb-fwdstat:
	@tests/build-step fwdstat $(MAKE) -C lab/fwdstat test-build
tb-peers: tb-forwarder tb-vpp tb-cache
	@tests/build-step peers $(MAKE) -C peers test-build
tb-trex: tb-cache
	@tests/build-step trex $(MAKE) -C trex test-build
tb-vpp: tb-cache
	@tests/build-step vpp bash -c 'for v in default verB; do peers/vpp/build --variant $$v >/dev/null || exit 1; done'
tb-images: tb-forwarder tb-example-rs tb-tgen tb-cache
	@tests/build-step images $(MAKE) images
tb-images-field: tb-images tb-trex tb-vpp
	@tests/build-step images-field $(MAKE) images TG=trex DUT=vpp

format:
	$(call deps,scripts)
	find forwarder tgen lab -name '*.[ch]' -not -path '*/build/*' | xargs -r clang-format -i

lint:
	$(call deps,scripts lab)
	find forwarder tgen lab -name '*.[ch]' -not -path '*/build/*' | xargs -r clang-format --dry-run --Werror
	find . -name '*.sh' -not -path './build/*' | xargs -r shellcheck
	shellcheck lab/fwdlab scripts/install-deps .ci/run

clean:
	rm -rf build
