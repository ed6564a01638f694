/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The SBI debug triggers extension "DBTR" (lib/sbi/sbi_dbtr.c): S-mode
 * borrows the hart's Sdtrig triggers through the firmware.  Logical trigger
 * index i is hardware trigger i (tselect = i); the firmware keeps the
 * S-mode view of each trigger here, in the hart's scratch.
 */
#ifndef TALLY_SBI_DBTR_H
#define TALLY_SBI_DBTR_H

#include <stdbool.h>

/* Triggers handled per hart; more on a hart are left unused. */
#define DBTR_MAX_TRIGGERS	16

struct dbtr_trigger {
	unsigned long state;	/* trig_state; 0 = free */
	unsigned long tdata1;	/* as S-mode installed it (modes cleared while disabled) */
	unsigned long tdata2;
	unsigned long tdata3;
};

struct dbtr_hart {
	unsigned int nr_trig;				/* trig_max, probed */
	unsigned short types[DBTR_MAX_TRIGGERS];	/* bit t: supports type t; 0 = unusable */
	bool shmem_on;
	unsigned long shmem;				/* physical address when shmem_on */
	struct dbtr_trigger trig[DBTR_MAX_TRIGGERS];
};

#endif
