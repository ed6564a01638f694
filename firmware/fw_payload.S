/* SPDX-License-Identifier: BSD-2-Clause */
/* The payload binary (FW_PAYLOAD_PATH), placed by the linker script. */
	.section .payload, "ax", %progbits
	.align	12
	.globl	_payload_start
_payload_start:
	.incbin	FW_PAYLOAD_PATH_STR
	.globl	_payload_end
_payload_end:
