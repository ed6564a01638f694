// SPDX-License-Identifier: BSD-2-Clause
/*
 * Boot: the cold-boot hart sets up the platform from the devicetree, prints
 * the banner and starts the next stage; every hart sets up its own CSRs.
 */
#include <tally/aia.h>
#include <tally/board.h>
#include <tally/console.h>
#include <tally/fdt_fixup.h>
#include <tally/hart_ext.h>
#include <tally/sbi_fwft.h>
#include <tally/hart.h>
#include <tally/sbi_hsm.h>
#include <tally/init.h>
#include <tally/ipi.h>
#include <tally/platform.h>
#include <tally/riscv.h>
#include <tally/sbi.h>
#include <tally/sbi_pmu.h>
#include <tally/sbi_time.h>
#include <tally/trap.h>

/* Smallest power of two >= the firmware's size: the PMP NAPOT region. */
static unsigned long fw_region_size(void)
{
	unsigned long size = 4096, need = _fw_end - _fw_start;

	while (size < need)
		size <<= 1;
	return size;
}

static void print_extensions(void)
{
	printf("SBI extensions   :");
	for (unsigned long i = 0; i < sbi_extension_count; i++) {
		const struct sbi_extension *ext = sbi_extensions[i];
		if (sbi_ext_available(ext->eid_first))
			printf(" %s", ext->name);
	}
	printf("\n");
}

/* The device quirks the firmware absorbs, one line (docs/porting.md). */
static void print_quirks(void)
{
	if (!platform.quirks_name)
		return;
	printf("Quirks           : %s: page", platform.quirks_name);
	for (unsigned int i = 0; i < platform.nr_trap_pages; i++)
		printf("%s 0x%lx", i ? "," : "", platform.trap_page[i].base);
	printf(" emulated for S-mode\n");
}

static void print_banner(const struct fw_next *next)
{
	unsigned long hpm = hart_features.hpm_mask;
	unsigned int first = 0, last = 0, count = 0;

	for (unsigned int i = HPM_COUNTER_FIRST; i < HPM_COUNTER_LIMIT; i++) {
		if (!(hpm & (1UL << i)))
			continue;
		if (!count++)
			first = i;
		last = i;
	}
	printf("\nTally %s: RISC-V SBI firmware (%s)\n", TALLY_VERSION_STRING, fw_flavour);
	printf("Platform         : %s\n", platform.name);
	printf("Harts            : %lu (boot hart %lu, index %lu, max %u)\n", platform.nr_harts,
	       this_hartid(), this_hart_index(), TALLY_MAX_HARTS);
	printf("Firmware region  : 0x%lx-0x%lx (%lu KiB, no S/U access)\n",
	       platform.mem.fw_base, platform.mem.fw_base + platform.mem.fw_size - 1,
	       platform.mem.fw_size / 1024);
	printf("Devices          : console %s, ipi %s, timer %s%s, reset %s\n",
	       console_name(), platform.ipi_name, platform.timer_name,
	       hart_features.has_sstc ? " + Sstc" : "", platform.reset_name);
	if (platform.irqchip_name)
		printf("Interrupts (AIA) : %s%s\n", platform.irqchip_name,
		       hart_features.has_smaia ? ", Smaia" : "");
	print_quirks();
	printf("SBI version      : %d.%d, implementation 0x%lx v%d.%d\n",
	       SBI_SPEC_VERSION_MAJOR, SBI_SPEC_VERSION_MINOR, SBI_IMPL_ID_TALLY,
	       TALLY_VERSION_MAJOR, TALLY_VERSION_MINOR);
	print_extensions();
	hart_ext_print_banner();
	sbi_fwft_print_banner();
	if (count)
		printf("PMU              : %u programmable counters (mhpmcounter%u-%u), %u bits, "
		       "Sscofpmf %s\n", count, first, last, hart_features.hpm_bits,
		       hart_features.has_sscofpmf ? "yes" : "no");
	else
		printf("PMU              : no programmable counters, Sscofpmf %s\n",
		       hart_features.has_sscofpmf ? "yes" : "no");
	sbi_pmu_print_banner();
	printf("Next stage       : 0x%lx in %s-mode, devicetree at 0x%lx\n\n",
	       next->addr, next->mode == PRV_S ? "S" : "?", next->fdt);
}

static void __attribute__((noreturn)) halt(void)
{
	for (;;)
		wfi();
}

