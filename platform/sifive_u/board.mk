# QEMU sifive_u (FU540): make PLATFORM=sifive_u.  QEMU loads -bios at the
# start of RAM and a -kernel at the next 2 MiB boundary after it.
FW_TEXT_START	?= 0x80000000
FW_JUMP_ADDR	?= 0x80200000
QEMU_MACHINE	?= sifive_u
# hart 0 is the E51, 1-4 the U54s
QEMU_SMP	?= 5
# make run-sbi: the payload checks that hart 0 is no HSM target
QEMU_APPEND	?= parked=0
