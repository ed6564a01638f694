// SPDX-License-Identifier: BSD-2-Clause
/*
 * Debug triggers extension "DBTR" (SBI 3.0, EID 0x44425452): S-mode
 * installs breakpoints and watchpoints on the hart's Sdtrig triggers
 * through the firmware, which alone can write tdata1..3.
 *
 * Logical trigger index i is hardware trigger i.  Every configuration from
 * S-mode is checked before anything is written: only mcontrol (type 2) and
 * mcontrol6 (type 6), action 0 (a breakpoint exception, which medeleg hands
 * straight to S-mode), never dmode, never the M bit, and a chain must end
 * inside the same batch.  A whole batch is checked before the first trigger
 * is programmed, and a batch the hardware cannot hold (read back differs:
 * an unimplemented bit) is rolled back, so an error leaves nothing behind.
 *
 * All state is the calling hart's own (struct dbtr_hart in its scratch):
 * no locks.  Shared-memory entries are copied in once, so S-mode changing
 * them during the call cannot make a checked value differ from a used one.
 */
#include <tally/hart.h>
#include <tally/platform.h>
#include <tally/sbi.h>

#define ENTRY_BYTES	(SBI_DBTR_ENTRY_WORDS * sizeof(unsigned long))
#define MODE_BITS_ALL	(MCONTROL_U | MCONTROL_S | MCONTROL6_VU | MCONTROL6_VS)

/* One shared-memory entry: idx or trig_state, then tdata1..3. */
struct dbtr_entry {
	unsigned long word0;
	unsigned long tdata1;
	unsigned long tdata2;
	unsigned long tdata3;
};

static struct dbtr_hart *dbtr_me(void)
{
	return &this_hart()->dbtr;
}

static unsigned long tdata1_type(unsigned long tdata1)
{
	return tdata1 >> TDATA1_TYPE_SHIFT;
}

/* The mode-enable bits a trigger of this type has. */
static unsigned long mode_mask(unsigned long tdata1)
{
	if (tdata1_type(tdata1) == TDATA1_TYPE_MCONTROL6)
		return MODE_BITS_ALL;
	return MCONTROL_U | MCONTROL_S;
}

/* The hit bits: mcontrol's hit (20); mcontrol6's hit0 (22) and hit1 (25). */
static unsigned long hit_bits(unsigned long tdata1)
{
	if (tdata1_type(tdata1) == TDATA1_TYPE_MCONTROL6)
		return (1UL << 22) | (1UL << 25);
	return 1UL << 20;
}

/* trig_state of a freshly installed or updated trigger. */
static unsigned long state_of(unsigned long tdata1)
{
	unsigned long modes = tdata1 & mode_mask(tdata1);
	unsigned long s = SBI_DBTR_STATE_MAPPED;

	s |= modes & MCONTROL_U ? SBI_DBTR_STATE_U : 0;
	s |= modes & MCONTROL_S ? SBI_DBTR_STATE_S : 0;
	s |= modes & MCONTROL6_VU ? SBI_DBTR_STATE_VU : 0;
	s |= modes & MCONTROL6_VS ? SBI_DBTR_STATE_VS : 0;
	return s;
}

/* tdata1 with the mode-enable bits taken from the saved copy in state. */
static unsigned long modes_from_state(unsigned long tdata1, unsigned long state)
{
	unsigned long modes = 0;

	modes |= state & SBI_DBTR_STATE_U ? MCONTROL_U : 0;
	modes |= state & SBI_DBTR_STATE_S ? MCONTROL_S : 0;
	modes |= state & SBI_DBTR_STATE_VU ? MCONTROL6_VU : 0;
	modes |= state & SBI_DBTR_STATE_VS ? MCONTROL6_VS : 0;
	return (tdata1 & ~mode_mask(tdata1)) | (modes & mode_mask(tdata1));
}

/*
 * Whether S-mode may have this configuration at all: a type Tally knows
 * how to make safe, a breakpoint exception as the action, no debug mode,
 * no firing in M-mode.
 */
