# SPDX-License-Identifier: BSD-2-Clause
#
# Tally: make [PLATFORM=generic] [O=build]        firmware images
#        make XLEN=32                              the same for RV32 (<plat>-rv32)
#        make run                                  boot Linux under QEMU (demonstration)
#        make run-sbi [PLATFORM=<board>]           the S-mode SBI test payload on the board's QEMU machine
#        make check                                every test (host, SBI payload, Linux)
#        make check-debian                         Debian's QEMU 10.0/11.1, kernels, perf: every CPU model
#        make soak [SOAK_TIME=600]                 stress-ng soak on Debian's stack, Tally and OpenSBI 1.9
#        make soak-record [RECORD_RUNS=50] [RECORD_MODE=exact]  perf record run after run: QEMU 7.2/11.1 x kernels x harts (and -icount), Tally and OpenSBI 1.9
#        make check-kvm-guest                      perf in a KVM guest on Debian's stack: QEMU 10.0/11.1, AIA or not; OpenSBI 1.9
#        make bench                                cost per SBI call, size, boot; N-Trace vs NexRv
#        make fuzz [FUZZ_TIME=600]                 libFuzzer targets, seconds each
#        make bench-breakdown [BOOT=1]             where each call's instructions go
#        make deps                                 install the Debian packages (apt-get)
#
# Image variables, as OpenSBI's: FW_TEXT_START, FW_JUMP_ADDR, FW_JUMP_FDT_ADDR,
# FW_PAYLOAD_PATH, FW_PAYLOAD_OFFSET, FW_PAYLOAD_FDT_ADDR; TALLY_MAX_HARTS;
# TALLY_TEST_PMU_FAIL_HART=<id> (test builds: that hart's PMU set-up fails);
# TALLY_TEST_PMP_ENTRIES=<n> (test builds: at most n PMP entries counted on a hart);
# TALLY_TEST_SSE_EVENTS=1 (test builds: the virt board adds SSE events 0x4001, 0x4002).
# LINUX_COMPAT=0: no accommodation of known Linux driver bugs, the strict SBI
# spec (lib/pmu/pmu_linux_compat.c, docs/perf.md); PMU_SNAPSHOT=0: no PMU
# snapshot (snapshot_set_shmem answers NOT_SUPPORTED; for benchmarks);
# PMU_STRICT_FILTERS=1: mode filters no counter can apply are refused, not
# counted in every mode (docs/pmu.md, Mode filtering).

