/* Secondary harts: where hart_start lands them, and the mailbox through
 * which the boot hart has them make SBI calls (stop, IPIs, suspend). */
#include "hart.h"
#include "test.h"

struct hart harts[MAX_HARTS];
unsigned long boot_hartid = -1UL;	/* in .data: set before .bss is used */
unsigned long secondaries[MAX_HARTS];
unsigned int nr_secondaries;

void smp_init(void)
{
	unsigned int i;

	for (i = 0; i < machine.ncpus && i < FDT_MAX_CPUS; i++) {
		unsigned long id = machine.hartids[i];

		if (id == boot_hartid)
			continue;
		if (id >= MAX_HARTS) {
			info("smp", "hart %lu is beyond the payload's %d "
			     "stacks: not used", id, MAX_HARTS);
			continue;
		}
		secondaries[nr_secondaries++] = id;
	}
	harts[boot_hartid].running = true;
}

unsigned long running_mask(void)
{
	unsigned long mask = 0;
	unsigned int id;

	for (id = 0; id < MAX_HARTS; id++)
		if (harts[id].running)
			mask |= 1UL << id;
	return mask;
}

struct sbiret send_ipi_to(unsigned long target)
{
	harts[target].ipi_mail[this_hartid()] = IPI_SENT;
	mb();
	return sbi_send_ipi(1, target);
}

/* Suspends with only the timer (and IPIs) able to wake the hart and
 * sstatus.SIE clear, so the wake-up takes no trap. stvec points at a
 * parking loop meanwhile: a firmware that wrongly resumes somewhere
 * else must not run the trap handler on an undefined stack. */
static struct sbiret do_suspend(struct hart *h)
{
	unsigned long t0;
	struct sbiret r;

	local_irq_disable();
	csr_write(CSR_SIE, SIE_STIE | SIE_SSIE);
	csr_write(CSR_STVEC, park_vector);
	t0 = rdtime();
	sbi_set_timer(t0 + h->arg[3]);
	r = sbi_hart_suspend(h->arg[0], h->arg[1], h->arg[2]);
	h->ret_ticks = rdtime() - t0;
	sbi_set_timer(~0ULL);
	csr_write(CSR_STVEC, trap_vector);
	csr_write(CSR_SIE, SIE_SSIE);
	local_irq_enable();
	return r;
}

static void run_command(struct hart *h)
{
	unsigned long seq = h->cmd_seq;
	struct sbiret r = { 0, 0 };

	mb();
	switch (h->cmd) {
	case CMD_STOP:
		r = sbi_hart_stop();	/* returns only if it failed */
		break;
	case CMD_SEND_IPI:
		r = send_ipi_to(h->arg[0]);
		break;
	case CMD_SUSPEND:
		r = do_suspend(h);
		break;
	case CMD_CALL:
		r = ((hart_fn)h->arg[0])(h->arg[1], h->arg[2], h->arg[3]);
		break;
	case CMD_ECALL: {
		const struct hart_ecall *c = (const void *)h->arg[0];

		r = sbi_ecall(c->eid, c->fid, c->a[0], c->a[1], c->a[2],
			      c->a[3], c->a[4], c->a[5]);
		break;
	}
	}
	h->ret_error = r.error;
	h->ret_value = r.value;
	mb();
	h->done_seq = seq;
	mb();
}

/*
 * An idle secondary waits for its next command in WFI, not in a spin loop.
 * QEMU runs each hart as a host thread, and spinning harts took the host's
 * cores from the harts doing the work: the hostile run on 32 harts used
 * 42 s of CPU spinning, 2.5 s sleeping; the main run on 4 harts 2.8 s, 0.5 s.
 * hart_post wakes a sleeping hart with an IPI, which the trap handler takes
 * here like any other (a test's IPI that arrives meanwhile is collected with
 * it).  The flag is swapped on both sides, so exactly one of them sees it
 * set: if hart_post did, its IPI is on the way, and the hart waits for it
 * here rather than let it land in the command (a pending IPI ends a suspend
 * at once).  Without sie.SSIE no IPI could wake it, so it spins, as it does
 * while spin_secondaries() is on.
 */
static volatile bool secondaries_spin;

static void idle_wait(struct hart *h)
{
	if (secondaries_spin || !(csr_read(CSR_SIE) & SIE_SSIE))
		return;
	local_irq_disable();
	__atomic_store_n(&h->sleeping, 1, __ATOMIC_SEQ_CST);
	if (h->done_seq == h->cmd_seq && !secondaries_spin)
		__asm__ __volatile__("wfi");
	if (!__atomic_exchange_n(&h->sleeping, 0, __ATOMIC_SEQ_CST))
		while (!(csr_read(CSR_SIP) & SIP_SSIP))
			;
	local_irq_enable();
}

