/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A test-and-set spinlock for the few cross-hart paths: the console
 * (console.c) and DBCN's writes (sbi_dbcn.c), hart_start's "still
 * stopped?" (hart_scratch.hsm_lock, sbi_hsm.c), the one sender of a
 * remote fence (hart_scratch.rfence_lock, sbi_rfence.c, by trylock while
 * serving its own requests) and the SSE global events (sbi_sse.c).
 */
#ifndef TALLY_SPINLOCK_H
#define TALLY_SPINLOCK_H

struct spinlock {
	int locked;
};

static inline int spin_trylock(struct spinlock *l)
{
	return __atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE) == 0;
}

static inline void spin_lock(struct spinlock *l)
{
	while (!spin_trylock(l))
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			;
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#endif
