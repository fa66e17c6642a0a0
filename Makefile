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

# Test suites in the order `make test` runs them: fast unit tests first, the VM smoke
# test last. A folder joins by having a `check` target.
SUITES ?= forwarder forwarder/plugins/example-rs tgen lab/fwdstat peers trex lab topologies images tests
RESULTS := $(TOP)/build/test-results.tsv
# Every target installs the Debian packages its folders list (only what is missing), so
# each works on a fresh machine: `$(call deps,FOLDER...)`.
deps = @$(TOP)/scripts/install-deps $(1)

.PHONY: help lab lab-down test forwarder plugins tgen images images-verify images-lock images-update bench \
	bench-tgen bench-peers relocs swap dump deps format lint clean

help:
	@echo "make lab            boot the b2b lab (TG + DUT VMs) and run the reference NDR benchmark"
	@echo "make lab-down       remove everything make lab created"
	@echo "make test           run every test suite (unit first, VM smoke last)"
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
	$(MAKE) -C forwarder VARIANT=$(VARIANT) all plugins

plugins:
	$(call deps,forwarder forwarder/plugins/example-rs)
	$(MAKE) -C forwarder VARIANT=$(VARIANT) plugins

relocs:
	$(call deps,forwarder)
	$(MAKE) -C forwarder relocs
	$(MAKE) -C peers relocs

tgen:
	$(call deps,tgen)
	$(MAKE) -C tgen

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

test:
	$(call deps)
	@mkdir -p build && rm -f $(RESULTS)
	@for s in $(SUITES); do \
		[ -f $$s/Makefile ] || continue; \
		grep -q '^check:' $$s/Makefile || continue; \
		echo "==== suite $$s"; \
		if ! $(MAKE) --no-print-directory -C $$s check; then \
			grep -q "^$$s	" $(RESULTS) 2>/dev/null || \
				printf '%s\t%s\tFAIL\t0\n' "$$s" "make check (build or setup failed)" >>$(RESULTS); \
		fi; \
	done
	@tests/summary.sh $(RESULTS)

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
