/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The default fw_payload when FW_PAYLOAD_PATH is not given: an S-mode
 * program that prints a line through SBI DBCN and shuts the machine down
 * through SRST.  Enough to show that an image boots.
 */
	.section .text
	.option norvc
	.globl _start
_start:
	la	a1, message
	la	a0, message_end
	sub	a0, a0, a1
	li	a2, 0
	li	a6, 0			/* DBCN console_write */
	li	a7, 0x4442434E
	ecall
	li	a0, 0			/* shutdown */
	li	a1, 0
	li	a6, 0
	li	a7, 0x53525354		/* SRST */
	ecall
park:
	wfi
	j	park

	.section .rodata
message:
	.ascii	"Tally test payload: hello from S-mode\n"
message_end:
