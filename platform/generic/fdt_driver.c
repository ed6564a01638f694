// SPDX-License-Identifier: BSD-2-Clause
/*
 * The driver tables of the generic platform (include/tally/fdt_driver.h):
 * every device class the devicetree picks a driver for by compatible
 * string (console, IPI, timer, reset).  The probes read the node and hand
 * the device to its driver (lib/utils) and to the console or struct
 * platform; the drivers themselves know nothing of the devicetree.  The
 * IMSIC's M-files, which no compatible string tells apart, come from the
 * AIA parse instead (imsic_ipi_probe).
 */
#include <libfdt.h>
#include <tally/aia.h>
#include <tally/console.h>
#include <tally/drivers.h>
#include <tally/fdt_driver.h>
#include <tally/fdt_helpers.h>
#include <tally/hartmask.h>
#include <tally/platform.h>
#include <tally/riscv.h>

#define GPIO_ACTIVE_LOW		1	/* flag cell of a "gpios" specifier */
#define GPIO_SPEC_CELLS		3	/* <&controller pin flags> */
#define HTIF_TOHOST_OFFSET	8	/* fromhost is at the node's address */

static bool node_matches(const void *fdt, int node, const struct fdt_driver *drv)
{
	for (const char *const *c = drv->compatible; *c; c++)
		if (!fdt_node_check_compatible(fdt, node, *c))
			return true;
	return false;
}

/* The first driver of the table that knows this node, or NULL. */
static const struct fdt_driver *driver_of(const void *fdt, int node,
					  const struct fdt_driver *const *table)
{
	for (; *table; table++)
		if (node_matches(fdt, node, *table))
			return *table;
	return NULL;
}

#define TABLE_MAX	8	/* drivers a class's table holds (more are never probed) */

/*
 * The device of each driver of the table, as fdt_find_compatible() finds
 * it (the first enabled node its first compatible string names, else its
 * second, ...), for the whole table in one walk of the tree: a walk is a
 * large part of the boot (up to 700,000 instructions on QEMU virt's tree),
 * and a lookup per driver walked it once for each driver not found (and
 * the CLINT twice, for the IPI and the timer table).  With first_only the
 * walk stops at the first driver's first choice, which no other device
 * can come before; returns whether it stopped there.
 */
static bool find_devices(const void *fdt, const struct fdt_driver *const *table,
			 unsigned int n, int node_of[], bool first_only)
{
	unsigned int rank_of[TABLE_MAX];	/* which of its strings matched */
	int len;

	for (unsigned int d = 0; d < n; d++) {
		node_of[d] = -1;
		rank_of[d] = UINT32_MAX;
	}
	for (int node = fdt_next_node(fdt, -1, NULL); node >= 0;
	     node = fdt_next_node(fdt, node, NULL)) {
		const char *compat = fdt_getprop(fdt, node, "compatible", &len);

		for (unsigned int d = 0; compat && d < n; d++)
			for (unsigned int s = 0; table[d]->compatible[s] && s < rank_of[d]; s++)
				if (fdt_stringlist_contains(compat, len, table[d]->compatible[s]) &&
				    fdt_node_enabled(fdt, node)) {
					node_of[d] = node;
					rank_of[d] = s;
					break;
				}
		if (first_only && n && rank_of[0] == 0)
			return true;
	}
	return false;
}

/*
 * Probe the first device of the table's drivers, in table order: the
 * first driver's, else (it has none, or its probe refused it) the next
 * one's, and so on.
 */
static bool probe_first(const void *fdt, const struct fdt_driver *const *table)
{
	int node_of[TABLE_MAX];
	unsigned int n = 0;

	while (n < TABLE_MAX && table[n])
		n++;
	if (find_devices(fdt, table, n, node_of, true)) {
		if (!table[0]->probe(fdt, node_of[0], table[0]))
			return true;
		find_devices(fdt, table, n, node_of, false);	/* the others' devices too */
		node_of[0] = -1;				/* refused already */
	}
	for (unsigned int d = 0; d < n; d++)
		if (node_of[d] >= 0 && !table[d]->probe(fdt, node_of[d], table[d]))
			return true;
	return false;
}