static bool config_allowed(unsigned long tdata1)
{
	unsigned long type = tdata1_type(tdata1);

	if (type != TDATA1_TYPE_MCONTROL && type != TDATA1_TYPE_MCONTROL6)
		return false;
	return !(tdata1 & (TDATA1_DMODE | MCONTROL_M | MCONTROL_ACTION_MASK));
}

/* ---- the hardware ---------------------------------------------------- */

/* Trigger idx never fires: as disabled as this hart can make it. */
static void hw_clear(unsigned int idx)
{
	unsigned long left;

	csr_write(CSR_TSELECT, idx);
	csr_write(CSR_TDATA1, 0);
	/* a hart may ignore type 0 (QEMU 7.2 does): keep the type, enable nothing */
	left = csr_read(CSR_TDATA1);
	if (tdata1_type(left) != TDATA1_TYPE_NONE && !(left & TDATA1_DMODE))
		csr_write(CSR_TDATA1, tdata1_type(left) << TDATA1_TYPE_SHIFT);
	csr_write(CSR_TDATA2, 0);
	csr_write_guarded(CSR_TDATA3, 0);
}

/* Programs trigger idx; false if the hart did not keep every bit. */
static bool hw_program(unsigned int idx, unsigned long tdata1, unsigned long tdata2,
		       unsigned long tdata3)
{
	bool ok = true, read_ok;

	hw_clear(idx);
	csr_write(CSR_TDATA2, tdata2);
	if (tdata3)		/* tdata3 may not exist; 0 needs no tdata3 */
		ok = csr_write_guarded(CSR_TDATA3, tdata3) &&
		     csr_read_guarded(CSR_TDATA3, &read_ok) == tdata3 && read_ok;
	csr_write(CSR_TDATA1, tdata1);
	return ok && !((csr_read(CSR_TDATA1) ^ tdata1) & ~hit_bits(tdata1)) &&
	       csr_read(CSR_TDATA2) == tdata2;
}

/* Rewrites tdata1 of an installed trigger (enable, disable). */
static void hw_set_tdata1(unsigned int idx, unsigned long tdata1)
{
	csr_write(CSR_TSELECT, idx);
	csr_write(CSR_TDATA1, tdata1);
}

/* The types the selected trigger supports (bit t = type t); 0: none, or not ours. */
static unsigned short hw_types(void)
{
	unsigned long info, tdata1;
	bool ok;

	info = csr_read_guarded(CSR_TINFO, &ok);
	tdata1 = csr_read(CSR_TDATA1);
	if (tdata1 & TDATA1_DMODE)
		return 0;		/* the external debugger's */
	if (!ok)			/* no tinfo: the type it has now is the one */
		info = 1UL << tdata1_type(tdata1);
	info &= TINFO_INFO_MASK;
	return info == 1 ? 0 : (unsigned short)info;
}

/* trig_max: tselect keeps every value below the number of triggers. */
static void hw_probe(struct dbtr_hart *d)
{
	bool ok;

	d->nr_trig = 0;
	for (unsigned int i = 0; i < DBTR_MAX_TRIGGERS; i++) {
		if (!csr_write_guarded(CSR_TSELECT, i) ||
		    csr_read_guarded(CSR_TSELECT, &ok) != i || !ok)
			break;
		d->types[i] = hw_types();
		if (!d->types[i] && !(csr_read(CSR_TDATA1) & TDATA1_DMODE))
			break;		/* tinfo says: no trigger here */
		d->nr_trig = i + 1;
	}
}

/*
 * Per-hart hook: probes this hart's triggers, clears every one and forgets
 * what S-mode had installed and its shared memory: at boot and at every
 * HSM start (S-mode's triggers do not outlive a start).
 */
static void sbi_dbtr_hart_init(void)
{
	struct dbtr_hart *d = dbtr_me();

	hw_probe(d);
	for (unsigned int i = 0; i < d->nr_trig; i++) {
		if (d->types[i])
			hw_clear(i);
		d->trig[i] = (struct dbtr_trigger){ 0 };
	}
	d->shmem_on = false;
	d->shmem = 0;
}

/*
 * Non-retentive suspend: the hardware triggers are cleared before the
 * wait (a real non-retentive state loses them; QEMU would keep them, so
 * the restore below is exercised on every board) and programmed again
 * from the firmware's copy on resume.  The shared memory is kept.
 */
