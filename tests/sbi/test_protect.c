/* The firmware must protect itself from S-mode (PMP): a load from its
 * region has to fault, not return its code. */
#include "hart.h"
#include "test.h"

static unsigned long payload_word = 0x5a5a5a5a;

void test_protect(void)
{
	unsigned long val, cause;

	/* First the harness itself: a plain load must not trap. */
	cause = try_load((unsigned long)&payload_word, &val);
	check(!cause && val == payload_word, "protect",
	      "load from payload memory works (harness check)",
	      sfmt("scause=%lx value=%lx", cause, val));

	cause = try_load(FW_BASE, &val);
	check(cause == EXC_LOAD_ACCESS, "protect",
	      sfmt("load from firmware at %lx faults (scause 5)", FW_BASE),
	      cause ? sfmt("got scause=%lx", cause)
		    : sfmt("got data %lx, want load access fault", val));
}