/* The lowest hart index S-mode may use, or -1. */
static long first_hart(void)
{
	unsigned long h;

	for_each_hart_in(h, &platform.harts)
		return (long)h;
	return -1;
}

/*
 * self and the harts woken: hart indices.  Without a boot_wake device the
 * others poll cold_boot_done (boot_wait_poll): the flag is all they need.
 */
static void wake_secondaries(unsigned long self)
{
	unsigned long h;

	__atomic_store_n(&cold_boot_done, 1, __ATOMIC_RELEASE);
	__asm__ __volatile__("fence w, o" ::: "memory");	/* the flag, then msip */
	if (!platform.ops.boot_wake)
		return;
	for_each_hart_in(h, &platform.harts)
		if (h != self)
			platform.ops.boot_wake(h);
}

void __attribute__((noreturn)) cold_boot(unsigned long a0, unsigned long a1,
					  unsigned long a2)
{
	struct fw_next next;

	hart_scratch_init();
	fw_next_stage(a0, a1, a2, &next);
	platform.mem.fw_base = (unsigned long)_fw_start;
	platform.mem.fw_size = fw_region_size();
	if (platform_init((void *)next.fdt)) {
		printf("Tally: platform initialisation failed; halting\n");
		halt();
	}
	if (first_hart() < 0) {
		printf("Tally: no hart that may run S-mode; halting\n");
		halt();
	}
	if (fw_boot_hart(a0, a1, a2) != -1 && (unsigned long)fw_boot_hart(a0, a1, a2) != a0)
		printf("Tally: WARNING: boot hart %ld (previous stage) is not in the devicetree; "
		       "hart %lu boots\n", fw_boot_hart(a0, a1, a2), a0);
	hart_probe_features();
	/* what each hart's extensions need; the tree loses what cannot be used */
	hart_ext_cold_init((void *)next.fdt, !platform.fdt_err);
	if (hart_ext_failed("sscofpmf"))	/* no overflow interrupt: not Sscofpmf */
		hart_features.has_sscofpmf = false;
	pmp_check_trap_pages();		/* a board quirk's pages need PMP entries */
	if (!platform.fdt_err) {	/* never write into a tree that failed validation */
		fdt_fixup_reserved_memory((void *)next.fdt, platform.mem.fw_base,
					  platform.mem.fw_size);
		if (fdt_aia_fixup((void *)next.fdt) < 0)
			printf("Tally: WARNING: could not disable the M-level AIA nodes "
			       "in the devicetree\n");
	}
	sbi_pmu_cold_init((void *)next.fdt);
	if (!platform.fdt_err)
		sbi_pmu_vendor_fdt_fixup((void *)next.fdt);
	if (board->final_init && !platform.fdt_err)
		board->final_init((void *)next.fdt);
	if (!platform.fdt_err)		/* after every fixup: room for the next stage */
		fdt_fixup_leave_room((void *)next.fdt);
	sbi_ecall_init();		/* after everything available() looks at */
	print_banner(&next);
	if (next.mode != PRV_S) {
		printf("Tally: next stage mode %lu is not supported (only S-mode)\n", next.mode);
		halt();
	}
	sbi_ipi_init();		/* the IPI request handlers, before any IPI */
	sbi_rfence_init();
	if (!hartmask_test(&platform.harts, this_hart_index())) {
		/* the board parked the boot hart (no S-mode): another enters S-mode */
		unsigned long next_hart = (unsigned long)first_hart();

		printf("Tally: boot hart %lu does not run S-mode: hart %lu starts the next stage\n",
		       a0, hart_scratch[next_hart].hartid);
		hsm_init_handover(next_hart, next.addr, next.fdt);
		wake_secondaries(this_hart_index());
		csr_write(mie, 0);
		halt();
	}
	hsm_init(this_hart_index());
	hart_init_local();
	wake_secondaries(this_hart_index());
	hart_enter_smode(next.addr, a0, next.fdt, PRV_S);
}

void __attribute__((noreturn)) warm_boot(unsigned long hartid)
{
	if (!hartmask_test(&platform.harts, this_hart_index())) {
		printf("Tally: hart %lu is not in the devicetree; parked\n", hartid);
		csr_write(mie, 0);
		halt();
	}
	if (platform.ops.boot_wake_clear)	/* the msip that ended the boot wait */
		platform.ops.boot_wake_clear(this_hart_index());
	hart_init_local();
	hsm_wait_for_start();
}