PLATFORM	?= generic
O		?= build
# One spelling of the output directory: the objects' flags name it
# (-I$(O)/libfdt), so "make" (O=build) after tests/run-all.sh
# (O=/abs/path/build) would rebuild everything, and the other way round.
override O	:= $(abspath $(O))
# The board's make fragment (image addresses, QEMU machine): platform/<board>/board.mk.
# It sets what it needs with ?=, so the command line still wins.
ifneq ($(PLATFORM),generic)
ifeq ($(wildcard platform/$(PLATFORM)/board.mk),)
$(error PLATFORM=$(PLATFORM): no platform/$(PLATFORM)/board.mk (boards: $(notdir $(patsubst %/board.mk,%,$(wildcard platform/*/board.mk)))))
endif
include platform/$(PLATFORM)/board.mk
endif
# XLEN=32 builds the same sources for RV32 (qemu-system-riscv32) into
# $(O)/platform/<PLATFORM>-rv32, beside the RV64 build. RV32 Linux wants its
# image 4 MiB aligned, hence the payload addresses (as OpenSBI's).
XLEN		?= 64
TALLY_MAX_HARTS	?= 32
LINUX_COMPAT	?= 1
PMU_SNAPSHOT	?= 1
FW_TEXT_START	?= 0x80000000
ifeq ($(XLEN),32)
FW_JUMP_ADDR	?= 0x80400000
FW_PAYLOAD_OFFSET ?= 0x400000
else ifeq ($(XLEN),64)
FW_JUMP_ADDR	?= 0x80200000
FW_PAYLOAD_OFFSET ?= 0x200000
else
$(error XLEN must be 32 or 64)
endif
FW_JUMP_FDT_ADDR ?= 0
FW_PAYLOAD_FDT_ADDR ?= 0
QEMU_MACHINE	?= virt
QEMU_SMP	?= 4
QEMU_APPEND	?=
LINUX_SOURCE	?= /usr/src/linux-source-6.1.tar.xz

# Reading this Makefile changes nothing: the Debian packages are installed
# by scripts/tally (the README's commands) or `make deps`.
ifeq ($(origin CROSS_COMPILE),undefined)
CROSS_COMPILE := $(if $(shell command -v riscv64-unknown-elf-gcc),riscv64-unknown-elf-,riscv64-linux-gnu-)
endif
CC		:= $(CROSS_COMPILE)gcc
OBJCOPY		:= $(CROSS_COMPILE)objcopy
SIZE		:= $(CROSS_COMPILE)size
HOSTCC		?= gcc

PLAT_DIR	:= $(O)/platform/$(PLATFORM)$(if $(filter 32,$(XLEN)),-rv32)
FW_DIR		:= $(PLAT_DIR)/firmware
OBJ_DIR		:= $(PLAT_DIR)/obj
LIBFDT_SRC	:= $(O)/libfdt
# One extraction per checkout and linux-source package: every O= copies it.
LIBFDT_CACHE	?= $(CURDIR)/build/.libfdt-$(notdir $(LINUX_SOURCE:.tar.xz=))
FLAGS_STAMP	:= $(OBJ_DIR)/.cflags

ifeq ($(XLEN),32)
ARCH_FLAGS	:= -march=rv32imac_zicsr_zifencei -mabi=ilp32 -mcmodel=medany
else
ARCH_FLAGS	:= -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany
endif
FW_DEFINES	:= -DTALLY_MAX_HARTS=$(TALLY_MAX_HARTS) -DFW_JUMP_ADDR=$(FW_JUMP_ADDR)UL \
		   -DFW_JUMP_FDT_ADDR=$(FW_JUMP_FDT_ADDR)UL -DFW_PAYLOAD_FDT_ADDR=$(FW_PAYLOAD_FDT_ADDR)UL \
		   $(if $(TALLY_TEST_PMU_FAIL_HART),-DTALLY_TEST_PMU_FAIL_HART=$(TALLY_TEST_PMU_FAIL_HART)) \
		   $(if $(TALLY_TEST_PMP_ENTRIES),-DTALLY_TEST_PMP_ENTRIES=$(TALLY_TEST_PMP_ENTRIES)) \
		   $(if $(TALLY_TEST_SSE_EVENTS),-DTALLY_TEST_SSE_EVENTS=1) \
		   -DPMU_LINUX_COMPAT=$(LINUX_COMPAT) -DPMU_SNAPSHOT=$(PMU_SNAPSHOT) \
		   $(if $(filter 1,$(PMU_STRICT_FILTERS)),-DPMU_STRICT_FILTERS=1) \
		   $(if $(filter-out generic,$(PLATFORM)),-DTALLY_BOARD=board_$(PLATFORM))
# No firmware C code uses t3-t6, so the ecall path of the trap entry
# (firmware/fw_base.S) need not save and restore them: 8 instructions a call.
FIXED_REGS	:= -ffixed-t3 -ffixed-t4 -ffixed-t5 -ffixed-t6
BASE_CFLAGS	:= $(ARCH_FLAGS) $(FIXED_REGS) -std=gnu11 -O2 -g -ffreestanding -fno-builtin -nostdlib \
		   -fno-stack-protector -fno-pic -fno-common -ffunction-sections -fdata-sections \
		   -Iinclude -Ilib/fdt/freestanding -I$(LIBFDT_SRC) $(FW_DEFINES)
CFLAGS_FW	:= $(BASE_CFLAGS) -Wall -Wextra -Wmissing-prototypes -Werror
# libfdt is third-party code built as it is; only its warnings are relaxed
CFLAGS_LIBFDT	:= $(BASE_CFLAGS) -Wall -Werror -Wno-sign-compare
LDFLAGS_FW	:= $(ARCH_FLAGS) -nostdlib -static -Wl,--gc-sections -Wl,--no-warn-rwx-segments \
		   -Wl,--defsym=FW_TEXT_START=$(FW_TEXT_START) \
		   -Wl,--defsym=FW_PAYLOAD_OFFSET=$(FW_PAYLOAD_OFFSET) -T firmware/fw.ld

LIBFDT_FILES	:= fdt.c fdt_ro.c fdt_rw.c fdt_wip.c fdt_sw.c fdt_strerror.c fdt_addresses.c \
		   fdt.h libfdt.h libfdt_internal.h
LIBFDT_OBJS	:= $(patsubst %.c,$(OBJ_DIR)/libfdt/%.o,$(filter %.c,$(LIBFDT_FILES)))

# Every image holds the generic platform and every board (the devicetree picks one).
CORE_SRCS	:= $(wildcard lib/sbi/*.c lib/pmu/*.c lib/utils/*.c lib/fdt/*.c platform/generic/*.c \
		   platform/*/board.c)
CORE_OBJS	:= $(patsubst %.c,$(OBJ_DIR)/%.o,$(CORE_SRCS)) $(OBJ_DIR)/firmware/fw_base.o $(LIBFDT_OBJS)

FLAVOURS	:= fw_dynamic fw_jump fw_payload
FW_PAYLOAD_PATH	?= $(FW_DIR)/test_payload.bin
IMAGES		:= $(foreach f,$(FLAVOURS),$(FW_DIR)/$(f).elf $(FW_DIR)/$(f).bin)

.PHONY: all firmware tools run run-sbi check check-quick check-unit check-sbi check-trace check-linux check-kvm check-debian check-kvm-guest soak soak-record \
	bench bench-breakdown fuzz clean distclean deps have-cc FORCE
all firmware: $(IMAGES)

# The Debian packages Tally needs (apt-get, with sudo when not root).
deps:
	@scripts/install-deps.sh

# A clear word when the cross compiler is missing (every object waits for it).
have-cc:
	@command -v $(CC) > /dev/null || \
		{ echo "$(CC) not found: run 'make deps' (or scripts/tally)" >&2; exit 1; }

# --- libfdt, extracted from Debian's linux-source-6.1 at build time ---------
# xz -T0: the archive is compressed in blocks, so xz decompresses it on every
# core (6 s instead of 14 on two); tar reads the whole archive either way.
$(LIBFDT_CACHE)/.extracted: $(LINUX_SOURCE)
	@echo "  EXTRACT libfdt from $(LINUX_SOURCE)"
	@mkdir -p $(@D)
	@tar -I 'xz -T0' -xf $(LINUX_SOURCE) -C $(@D) --strip-components=4 \
		$(addprefix linux-source-6.1/scripts/dtc/libfdt/,$(LIBFDT_FILES))
	@touch $@

$(LIBFDT_SRC)/.extracted: $(LIBFDT_CACHE)/.extracted
	@mkdir -p $(@D)
	@cp $(addprefix $(LIBFDT_CACHE)/,$(LIBFDT_FILES)) $(@D)/
	@touch $@

$(OBJ_DIR)/libfdt/%.o: $(LIBFDT_SRC)/.extracted $(FLAGS_STAMP) | have-cc
	@mkdir -p $(@D)
	@echo "  CC      libfdt/$*.c"
	@$(CC) $(CFLAGS_LIBFDT) -MMD -MP -c $(LIBFDT_SRC)/$*.c -o $@

# --- Tally's own objects ------------------------------------------------------
# Every object is rebuilt when the compiler flags change: fw_base.S relies on
# FIXED_REGS being in force in every C object.
# The stamp is rewritten only when the flags changed, so only then is it
# newer than the objects.
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D)
	@echo '$(CFLAGS_FW) | $(CFLAGS_LIBFDT)' | cmp -s - $@ 2>/dev/null || \
		echo '$(CFLAGS_FW) | $(CFLAGS_LIBFDT)' > $@

$(OBJ_DIR)/%.o: %.c $(LIBFDT_SRC)/.extracted $(FLAGS_STAMP) | have-cc
	@mkdir -p $(@D)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS_FW) -MMD -MP -c $< -o $@

$(OBJ_DIR)/%.o: %.S $(FLAGS_STAMP) | have-cc
	@mkdir -p $(@D)
	@echo "  AS      $<"
	@$(CC) $(CFLAGS_FW) -MMD -MP -c $< -o $@

$(OBJ_DIR)/firmware/fw_payload_bin.o: firmware/fw_payload.S $(FW_PAYLOAD_PATH)
	@mkdir -p $(@D)
	@echo "  AS      $< ($(FW_PAYLOAD_PATH))"
	@$(CC) $(CFLAGS_FW) -DFW_PAYLOAD_PATH_STR='"$(abspath $(FW_PAYLOAD_PATH))"' -c $< -o $@

# --- images -------------------------------------------------------------------
$(FW_DIR)/fw_dynamic.elf: $(OBJ_DIR)/firmware/fw_dynamic.o $(CORE_OBJS) firmware/fw.ld
$(FW_DIR)/fw_jump.elf: $(OBJ_DIR)/firmware/fw_jump.o $(CORE_OBJS) firmware/fw.ld
$(FW_DIR)/fw_payload.elf: $(OBJ_DIR)/firmware/fw_payload.o $(OBJ_DIR)/firmware/fw_payload_bin.o \
			  $(CORE_OBJS) firmware/fw.ld

$(FW_DIR)/%.elf:
	@mkdir -p $(@D)
	@echo "  LD      $@"
	@$(CC) $(LDFLAGS_FW) $(filter %.o,$^) -o $@

$(FW_DIR)/%.bin: $(FW_DIR)/%.elf
	@echo "  OBJCOPY $@"
	@$(OBJCOPY) -O binary $< $@

# The default payload of fw_payload: a tiny S-mode program (firmware/test_payload.S).
$(FW_DIR)/test_payload.elf: $(OBJ_DIR)/firmware/test_payload.o
	@mkdir -p $(@D)
	@$(CC) $(ARCH_FLAGS) -nostdlib -static -Wl,-N -Wl,--no-warn-rwx-segments -Wl,-Ttext=$(shell printf '0x%x' $$(($(FW_TEXT_START) + $(FW_PAYLOAD_OFFSET)))) $< -o $@

# --- running and testing ------------------------------------------------------
# Host tools: tally-pmu-dtcheck reads a .dtb and prints the PMU event map;
# tally-trace records/encodes/decodes RISC-V N-Trace (docs/trace.md)
tools:
	@$(MAKE) -C tools O=$(abspath $(O))/host/tools

run: all
	@tests/linux/demo.sh $(O)

# The board's QEMU machine (platform/<board>/board.mk) runs tests/sbi's payload.
run-sbi: all
	@$(MAKE) -s -C tests/sbi O=$(abspath $(O))/tests/sbi
	qemu-system-riscv64 -M $(QEMU_MACHINE) -smp $(QEMU_SMP) -m 256M -nographic -no-reboot \
		-bios $(FW_DIR)/fw_dynamic.bin -kernel $(O)/tests/sbi/sbi-test.elf \
		$(if $(QEMU_APPEND),-append "$(QEMU_APPEND)")

# The runner's first job builds the images (build-fw), beside the kernels.
check:
	@tests/run-all.sh $(O)

check-unit:
	@tests/run-all.sh $(O) unit

# the inner loop (a few minutes): host unit tests, devicetree, SBI payload on virt
check-quick:
	@tests/run-all.sh $(O) quick

check-sbi:
	@tests/run-all.sh $(O) sbi

check-trace:
	@tests/run-all.sh $(O) trace

check-linux:
	@tests/run-all.sh $(O) linux

check-kvm:
	@tests/run-all.sh $(O) kvm

# the 2026 stack's whole matrix (tests/debian/run.sh full): Debian's QEMU 10.0
# and 11.1 x CPU models x trixie's kernel and Debian's newest 7.x; not in make check
check-debian:
	@tests/run-all.sh $(O) debian-full

# perf in a KVM guest (tests/debian/kvm-guest.sh, docs/kvm.md): QEMU 10.0 and
# 11.1, with and without AIA, on Tally, then OpenSBI 1.9 (INFO lines); the
# test command's job kvm-guest is its QEMU 11.1 AIA run on Tally
check-kvm-guest:
	@TALLY_COMPARE=1 tests/run-all.sh $(O) kvm-guest-full

# the long soak (tests/debian/soak.sh, docs/benchmarks.md): stress-ng's CPU
# hotplug, perf, timers, IPIs and remote fences at once for SOAK_TIME
# seconds on Tally, then on OpenSBI 1.9 (INFO lines); the test command's
# job soak runs 60 s on Tally
SOAK_TIME	?= 600
soak:
	@TALLY_COMPARE=1 TALLY_SOAK_SECONDS=$(SOAK_TIME) tests/run-all.sh $(O) soak-long

# the sampling soak (tests/debian/record-soak.sh, docs/benchmarks.md): perf
# record of cycles and of dTLB-load-misses:u, RECORD_RUNS rounds per boot,
# no retry, on QEMU 7.2 and 11.1 x trixie's 6.12 and Debian's newest 7.x x 1 and
# 4 harts x Tally (snapshot on, off) and OpenSBI 1.9, then the same under
# -icount (cycles and instructions, 25 rounds; RECORD_MODE=exact: only
# that leg, RECORD_RUNS rounds); the test command's job record-soak runs 10
# rounds on QEMU 11.1, 4 harts, Tally
RECORD_RUNS	?= 50
RECORD_MODE	?= full
soak-record:
	@TALLY_RECORD_RUNS=$(RECORD_RUNS) TALLY_RECORD_MODE=$(RECORD_MODE) \
		tests/run-all.sh $(O) record-soak-full

bench: all
	@bench/run.sh $(O)
	@tests/trace/nexrv-xcheck.sh $(O) --full --table
	@bench/ntrace_speed.sh $(O)

# The libFuzzer targets of tests/fuzz and tally-trace's (tests/trace/fuzz.sh)
# as a campaign: time-bounded, a random seed (printed) unless FUZZ_SEED;
# check-unit's and check-trace's runs are short and fixed.
# make fuzz [FUZZ_TIME=seconds per target] [FUZZ_SEED=n]
FUZZ_TIME	?= 600
fuzz:
	@tests/fuzz/run.sh $(O) --time $(FUZZ_TIME)
	@tests/trace/fuzz.sh $(O) --time $(FUZZ_TIME)

# where each costly call's instructions go (needs make bench's payload first)
bench-breakdown: all
	@bench/run.sh $(O) --smoke > /dev/null
	@bench/breakdown.py $(O) $(if $(BOOT),--boot) | tee $(O)/bench/breakdown.md

clean:
	rm -rf $(PLAT_DIR) $(O)/tests $(O)/host

distclean:
	rm -rf $(O)

# The compiler writes the .d files; nothing else makes them.  Without this
# rule make tried to remake them through its built-in `%: %.o` and the
# libfdt rule (whose stem then was "fdt_ro.d": "cc1: fatal error:
# .../fdt_ro.d.c: No such file or directory", harmless but alarming).
$(OBJ_DIR)/%.d: ;

-include $(shell find $(OBJ_DIR) -name '*.d' 2>/dev/null)
