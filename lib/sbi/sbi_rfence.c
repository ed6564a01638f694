// SPDX-License-Identifier: BSD-2-Clause
/*
 * Remote fence extension "RFNC".  The calling hart does its own share
 * directly; every other target gets the request in its scratch mailbox and
 * an IPI, and the caller waits for its acknowledgement (the calls are
 * synchronous).  While waiting, the caller serves requests aimed at itself,
 * so two harts fencing each other cannot deadlock.
 */
#include <tally/fw_event.h>
#include <tally/hart.h>
#include <tally/hsm_state.h>
#include <tally/init.h>
#include <tally/ipi.h>
#include <tally/platform.h>
#include <tally/sbi.h>

/* Beyond this many pages a full flush is cheaper than page-by-page. */
#define RFENCE_MAX_PAGES	64
#define PAGE_SIZE		4096UL

static bool range_is_everything(unsigned long start, unsigned long size)
{
	return (start == 0 && size == 0) || size == (unsigned long)-1 ||
	       size / PAGE_SIZE > RFENCE_MAX_PAGES || start + size < start;
}

/*
 * hfence.vvma / hfence.gvma (INSN_HFENCE_*, riscv.h): rs2 = x0 fences
 * every ASID (VMID); rs2 = a register holding 0 would fence ASID (VMID) 0
 * only, so the "all" forms have their own helpers.
 */
static inline void hfence_vvma(unsigned long va, unsigned long asid)
{
	__asm__ __volatile__(INSN_HFENCE_VVMA "%0, %1" :: "r"(va), "r"(asid) : "memory");
}

static inline void hfence_vvma_all_asids(unsigned long va)
{
	__asm__ __volatile__(INSN_HFENCE_VVMA "%0, x0" :: "r"(va) : "memory");
}

static inline void hfence_gvma(unsigned long gpa_shifted, unsigned long vmid)
{
	__asm__ __volatile__(INSN_HFENCE_GVMA "%0, %1" :: "r"(gpa_shifted), "r"(vmid) : "memory");
}

static inline void hfence_gvma_all_vmids(unsigned long gpa_shifted)
{
	__asm__ __volatile__(INSN_HFENCE_GVMA "%0, x0" :: "r"(gpa_shifted) : "memory");
}

static void local_sfence(const struct rfence_request *r, bool use_asid)
{
	if (range_is_everything(r->start, r->size)) {
		if (use_asid)
			sfence_vma_asid(r->asid);
		else
			sfence_vma_all();
		return;
	}
	for (unsigned long va = r->start; va - r->start < r->size; va += PAGE_SIZE) {
		if (use_asid)
			sfence_vma_addr_asid(va, r->asid);
		else
			sfence_vma_addr(va);
	}
}

static void local_hfence_gvma(const struct rfence_request *r, bool use_vmid)
{
	unsigned long vmid = use_vmid ? r->asid : 0;

	if (range_is_everything(r->start, r->size)) {
		if (use_vmid)
			__asm__ __volatile__(INSN_HFENCE_GVMA "x0, %0" :: "r"(vmid) : "memory");
		else
			__asm__ __volatile__(INSN_HFENCE_GVMA "x0, x0" ::: "memory");
		return;
	}
	for (unsigned long gpa = r->start; gpa - r->start < r->size; gpa += PAGE_SIZE) {
		if (use_vmid)
			hfence_gvma(gpa >> 2, vmid);
		else
			hfence_gvma_all_vmids(gpa >> 2);
	}
}

/* VVMA fences act on the caller's VMID, which travels in the request. */
static void local_hfence_vvma(const struct rfence_request *r, bool use_asid,
			      unsigned long vmid)
{
	unsigned long hgatp = csr_swap(CSR_HGATP, (vmid << HGATP_VMID_SHIFT) & HGATP_VMID_MASK);

	if (range_is_everything(r->start, r->size)) {
		if (use_asid)
			__asm__ __volatile__(INSN_HFENCE_VVMA "x0, %0" :: "r"(r->asid) : "memory");
		else
			__asm__ __volatile__(INSN_HFENCE_VVMA "x0, x0" ::: "memory");
	} else {
		for (unsigned long va = r->start; va - r->start < r->size; va += PAGE_SIZE) {
			if (use_asid)
				hfence_vvma(va, r->asid);
			else
				hfence_vvma_all_asids(va);
		}
	}
	csr_write(CSR_HGATP, hgatp);
}

struct rfence_kind {
	unsigned int sent_event;
	unsigned int received_event;
};

