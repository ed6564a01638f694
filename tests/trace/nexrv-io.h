/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Forced into NexRv's compile by tests/trace/nexrv-xcheck.sh (gcc -include):
 * NexRv's calls to sscanf and fprintf go to nexrv-io.c, which does the ones
 * NexRv makes for every instruction itself (reading a PCSEQ or PCINFO line's
 * address, writing a decoded address) and hands every other call to glibc.
 * NexRv's sources are used as they are; stdio.h comes first so that their
 * own #include <stdio.h> declares nothing the macros would rename.
 */
#ifndef NEXRV_IO_H
#define NEXRV_IO_H
#include <stdio.h>

int nexrv_sscanf(const char *s, const char *format, ...);
int nexrv_fprintf(FILE *f, const char *format, ...);
#define sscanf nexrv_sscanf
#define fprintf nexrv_fprintf

#endif
