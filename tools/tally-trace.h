/* SPDX-License-Identifier: BSD-2-Clause */
/* tally-trace: shared declarations of the host tool's files. */
#ifndef TALLY_TRACE_TOOL_H
#define TALLY_TRACE_TOOL_H
#include <stdbool.h>
#include <stdint.h>
#include <tally/ntrace.h>

extern unsigned image_xlen;
int image_load_elf(const char *path);
int image_load_raw(const char *path, uint64_t base);
int image_load_words(const char *path);
int image_save_words(const char *path);
void image_add_word(uint64_t addr, uint32_t word, unsigned len);
void image_apply_words(uint64_t index);
size_t image_changes(void);
uint64_t image_next_change(void);
bool image_words_pending(void);
extern uint64_t image_word_index;	/* index of the next instruction (record) */
int image_load_symbols(const char *path);
bool image_covers(uint64_t addr);
const struct ntrace_insn *image_lookup(void *ctx, uint64_t addr);
const struct ntrace_insn *image_range(void *ctx, uint64_t addr, uint64_t *base, uint64_t *end);
const char *image_symbol(uint64_t addr, uint64_t *start);

#endif