/*
 * M-mode's devices (platform_add_mmode_dev, closed by PMP), each region
 * added once: the CLINT serves two classes (IPI and timer), HTIF two
 * (console and reset), and the second finds it added already.  The same
 * base with another size is another region (an ACLINT MSWI at a CLINT's
 * base, in a tree that has both).
 */
static bool mmode_dev_known(unsigned long base, unsigned long size)
{
	for (unsigned int i = 0; i < platform.nr_mmode_devs; i++)
		if (platform.mmode_dev[i].base == base && platform.mmode_dev[i].size == size)
			return true;
	return false;
}

/* reg[index] of the node, when it has a size and is not M-mode's already. */
static void mmode_reg(const void *fdt, int node, int index)
{
	unsigned long base, size;

	if (!fdt_reg(fdt, node, index, &base, &size) && size && !mmode_dev_known(base, size))
		platform_add_mmode_dev(base, size);
}

/* --- console --- */

static const struct console_device uart8250_console = {
	.name = "uart8250", .putc = uart8250_putc, .getc = uart8250_getc,
};

static int uart8250_probe(const void *fdt, int node, const struct fdt_driver *drv)
{
	unsigned long base;

	(void)drv;
	if (fdt_reg(fdt, node, 0, &base, NULL))
		return -1;
	uart8250_init(base, fdt_u32(fdt, node, "reg-shift", 0),
		      fdt_u32(fdt, node, "reg-io-width", 1),
		      fdt_u32(fdt, node, "clock-frequency", 0),
		      fdt_u32(fdt, node, "current-speed", 0));
	console_set_device(&uart8250_console);
	return 0;
}

static const struct console_device sifive_uart_console = {
	.name = "sifive,uart0", .putc = sifive_uart_putc, .getc = sifive_uart_getc,
};

static int sifive_uart_probe(const void *fdt, int node, const struct fdt_driver *drv)
{
	unsigned long base;

	(void)drv;
	if (fdt_reg(fdt, node, 0, &base, NULL))
		return -1;
	/* the UART's clock comes from the PRCI: keep the divisor set before us */
	sifive_uart_init(base, 0, 0);
	console_set_device(&sifive_uart_console);
	return 0;
}

static const struct console_device htif_console = {
	.name = "htif", .putc = htif_putc, .getc = htif_getc,
};

/*
 * QEMU 7.2 puts HTIF at the address of the devicetree's ucb,htif0 node
 * (fromhost at +0, tohost at +8) when the firmware image has no
 * tohost/fromhost symbols, which Tally's images do not have.  S-mode
 * uses the SBI console: PMP closes the device.  The console and the
 * reset share it: it is set up (and closed) once.
 */
static int htif_setup(const void *fdt, int node)
{
	unsigned long base, size;

	if (fdt_reg(fdt, node, 0, &base, &size))
		return -1;
	if (mmode_dev_known(base, size))
		return 0;		/* set up already, by the other class */
	htif_init(base + HTIF_TOHOST_OFFSET, base);
	platform_add_mmode_dev(base, size);
	return 0;
}

static int htif_console_probe(const void *fdt, int node, const struct fdt_driver *drv)
{
	(void)drv;
	if (htif_setup(fdt, node))
		return -1;
	console_set_device(&htif_console);
	return 0;
}

static const struct fdt_driver console_uart8250 = {
	.name = "uart8250",
	.compatible = (const char *const[]){ "ns16550a", "ns16550", "snps,dw-apb-uart", NULL },
	.probe = uart8250_probe,
};
static const struct fdt_driver console_sifive_uart = {
	.name = "sifive,uart0",
	.compatible = (const char *const[]){ "sifive,uart0", NULL },
	.probe = sifive_uart_probe,
};
static const struct fdt_driver console_htif = {
	.name = "htif",
	.compatible = (const char *const[]){ "ucb,htif0", NULL },
	.probe = htif_console_probe,
};

