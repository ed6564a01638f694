/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Included before Linux 6.1's tools/include/nolibc for the rv32 test init.
 * That nolibc predates rv32 support: a few of its wrappers name syscalls a
 * 32-bit kernel without time32 calls does not have. init-rv32.c calls none
 * of them; they only have to compile, so they get a number the kernel
 * answers with -ENOSYS.
 */
#include <asm/unistd.h>

#define TALLY_NO_SYSCALL (-1)
#ifndef __NR_gettimeofday
#define __NR_gettimeofday TALLY_NO_SYSCALL
#endif
#ifndef __NR_lseek
#define __NR_lseek TALLY_NO_SYSCALL
#endif
#ifndef __NR_ppoll
#define __NR_ppoll TALLY_NO_SYSCALL
#endif
#ifndef __NR_newfstatat
#define __NR_newfstatat TALLY_NO_SYSCALL
#endif
#ifndef __NR_wait4
#define __NR_wait4 TALLY_NO_SYSCALL
#endif
#ifndef __NR_select
#ifndef __NR_pselect6
#define __NR_pselect6 TALLY_NO_SYSCALL
#endif
#endif
