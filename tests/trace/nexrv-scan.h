/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Forced into NexRv's compile by tests/trace/nexrv-xcheck.sh (gcc -include):
 * NexRv's calls to sscanf go to nexrv_sscanf (nexrv-scan.c), which reads the
 * one format NexRv parses a line of PCSEQ or PCINFO with ("%" SCNx64) itself
 * and hands every other call to vsscanf.  NexRv's sources are used as they
 * are; stdio.h comes first so that their own #include <stdio.h> declares
 * nothing the macro would rename.
 */
#ifndef NEXRV_SCAN_H
#define NEXRV_SCAN_H
#include <stdio.h>

int nexrv_sscanf(const char *s, const char *format, ...);
#define sscanf nexrv_sscanf

#endif