static void sbi_dbtr_hart_suspend(void)
{
	struct dbtr_hart *d = dbtr_me();

	for (unsigned int i = 0; i < d->nr_trig; i++)
		if (d->types[i])
			hw_clear(i);
}

static void sbi_dbtr_hart_resume(void)
{
	struct dbtr_hart *d = dbtr_me();

	for (unsigned int i = 0; i < d->nr_trig; i++) {
		const struct dbtr_trigger *t = &d->trig[i];

		/* the hart held exactly this before the suspend */
		if (t->state & SBI_DBTR_STATE_MAPPED)
			hw_program(i, t->tdata1, t->tdata2, t->tdata3);
	}
}

/* ---- shared memory ----------------------------------------------------- */

static volatile unsigned long *shmem_entry(const struct dbtr_hart *d, unsigned long i)
{
	return (volatile unsigned long *)(d->shmem + i * ENTRY_BYTES);
}

static void shmem_copy_in(const struct dbtr_hart *d, struct dbtr_entry *e,
			  unsigned long count)
{
	for (unsigned long i = 0; i < count; i++) {
		volatile unsigned long *w = shmem_entry(d, i);

		e[i] = (struct dbtr_entry){ w[0], w[1], w[2], w[3] };
	}
}

static struct sbiret dbtr_set_shmem(unsigned long lo, unsigned long hi, unsigned long flags)
{
	struct dbtr_hart *d = dbtr_me();
	unsigned long len;

	if (flags)
		return sbi_err(SBI_ERR_INVALID_PARAM);
	if (lo == ~0UL && hi == ~0UL) {
		d->shmem_on = false;
		return sbi_ok(0);
	}
	if (lo & (sizeof(unsigned long) - 1))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	/* at least one entry: a hart without triggers still gets an honest answer */
	len = (d->nr_trig ? d->nr_trig : 1) * ENTRY_BYTES;
	if (!memmap_smode_range_ok(&platform.mem, lo, hi, len))
		return sbi_err(SBI_ERR_INVALID_ADDRESS);
	d->shmem = lo;
	d->shmem_on = true;
	return sbi_ok(0);
}

/* ---- the calls --------------------------------------------------------- */

static struct sbiret dbtr_num_triggers(unsigned long tdata1)
{
	struct dbtr_hart *d = dbtr_me();
	unsigned long n = 0;

	if (!tdata1)
		return sbi_ok(d->nr_trig);
	if (!config_allowed(tdata1))
		return sbi_ok(0);
	for (unsigned int i = 0; i < d->nr_trig; i++)
		if (d->types[i] & (1U << tdata1_type(tdata1)))
			n++;
	return sbi_ok(n);
}

static struct sbiret dbtr_read(unsigned long base, unsigned long count)
{
	struct dbtr_hart *d = dbtr_me();

	if (!d->shmem_on)
		return sbi_err(SBI_ERR_NO_SHMEM);
	/* the spec's bound, trig_idx_base + trig_count >= trig_max, without overflow */
	if (base >= d->nr_trig || count >= d->nr_trig - base)
		return sbi_err(SBI_ERR_BAD_RANGE);
	for (unsigned long i = 0; i < count; i++) {
		const struct dbtr_trigger *t = &d->trig[base + i];
		volatile unsigned long *w = shmem_entry(d, i);

		w[0] = t->state;
		w[1] = t->tdata1;
		w[2] = t->tdata2;
		w[3] = t->tdata3;
	}
	return sbi_ok(0);
}

static struct sbiret fail_at(long error, unsigned long i)
{
	return (struct sbiret){ error, i };
}

/*
 * Chooses hardware triggers for the batch: each chain (entries linked by
 * the chain bit) gets free, consecutive triggers that support its types.
 * Fills hw[]; returns the index of the first entry it could not place, or
 * count.
 */
