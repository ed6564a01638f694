// SPDX-License-Identifier: BSD-2-Clause
/*
 * The driver tables of the generic platform (include/tally/fdt_driver.h):
 * every device class the devicetree picks a driver for by compatible
 * string.  The probes read the node and hand the device to its driver
 * (lib/utils) and to the console or struct platform; the drivers
 * themselves know nothing of the devicetree.
 */
#include <libfdt.h>
#include <tally/console.h>
#include <tally/drivers.h>
#include <tally/fdt_driver.h>
#include <tally/fdt_helpers.h>
#include <tally/platform.h>

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

/* Probe the first device of the table's drivers, in table order. */
static bool probe_first(const void *fdt, const struct fdt_driver *const *table)
{
	for (; *table; table++) {
		int node = fdt_find_compatible(fdt, (*table)->compatible);

		if (node >= 0 && !(*table)->probe(fdt, node, *table))
			return true;
	}
	return false;
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
static bool mmode_dev_known(unsigned long base)
{
	for (unsigned int i = 0; i < platform.nr_mmode_devs; i++)
		if (platform.mmode_dev[i].base == base)
			return true;
	return false;
}

static int htif_setup(const void *fdt, int node)
{
	unsigned long base, size;

	if (fdt_reg(fdt, node, 0, &base, &size))
		return -1;
	if (mmode_dev_known(base))
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