static const struct rfence_kind rfence_kinds[] = {
	[SBI_EXT_RFENCE_REMOTE_FENCE_I] = { FW_EV_FENCE_I_SENT, FW_EV_FENCE_I_RECEIVED },
	[SBI_EXT_RFENCE_REMOTE_SFENCE_VMA] = { FW_EV_SFENCE_VMA_SENT, FW_EV_SFENCE_VMA_RECEIVED },
	[SBI_EXT_RFENCE_REMOTE_SFENCE_VMA_ASID] = { FW_EV_SFENCE_VMA_ASID_SENT,
						    FW_EV_SFENCE_VMA_ASID_RECEIVED },
	[SBI_EXT_RFENCE_REMOTE_HFENCE_GVMA_VMID] = { FW_EV_HFENCE_GVMA_VMID_SENT,
						     FW_EV_HFENCE_GVMA_VMID_RECEIVED },
	[SBI_EXT_RFENCE_REMOTE_HFENCE_GVMA] = { FW_EV_HFENCE_GVMA_SENT, FW_EV_HFENCE_GVMA_RECEIVED },
	[SBI_EXT_RFENCE_REMOTE_HFENCE_VVMA_ASID] = { FW_EV_HFENCE_VVMA_ASID_SENT,
						     FW_EV_HFENCE_VVMA_ASID_RECEIVED },
	[SBI_EXT_RFENCE_REMOTE_HFENCE_VVMA] = { FW_EV_HFENCE_VVMA_SENT, FW_EV_HFENCE_VVMA_RECEIVED },
};

static void rfence_local(const struct rfence_request *r, unsigned long vmid)
{
	switch (r->type) {
	case SBI_EXT_RFENCE_REMOTE_FENCE_I:
		fence_i();
		break;
	case SBI_EXT_RFENCE_REMOTE_SFENCE_VMA:
		local_sfence(r, false);
		break;
	case SBI_EXT_RFENCE_REMOTE_SFENCE_VMA_ASID:
		local_sfence(r, true);
		break;
	case SBI_EXT_RFENCE_REMOTE_HFENCE_GVMA_VMID:
		local_hfence_gvma(r, true);
		break;
	case SBI_EXT_RFENCE_REMOTE_HFENCE_GVMA:
		local_hfence_gvma(r, false);
		break;
	case SBI_EXT_RFENCE_REMOTE_HFENCE_VVMA_ASID:
		local_hfence_vvma(r, true, vmid);
		break;
	case SBI_EXT_RFENCE_REMOTE_HFENCE_VVMA:
		local_hfence_vvma(r, false, vmid);
		break;
	}
}

/* The target's side of IPI_RFENCE (registered by sbi_rfence_init). */
static void rfence_receive(void)
{
	struct hart_scratch *me = this_hart();

	fw_event(rfence_kinds[me->rfence.type].received_event);
	rfence_local(&me->rfence, me->rfence.vmid);
	__atomic_store_n(&me->rfence_done, 1, __ATOMIC_RELEASE);
}

void sbi_rfence_init(void)
{
	sbi_ipi_register(IPI_RFENCE, rfence_receive);
}

static void rfence_remote(unsigned long index, const struct rfence_request *r)
{
	struct hart_scratch *target = &hart_scratch[index];

	while (!spin_trylock(&target->rfence_lock))
		sbi_ipi_poll();
	target->rfence = *r;
	target->rfence_done = 0;
	sbi_ipi_raise(index, IPI_RFENCE);
	while (!__atomic_load_n(&target->rfence_done, __ATOMIC_ACQUIRE))
		sbi_ipi_poll();
	spin_unlock(&target->rfence_lock);
}

struct sbiret sbi_rfence_many(unsigned long mask, unsigned long base,
			      const struct rfence_request *r)
{
	unsigned long self = this_hart_index(), h;	/* hart indices */
	struct hartmask targets;
	long err = hartmask_from_sbi(mask, base, &hart_map, &platform.harts, &targets);

	if (err)
		return sbi_err(err);
	for_each_hart_in(h, &targets) {
		if (!hsm_hart_interruptible(h))
			continue;	/* it fences everything when started (hsm_start_fences) */
		/* the firmware events count requests to and from other harts */
		if (h == self) {
			rfence_local(r, r->vmid);
		} else {
			fw_event(rfence_kinds[r->type].sent_event);
			rfence_remote(h, r);
		}
	}
	return sbi_ok(0);
}

static struct sbiret rfence_handle(unsigned long fid, const unsigned long *args,
				   struct trap_frame *tf)
{
	struct rfence_request r = { .type = fid, .start = args[2], .size = args[3],
				    .asid = args[4] };

	(void)tf;
	if (fid > SBI_EXT_RFENCE_REMOTE_HFENCE_VVMA)
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	if (fid >= SBI_EXT_RFENCE_REMOTE_HFENCE_GVMA_VMID) {
		if (!hart_features.has_h)
			return sbi_err(SBI_ERR_NOT_SUPPORTED);
		r.vmid = (csr_read(CSR_HGATP) & HGATP_VMID_MASK) >> HGATP_VMID_SHIFT;
	}
	return sbi_rfence_many(args[0], args[1], &r);
}

const struct sbi_extension sbi_ext_rfence = {
	.eid_first = SBI_EXT_RFENCE,
	.eid_last = SBI_EXT_RFENCE,
	.name = "RFNC",
	.handle = rfence_handle,
};
