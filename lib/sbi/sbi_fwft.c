// SPDX-License-Identifier: BSD-2-Clause
/*
 * Firmware features extension "FWFT": S-mode turns hart features that
 * M-mode controls on and off, and may lock them until the hart's next
 * reset.  All six features of SBI 3.0 are local (per hart):
 *
 *   MISALIGNED_EXC_DELEG   medeleg bits of misaligned load/store
 *   LANDING_PAD            menvcfg.LPE   (Zicfilp)
 *   SHADOW_STACK           menvcfg.SSE   (Zicfiss)
 *   DOUBLE_TRAP            menvcfg.DTE   (Ssdbltrp)
 *   PTE_AD_HW_UPDATING     menvcfg.ADUE  (Svadu)
 *   POINTER_MASKING_PMLEN  menvcfg.PMM   (Ssnpm; PMLEN 0, 7 or 16)
 *
 * Which of them the hart has is found at boot by writing the bit and
 * reading it back (a CSR drops bits it does not implement); a feature
 * the hart lacks answers NOT_SUPPORTED.  The harts are assumed to be
 * alike, as for the rest of hart_features.  Each feature's value is kept
 * here per hart: get answers from it, a non-retentive suspend puts it
 * back into the CSRs, a hart reset (boot, HSM start) sets it to the
 * reset value, 0 for all six, and clears the locks.
 */
#include <tally/console.h>
#include <tally/sbi_fwft.h>
#include <tally/hart.h>
#include <tally/init.h>
#include <tally/sbi.h>

#define MISALIGNED_DELEG	((1UL << CAUSE_MISALIGNED_LOAD) | (1UL << CAUSE_MISALIGNED_STORE))

static unsigned long fwft_supported;	/* bit f: the harts have feature f */
static bool pmlen7_ok, pmlen16_ok;	/* PMLEN values the harts take */

/* The menvcfg bits of the features that are one bit of menvcfg. */
static const unsigned long long fwft_menvcfg_bit[FWFT_FEATURES] = {
	[SBI_FWFT_LANDING_PAD] = MENVCFG_LPE,
	[SBI_FWFT_SHADOW_STACK] = MENVCFG_SSE,
	[SBI_FWFT_DOUBLE_TRAP] = MENVCFG_DTE,
	[SBI_FWFT_PTE_AD_HW_UPDATING] = MENVCFG_ADUE,
};

/* Whether menvcfg keeps 'bits' in the field 'field'; menvcfg is left as found. */
static bool menvcfg_keeps(unsigned long long field, unsigned long long bits)
{
	unsigned long long saved = menvcfg_read();
	bool kept;

	menvcfg_write((saved & ~field) | bits);
	kept = (menvcfg_read() & field) == bits;
	menvcfg_write(saved);
	return kept;
}

static bool medeleg_keeps(unsigned long bits)
{
	unsigned long saved = csr_read(medeleg);
	bool kept;

	csr_write(medeleg, saved | bits);
	kept = (csr_read(medeleg) & bits) == bits;
	csr_write(medeleg, saved);
	return kept;
}

/* Cold boot, boot hart (sbi_ecall_init): which features the hart has. */
static void fwft_probe(void)
{
	if (medeleg_keeps(MISALIGNED_DELEG))
		fwft_supported |= 1UL << SBI_FWFT_MISALIGNED_EXC_DELEG;
	if (!hart_features.has_menvcfg)
		return;
	for (unsigned int f = 0; f < FWFT_FEATURES; f++)
		if (fwft_menvcfg_bit[f] &&
		    menvcfg_keeps(fwft_menvcfg_bit[f], fwft_menvcfg_bit[f]))
			fwft_supported |= 1UL << f;
	pmlen7_ok = menvcfg_keeps(MENVCFG_PMM, MENVCFG_PMM_PMLEN_7);
	pmlen16_ok = menvcfg_keeps(MENVCFG_PMM, MENVCFG_PMM_PMLEN_16);
	if (pmlen7_ok || pmlen16_ok)
		fwft_supported |= 1UL << SBI_FWFT_POINTER_MASKING_PMLEN;
}

static unsigned long long pmm_of_pmlen(unsigned long pmlen)
{
	return pmlen == 16 ? MENVCFG_PMM_PMLEN_16 : pmlen == 7 ? MENVCFG_PMM_PMLEN_7 : 0;
}

/* Puts a (checked) value of feature f into the CSRs of this hart. */
static void fwft_apply(unsigned int f, unsigned long value)
{
	switch (f) {
	case SBI_FWFT_MISALIGNED_EXC_DELEG:
		if (value)
			csr_set(medeleg, MISALIGNED_DELEG);
		else
			csr_clear(medeleg, MISALIGNED_DELEG);
		break;
	case SBI_FWFT_POINTER_MASKING_PMLEN:
		menvcfg_write((menvcfg_read() & ~MENVCFG_PMM) | pmm_of_pmlen(value));
		break;
	default:
		if (value)
			menvcfg_write(menvcfg_read() | fwft_menvcfg_bit[f]);
		else
			menvcfg_write(menvcfg_read() & ~fwft_menvcfg_bit[f]);
		break;
	}
}

