// SPDX-License-Identifier: BSD-2-Clause
/*
 * Reset through a SiFive GPIO pin (sifive,gpio0 + a "gpio-restart" node):
 * driving the pin to its active level resets the SoC (on QEMU sifive_u,
 * pin 10 active low; with -no-reboot QEMU then exits).
 */
#include <stdbool.h>
#include <stdint.h>
#include <tally/drivers.h>

#define GPIO_OUTPUT_EN	0x08
#define GPIO_OUTPUT_VAL	0x0c

static volatile uint32_t *gpio;
static uint32_t pin_bit;
static bool active_low;

void gpio_restart_init(unsigned long base, unsigned int pin, bool low)
{
	gpio = (volatile uint32_t *)base;
	pin_bit = 1U << pin;
	active_low = low;
}

static void drive(bool active)
{
	if (active != active_low)
		gpio[GPIO_OUTPUT_VAL / 4] |= pin_bit;
	else
		gpio[GPIO_OUTPUT_VAL / 4] &= ~pin_bit;
}

void gpio_restart(unsigned long type, unsigned long reason)
{
	(void)type;
	(void)reason;
	if (!gpio)
		return;
	drive(false);			/* an edge from inactive to active */
	gpio[GPIO_OUTPUT_EN / 4] |= pin_bit;
	drive(true);
}
