# QEMU virt: make PLATFORM=virt (the same image as PLATFORM=generic).
FW_TEXT_START	?= 0x80000000
FW_JUMP_ADDR	?= 0x80200000
QEMU_MACHINE	?= virt
QEMU_SMP	?= 4