static void fwft_apply_all(const struct fwft_hart *h)
{
	for (unsigned int f = 0; f < FWFT_FEATURES; f++)
		if (fwft_supported >> f & 1)
			fwft_apply(f, h->value[f]);
}

/*
 * A feature's value at hart reset: 0, but for PTE_AD_HW_UPDATING the hart
 * set-up's choice (hart_ext.c), made before this from the devicetree: on
 * when it lists Svadu without Svade, where the binding says S-mode must
 * assume hardware A/D updating from boot.
 */
static unsigned long fwft_reset_value(unsigned int f)
{
	if (f == SBI_FWFT_PTE_AD_HW_UPDATING && fwft_supported >> f & 1)
		return (menvcfg_read() & MENVCFG_ADUE) != 0;
	return 0;
}

/* Hart reset (boot, HSM start): every feature to its reset value, unlocked. */
static void sbi_fwft_hart_init(void)
{
	struct fwft_hart *h = &this_hart()->fwft;

	for (unsigned int f = 0; f < FWFT_FEATURES; f++)
		h->value[f] = fwft_reset_value(f);
	h->locked = 0;
	fwft_apply_all(h);
}

/* After a non-retentive suspend: the CSRs get the features' values back (SBI spec). */
static void sbi_fwft_hart_resume(void)
{
	fwft_apply_all(&this_hart()->fwft);
}

/*
 * SBI_SUCCESS for a feature this hart has; NOT_SUPPORTED for one of the
 * spec's features it lacks; DENIED for reserved ids and platform-specific
 * ones (Tally defines none).
 */
static long fwft_feature_check(unsigned long feature)
{
	if (feature < FWFT_FEATURES)
		return fwft_supported >> feature & 1 ? SBI_SUCCESS : SBI_ERR_NOT_SUPPORTED;
	return SBI_ERR_DENIED;
}

static bool fwft_value_ok(unsigned long feature, unsigned long value)
{
	if (feature == SBI_FWFT_POINTER_MASKING_PMLEN)
		return value == 0 || (value == 7 && pmlen7_ok) || (value == 16 && pmlen16_ok);
	return value <= 1;
}

static struct sbiret fwft_set(unsigned long feature, unsigned long value,
			      unsigned long flags)
{
	struct fwft_hart *h = &this_hart()->fwft;
	long err = fwft_feature_check(feature);

	if (err)
		return sbi_err(err);
	if ((flags & ~SBI_FWFT_SET_FLAG_LOCK) || !fwft_value_ok(feature, value))
		return sbi_err(SBI_ERR_INVALID_PARAM);
	if (h->locked >> feature & 1)
		return sbi_err(SBI_ERR_DENIED_LOCKED);	/* even to the same value */
	fwft_apply(feature, value);
	h->value[feature] = value;
	if (flags & SBI_FWFT_SET_FLAG_LOCK)
		h->locked |= 1U << feature;
	return sbi_ok(0);
}

static struct sbiret fwft_get(unsigned long feature)
{
	long err = fwft_feature_check(feature);

	if (err)
		return sbi_err(err);
	return sbi_ok(this_hart()->fwft.value[feature]);
}

static struct sbiret fwft_handle(unsigned long fid, const unsigned long *args,
				 struct trap_frame *tf)
{
	(void)tf;
	/* feature is a uint32_t: its low 32 bits only; value and flags are whole */
	switch (fid) {
	case SBI_EXT_FWFT_SET:
		return fwft_set(sbi_arg_u32(args[0]), args[1], args[2]);
	case SBI_EXT_FWFT_GET:
		return fwft_get(sbi_arg_u32(args[0]));
	default:
		return sbi_err(SBI_ERR_NOT_SUPPORTED);
	}
}

void sbi_fwft_print_banner(void)
{
	static const char *const names[FWFT_FEATURES] = {
		"MISALIGNED_EXC_DELEG", "LANDING_PAD", "SHADOW_STACK",
		"DOUBLE_TRAP", "PTE_AD_HW_UPDATING", "POINTER_MASKING_PMLEN",
	};

	if (!fwft_supported)
		return;
	printf("FWFT features    :");
	for (unsigned int f = 0; f < FWFT_FEATURES; f++)
		if (fwft_supported >> f & 1)
			printf(" %s", names[f]);
	printf("\n");
}

/* Probes the boot hart; the extension is offered if any feature works. */
static bool fwft_available(void)
{
	fwft_probe();
	return fwft_supported;
}

const struct sbi_extension sbi_ext_fwft = {
	.eid_first = SBI_EXT_FWFT,
	.eid_last = SBI_EXT_FWFT,
	.name = "FWFT",
	.available = fwft_available,
	.handle = fwft_handle,
	.hart_init = sbi_fwft_hart_init,
	.hart_resume = sbi_fwft_hart_resume,
};