static unsigned long place_batch(const struct dbtr_hart *d, const struct dbtr_entry *e,
				 unsigned long count, unsigned int *hw)
{
	bool used[DBTR_MAX_TRIGGERS];
	unsigned long first, len;

	for (unsigned int j = 0; j < d->nr_trig; j++)
		used[j] = d->trig[j].state & SBI_DBTR_STATE_MAPPED;
	for (first = 0; first < count; first += len) {
		unsigned int j, k;

		for (len = 1; e[first + len - 1].tdata1 & MCONTROL_CHAIN; len++)
			;	/* checked: the last entry does not chain */
		for (j = 0; j + len <= d->nr_trig; j++) {
			for (k = 0; k < len; k++)
				if (used[j + k] ||
				    !(d->types[j + k] & (1U << tdata1_type(e[first + k].tdata1))))
					break;
			if (k == len)
				break;
		}
		if (j + len > d->nr_trig)
			return first;
		for (k = 0; k < len; k++) {
			used[j + k] = true;
			hw[first + k] = j + k;
		}
	}
	return count;
}

static struct sbiret dbtr_install(unsigned long count)
{
	struct dbtr_hart *d = dbtr_me();
	struct dbtr_entry e[DBTR_MAX_TRIGGERS];
	unsigned int hw[DBTR_MAX_TRIGGERS];
	unsigned long i, bad;

	if (!d->shmem_on)
		return sbi_err(SBI_ERR_NO_SHMEM);
	if (count >= d->nr_trig)
		return sbi_err(SBI_ERR_BAD_RANGE);
	shmem_copy_in(d, e, count);
	for (i = 0; i < count; i++) {
		e[i].tdata1 &= ~hit_bits(e[i].tdata1);
		if (!config_allowed(e[i].tdata1))
			return fail_at(SBI_ERR_INVALID_PARAM, i);
	}
	if (count && (e[count - 1].tdata1 & MCONTROL_CHAIN))
		return fail_at(SBI_ERR_INVALID_PARAM, count - 1);
	bad = place_batch(d, e, count, hw);
	if (bad < count)
		return fail_at(SBI_ERR_FAILED, bad);

	for (i = 0; i < count; i++) {
		if (!hw_program(hw[i], e[i].tdata1, e[i].tdata2, e[i].tdata3)) {
			for (unsigned long k = 0; k <= i; k++)
				hw_clear(hw[k]);
			return fail_at(SBI_ERR_NOT_SUPPORTED, i);
		}
	}
	for (i = 0; i < count; i++) {
		d->trig[hw[i]] = (struct dbtr_trigger){ state_of(e[i].tdata1), e[i].tdata1,
							 e[i].tdata2, e[i].tdata3 };
		shmem_entry(d, i)[0] = hw[i];
	}
	return sbi_ok(0);
}

static struct sbiret dbtr_update(unsigned long count)
{
	struct dbtr_hart *d = dbtr_me();
	struct dbtr_entry e[DBTR_MAX_TRIGGERS];
	unsigned long i;

	if (!d->shmem_on)
		return sbi_err(SBI_ERR_NO_SHMEM);
	if (count >= d->nr_trig)
		return sbi_err(SBI_ERR_BAD_RANGE);
	shmem_copy_in(d, e, count);
	for (i = 0; i < count; i++) {
		unsigned long idx = e[i].word0, old;

		e[i].tdata1 &= ~hit_bits(e[i].tdata1);
		if (idx >= d->nr_trig)
			return fail_at(SBI_ERR_INVALID_PARAM, i);
		if (!(d->trig[idx].state & SBI_DBTR_STATE_MAPPED))
			return fail_at(SBI_ERR_FAILED, i);
		old = d->trig[idx].tdata1;
		if (!config_allowed(e[i].tdata1) ||
		    tdata1_type(e[i].tdata1) != tdata1_type(old) ||
		    (e[i].tdata1 & MCONTROL_CHAIN) != (old & MCONTROL_CHAIN))
			return fail_at(SBI_ERR_INVALID_PARAM, i);
	}

	for (i = 0; i < count; i++) {
		if (!hw_program(e[i].word0, e[i].tdata1, e[i].tdata2, e[i].tdata3)) {
			/* put back what the hardware had: it held those before */
			for (unsigned long k = 0; k <= i; k++) {
				const struct dbtr_trigger *t = &d->trig[e[k].word0];

				hw_program(e[k].word0, t->tdata1, t->tdata2, t->tdata3);
			}
			return fail_at(SBI_ERR_NOT_SUPPORTED, i);
		}
	}
	for (i = 0; i < count; i++)
		d->trig[e[i].word0] = (struct dbtr_trigger){ state_of(e[i].tdata1), e[i].tdata1,
							      e[i].tdata2, e[i].tdata3 };
	return sbi_ok(0);
}

/*
 * The triggers base + i for each bit i of mask must all be installed;
 * written so that base + i cannot overflow.
 */
static bool mask_valid(const struct dbtr_hart *d, unsigned long base, unsigned long mask)
{
	for (unsigned int i = 0; i < __riscv_xlen; i++) {
		if (!((mask >> i) & 1))
			continue;
		if (base >= d->nr_trig || i >= d->nr_trig - base)
			return false;
		if (!(d->trig[base + i].state & SBI_DBTR_STATE_MAPPED))
			return false;
	}
	return true;
}

enum mask_op { OP_UNINSTALL, OP_ENABLE, OP_DISABLE };

static struct sbiret dbtr_mask_op(unsigned long base, unsigned long mask, enum mask_op op)
{
	struct dbtr_hart *d = dbtr_me();

	if (!mask_valid(d, base, mask))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	for (unsigned int i = 0; i < __riscv_xlen; i++) {
		struct dbtr_trigger *t;
		unsigned int idx;

		if (!((mask >> i) & 1))
			continue;
		idx = (unsigned int)(base + i);
		t = &d->trig[idx];
		switch (op) {
		case OP_UNINSTALL:
			hw_clear(idx);
			*t = (struct dbtr_trigger){ 0 };
			break;
		case OP_ENABLE:
			t->tdata1 = modes_from_state(t->tdata1, t->state);
			hw_set_tdata1(idx, t->tdata1);
			break;
		case OP_DISABLE:
			t->tdata1 &= ~mode_mask(t->tdata1);
			hw_set_tdata1(idx, t->tdata1);
			break;
		}
	}
	return sbi_ok(0);
}

static struct sbiret dbtr_handle(unsigned long fid, const unsigned long *args,
				 struct trap_frame *tf)
{
	(void)tf;
	switch (fid) {
	case SBI_EXT_DBTR_NUM_TRIGGERS:
		return dbtr_num_triggers(args[0]);
	case SBI_EXT_DBTR_SET_SHMEM:
		return dbtr_set_shmem(args[0], args[1], args[2]);
	case SBI_EXT_DBTR_READ_TRIGGERS:
		return dbtr_read(args[0], args[1]);
	case SBI_EXT_DBTR_INSTALL_TRIGGERS:
		return dbtr_install(args[0]);
	case SBI_EXT_DBTR_UPDATE_TRIGGERS:
		return dbtr_update(args[0]);
	case SBI_EXT_DBTR_UNINSTALL_TRIGGERS:
		return dbtr_mask_op(args[0], args[1], OP_UNINSTALL);
	case SBI_EXT_DBTR_ENABLE_TRIGGERS:
		return dbtr_mask_op(args[0], args[1], OP_ENABLE);
	case SBI_EXT_DBTR_DISABLE_TRIGGERS:
		return dbtr_mask_op(args[0], args[1], OP_DISABLE);
	default:
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	}
}

/* Asked on the cold-boot hart before its hart_init_local(): probe it here. */
static bool dbtr_available(void)
{
	struct dbtr_hart *d = dbtr_me();

	hw_probe(d);
	for (unsigned int i = 0; i < d->nr_trig; i++)
		if (d->types[i] & ((1U << TDATA1_TYPE_MCONTROL) | (1U << TDATA1_TYPE_MCONTROL6)))
			return true;
	return false;
}

const struct sbi_extension sbi_ext_dbtr = {
	.eid_first = SBI_EXT_DBTR,
	.eid_last = SBI_EXT_DBTR,
	.name = "DBTR",
	.available = dbtr_available,
	.handle = dbtr_handle,
	.hart_init = sbi_dbtr_hart_init,
	.hart_suspend = sbi_dbtr_hart_suspend,
	.hart_resume = sbi_dbtr_hart_resume,
};