static void wake(unsigned long hartid)
{
	if (__atomic_exchange_n(&harts[hartid].sleeping, 0, __ATOMIC_SEQ_CST))
		sbi_send_ipi(1, hartid);
}

void spin_secondaries(bool on)
{
	unsigned int i;

	secondaries_spin = on;
	mb();
	if (!on)
		return;
	for (i = 0; i < nr_secondaries; i++)
		wake(secondaries[i]);	/* to spin from now on */
}

/* start.S jumps here with a0 = hartid, a1 = opaque, after hart_start
 * and after a non-retentive resume. Records what the hart found, so
 * that the boot hart can check it, then serves the mailbox forever. */
void __attribute__((noreturn))
secondary_main(unsigned long hartid, unsigned long opaque)
{
	struct hart *h = &harts[hartid];

	h->entry_a0 = hartid;
	h->entry_a1 = opaque;
	h->entry_satp = csr_read(CSR_SATP);
	h->entry_sstatus = csr_read(CSR_SSTATUS);
	h->entry_mhartid_trap = try_read_mhartid();
	csr_write(CSR_SIE, 0);
	sbi_set_timer(~0ULL);	/* a timer left armed by a suspend */
	/* A command still open here ended by coming back through the
	 * entry point: a stop, or a non-retentive suspend. */
	if (h->cmd_seq != h->done_seq) {
		h->ret_error = ERR_REENTERED;
		h->ret_value = 0;
		mb();
		h->done_seq = h->cmd_seq;
	}
	mb();
	h->entries++;
	mb();
	csr_write(CSR_SIE, SIE_SSIE);
	local_irq_enable();
	for (;;)
		if (h->done_seq != h->cmd_seq)
			run_command(h);
		else
			idle_wait(h);
}

void hart_post(unsigned long hartid, unsigned long cmd, unsigned long a0,
	       unsigned long a1, unsigned long a2, unsigned long a3)
{
	struct hart *h = &harts[hartid];

	h->cmd = cmd;
	h->arg[0] = a0;
	h->arg[1] = a1;
	h->arg[2] = a2;
	h->arg[3] = a3;
	mb();
	h->cmd_seq++;
	mb();
	wake(hartid);
}


struct sbiret hart_result(unsigned long hartid, unsigned long ms)
{
	struct hart *h = &harts[hartid];
	struct sbiret r = { ERR_NO_ANSWER, 0 };

	if (WAIT_UNTIL(h->done_seq == h->cmd_seq, ms * CROSS_HART_SLACK)) {
		mb();
		r.error = h->ret_error;
		r.value = h->ret_value;
	}
	return r;
}

struct sbiret hart_do(unsigned long hartid, unsigned long cmd,
		      unsigned long a0, unsigned long a1, unsigned long a2,
		      unsigned long a3, unsigned long ms)
{
	hart_post(hartid, cmd, a0, a1, a2, a3);
	return hart_result(hartid, ms);
}

struct sbiret wait_status(unsigned long hartid, unsigned long want,
			  unsigned long ms)
{
	struct sbiret r;

	WAIT_UNTIL((r = sbi_hart_status(hartid), !r.error && r.value == want),
		   ms * CROSS_HART_SLACK);
	return r;
}

bool wait_entry(unsigned long hartid, unsigned long old, unsigned long ms)
{
	bool ok = WAIT_UNTIL(harts[hartid].entries != old, ms * CROSS_HART_SLACK);

	mb();
	return ok;
}

unsigned long next_opaque(unsigned long hartid)
{
	static unsigned long seq;

	/* Different on every start, so a stale value cannot pass. */
	return 0x5eed000000000000UL | (++seq << 8) | hartid;
}

struct sbiret start_secondary(unsigned long hartid, unsigned long opaque,
			      bool *entered)
{
	struct hart *h = &harts[hartid];
	unsigned long old = h->entries;
	struct sbiret r;

	r = sbi_hart_start(hartid, (unsigned long)secondary_entry, opaque);
	*entered = !r.error && wait_entry(hartid, old, 1000);
	h->running = *entered;
	return r;
}

/* Starts every secondary hart; returns how many arrived. */
unsigned int start_all_secondaries(void)
{
	unsigned int i, up = 0;

	for (i = 0; i < nr_secondaries; i++) {
		bool entered;

		start_secondary(secondaries[i], next_opaque(secondaries[i]),
				&entered);
		up += entered;
	}
	return up;
}