static const struct fdt_driver *const console_drivers[] = {
	&console_uart8250,
	&console_sifive_uart,
	&console_htif,
	NULL,
};

void fdt_driver_console_setup(const void *fdt)
{
	int node = platform_stdout_node(fdt);
	const struct fdt_driver *drv = node >= 0 ? driver_of(fdt, node, console_drivers) : NULL;

	if (drv && !drv->probe(fdt, node, drv))
		return;
	probe_first(fdt, console_drivers);	/* none: the firmware runs silent */
}

/* --- IPI and timer: the per-hart registers of the MSWI and the MTIMER --- */

/*
 * interrupts-extended = <&cpuN_intc irq>, ...: for every entry whose irq
 * matches, call add(hart index, base + stride * (its position among them));
 * a hart without an index is skipped (its position still counts).
 */
static void for_each_hart_context(const void *fdt, int node, uint32_t irq,
				  unsigned long base, unsigned long stride,
				  void (*add)(unsigned long, unsigned long))
{
	int len, n = 0;
	const fdt32_t *ie = fdt_getprop(fdt, node, "interrupts-extended", &len);

	/* cells of <&phandle irq> pairs */
	for (int i = 0; ie && i + 1 < len / (int)sizeof(*ie); i += 2) {
		if (fdt32_to_cpu(ie[i + 1]) != irq)
			continue;
		long hartid = fdt_hartid_of_intc(fdt, fdt32_to_cpu(ie[i]));
		unsigned long index = hartid >= 0 ? hart_map_index(&hart_map, (unsigned long)hartid)
						  : HART_INDEX_NONE;
		if (index != HART_INDEX_NONE)
			add(index, base + stride * n);
		n++;
	}
}

/* --- IPI --- */

/*
 * ACLINT MSWI, and the CLINT's software interrupts (its msip words are
 * the MSWI's, at the start of its one region): the IPIs, and the wake-up
 * of the harts that wait in _start for the end of cold boot.
 */
static int mswi_probe(const void *fdt, int node, const struct fdt_driver *drv)
{
	unsigned long base;

	if (fdt_reg(fdt, node, 0, &base, NULL))
		return -1;
	mmode_reg(fdt, node, 0);
	for_each_hart_context(fdt, node, IRQ_M_SOFT, base, MSWI_MSIP_STRIDE, mswi_add_hart);
	platform.ops.ipi_send = platform.ops.boot_wake = mswi_send;
	platform.ops.ipi_clear = platform.ops.boot_wake_clear = mswi_clear;
	platform.ipi_mip = MIP_MSIP;
	platform.ipi_name = drv->name;
	return 0;
}

/* The compatible lists are fdt_has_mswi()'s: _start's boot wait reads them too. */
static const struct fdt_driver ipi_aclint_mswi = {
	.name = "aclint-mswi",
	.compatible = fdt_mswi_compat,
	.probe = mswi_probe,
};
static const struct fdt_driver ipi_clint = {
	.name = "clint",
	.compatible = fdt_clint_compat,
	.probe = mswi_probe,
};

/* First found wins: a tree with both an ACLINT MSWI and a CLINT gets the MSWI. */
static const struct fdt_driver *const ipi_drivers[] = {
	&ipi_aclint_mswi,
	&ipi_clint,
	NULL,
};

static bool imsic_serves_every_hart(const struct imsic_desc *m)
{
	unsigned long h;

	for_each_hart_in(h, &platform.harts)
		if (!m->file[h])
			return false;
	return true;
}

/*
 * The IMSIC's M-files take the IPIs over (MEIP, IMSIC_IPI_ID) when every
 * hart has one; else the MSWI keeps them.  No compatible string tells an
 * M-level IMSIC node from an S-level one, nor which file is whose: the
 * AIA parse (lib/fdt/fdt_aia.c) reads that from interrupts-extended for
 * the APLIC anyway, so this probe takes its result instead of a node.
 * The MSWI stays the boot wake-up: an M-file delivers nothing before its
 * hart has set it up (imsic_hart_init).
 */
