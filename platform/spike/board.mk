# QEMU spike: make PLATFORM=spike.  As on virt, QEMU loads -bios at the
# start of RAM and a -kernel at the next 2 MiB boundary after it.
FW_TEXT_START	?= 0x80000000
FW_JUMP_ADDR	?= 0x80200000
QEMU_MACHINE	?= spike
QEMU_SMP	?= 4