static void imsic_ipi_probe(const struct imsic_desc *m)
{
	unsigned long h;

	if (!imsic_serves_every_hart(m)) {
		printf("Tally: WARNING: IMSIC M-files do not cover every hart: IPIs through %s\n",
		       platform.ipi_name ? platform.ipi_name : "nothing");
		return;
	}
	for_each_hart_in(h, &platform.harts)
		imsic_add_hart(h, m->file[h]);
	imsic_set_num_ids(m->num_ids);
	platform.ops.ipi_send = imsic_ipi_send;
	platform.ops.ipi_clear = imsic_ipi_clear;
	platform.ops.irq_hart_init = imsic_hart_init;
	platform.ipi_mip = MIP_MEIP;
	platform.ipi_name = "imsic";
}

void fdt_driver_ipi_setup(const void *fdt, const struct imsic_desc *imsic_m)
{
	probe_first(fdt, ipi_drivers);
	if (imsic_m->present)
		imsic_ipi_probe(imsic_m);
}

/* --- machine timer --- */

static void mtimer_register(const struct fdt_driver *drv)
{
	platform.ops.timer_value = mtimer_value;
	platform.ops.timer_set = mtimer_set;
	platform.timer_name = drv->name;
}

/* ACLINT MTIMER: reg[0] is mtime, reg[1] the mtimecmp array (QEMU's layout). */
static int aclint_mtimer_probe(const void *fdt, int node, const struct fdt_driver *drv)
{
	unsigned long mtime, mtimecmp;

	if (fdt_reg(fdt, node, 0, &mtime, NULL) || fdt_reg(fdt, node, 1, &mtimecmp, NULL))
		return -1;
	mmode_reg(fdt, node, 0);
	mmode_reg(fdt, node, 1);
	mtimer_set_mtime(mtime);
	for_each_hart_context(fdt, node, IRQ_M_TIMER, mtimecmp, MTIMER_MTIMECMP_STRIDE,
			      mtimer_add_hart);
	mtimer_register(drv);
	return 0;
}

/* The CLINT's timer: mtimecmp array and mtime at fixed offsets in its one region. */
static int clint_mtimer_probe(const void *fdt, int node, const struct fdt_driver *drv)
{
	unsigned long base;

	if (fdt_reg(fdt, node, 0, &base, NULL))
		return -1;
	mmode_reg(fdt, node, 0);	/* a no-op when the CLINT carries the IPIs too */
	mtimer_set_mtime(base + CLINT_MTIME_OFFSET);
	for_each_hart_context(fdt, node, IRQ_M_TIMER, base + CLINT_MTIMECMP_OFFSET,
			      MTIMER_MTIMECMP_STRIDE, mtimer_add_hart);
	mtimer_register(drv);
	return 0;
}

static const struct fdt_driver timer_aclint_mtimer = {
	.name = "aclint-mtimer",
	.compatible = (const char *const[]){ "riscv,aclint-mtimer", NULL },
	.probe = aclint_mtimer_probe,
};
static const struct fdt_driver timer_clint = {
	.name = "clint",
	.compatible = fdt_clint_compat,
	.probe = clint_mtimer_probe,
};

/* First found wins: a tree with both an ACLINT MTIMER and a CLINT gets the MTIMER. */
static const struct fdt_driver *const timer_drivers[] = {
	&timer_aclint_mtimer,
	&timer_clint,
	NULL,
};

void fdt_driver_timer_setup(const void *fdt)
{
	probe_first(fdt, timer_drivers);
}

/* --- system reset --- */

static int sifive_test_probe(const void *fdt, int node, const struct fdt_driver *drv)
{
	unsigned long base;

	if (fdt_reg(fdt, node, 0, &base, NULL))
		return -1;
	sifive_test_init(base);
	platform.ops.system_reset = reset_device;
	platform.reset_types = SRST_TYPES_ALL;
	platform.reset_name = drv->name;
	return 0;
}

static bool syscon_reg(const void *fdt, const char *compat, unsigned long *addr,
		       uint32_t *value)
{
	int node = fdt_node_offset_by_compatible(fdt, -1, compat), regmap;
	unsigned long base;

	if (node < 0)
		return false;
	regmap = fdt_node_offset_by_phandle(fdt, fdt_u32(fdt, node, "regmap", 0));
	if (regmap < 0 || fdt_reg(fdt, regmap, 0, &base, NULL))
		return false;
	*addr = base + fdt_u32(fdt, node, "offset", 0);
	*value = fdt_u32(fdt, node, "value", 0);
	return true;
}

/* syscon-poweroff and syscon-reboot: either or both, one driver. */
static int syscon_probe(const void *fdt, int node, const struct fdt_driver *drv)
{
	unsigned long off_addr = 0, boot_addr = 0;
	uint32_t off_val = 0, boot_val = 0;

	(void)node;
	if (!(syscon_reg(fdt, "syscon-poweroff", &off_addr, &off_val) |
	      syscon_reg(fdt, "syscon-reboot", &boot_addr, &boot_val)))
		return -1;
	syscon_reset_init(off_addr, off_val, boot_addr, boot_val);
	platform.ops.system_reset = reset_device;
	platform.reset_types = (off_addr ? SRST_TYPE_BIT(SBI_SRST_TYPE_SHUTDOWN) : 0) |
			       (boot_addr ? SRST_TYPES_REBOOT : 0);
	platform.reset_name = drv->name;
	return 0;
}

/* gpio-restart { gpios = <&gpio pin flags>; } on a sifive,gpio0 controller */
static int gpio_restart_probe(const void *fdt, int node, const struct fdt_driver *drv)
{
	int len, gpio;
	const fdt32_t *spec = fdt_getprop(fdt, node, "gpios", &len);
	unsigned long base;

	if (!spec || len < GPIO_SPEC_CELLS * (int)sizeof(*spec))
		return -1;
	gpio = fdt_node_offset_by_phandle(fdt, fdt32_to_cpu(spec[0]));
	if (gpio < 0 || fdt_node_check_compatible(fdt, gpio, "sifive,gpio0") ||
	    fdt_reg(fdt, gpio, 0, &base, NULL))
		return -1;
	gpio_restart_init(base, fdt32_to_cpu(spec[1]),
			  fdt32_to_cpu(spec[2]) & GPIO_ACTIVE_LOW);
	platform.ops.system_reset = gpio_restart;
	platform.reset_types = SRST_TYPES_REBOOT;	/* no power-off pin */
	platform.reset_name = drv->name;
	return 0;
}

/* HTIF powers off (SRST shutdown); it cannot reboot. */
static int htif_reset_probe(const void *fdt, int node, const struct fdt_driver *drv)
{
	if (htif_setup(fdt, node))
		return -1;
	platform.ops.system_reset = htif_poweroff;
	platform.reset_types = SRST_TYPE_BIT(SBI_SRST_TYPE_SHUTDOWN);
	platform.reset_name = drv->name;
	return 0;
}

static const struct fdt_driver reset_sifive_test = {
	.name = "sifive,test0",
	.compatible = (const char *const[]){ "sifive,test1", "sifive,test0", NULL },
	.probe = sifive_test_probe,
};
static const struct fdt_driver reset_syscon = {
	.name = "syscon",
	.compatible = (const char *const[]){ "syscon-poweroff", "syscon-reboot", NULL },
	.probe = syscon_probe,
};
static const struct fdt_driver reset_gpio_restart = {
	.name = "gpio-restart",
	.compatible = (const char *const[]){ "gpio-restart", NULL },
	.probe = gpio_restart_probe,
};
static const struct fdt_driver reset_htif = {
	.name = "htif",
	.compatible = (const char *const[]){ "ucb,htif0", NULL },
	.probe = htif_reset_probe,
};

/* First found wins: a board with two reset devices gets the first. */
static const struct fdt_driver *const reset_drivers[] = {
	&reset_sifive_test,
	&reset_syscon,
	&reset_gpio_restart,
	&reset_htif,
	NULL,
};

void fdt_driver_reset_setup(const void *fdt)
{
	probe_first(fdt, reset_drivers);
}
