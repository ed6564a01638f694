// SPDX-License-Identifier: BSD-2-Clause
/*
 * tally-trace: the side file T.ntr.cfg, the encoder's trace controls by the
 * spec's names (chapter 4), one name=value a line, so that a decoder (this
 * one or another N-Trace decoder) uses the settings the stream was made with.
 *
 * Reading one is strict: a value is a whole decimal or 0x number within
 * its control's valid values (lib/ntrace's ntrace_controls), never cut to
 * the field's width; trTeFormat must be 1 (N-Trace) and trTeProtocolMajor 1;
 * the spec's controls that do not change the stream are accepted, those it
 * says must be 0 are refused otherwise; an unknown name is a warning.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tally-trace.h"

/* Spec controls that do not change how a stream decodes. */
static const char *const ignored_controls[] = {
	"trTeActive", "trTeEnable", "trTeInstTracing", "trTeEmpty", "trTeInstTrigEnable",
	"trTeInstStallOrOverflow", "trTeInstStallEna", "trTeVerMajor", "trTeVerMinor",
	"trTeCompType", "trTeProtocolMinor", "trTeInstEnImplicitReturn", "trTeInstFilters",
	"trTeInstNoTrapAddr",
};

/* Spec controls that must be 0 for an N-Trace 1.0 stream (chapter 4). */
static const char *const zero_controls[] = {
	"trTeInstNoAddrDiff", "trTeInstEnBranchPrediction", "trTeInstEnJumpTargetCache",
	"trTeDataImplemented",
};

/* Families of spec controls: the data trace's must be 0, the others do
 * not change the stream. */
#define ZERO_PREFIX	"trTeData"
static const char *const ignored_prefixes[] = { "trTeTrig", "trTeFilter", "trTeComp" };

static bool listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

static bool has_prefix(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(name, list[i], strlen(list[i])))
			return true;
	return false;
}

int config_fault_text(const struct ntrace_config_fault *f, char *out, size_t cap)
{
	const struct ntrace_control *c = f->control;
	const char *name = c ? c->name : "?";

	if (c && (!f->why || f->why == c->values)) {
		if (c->values)
			return snprintf(out, cap, "%s=%llu (valid: %s)", name,
					(unsigned long long)f->value, c->values);
		return snprintf(out, cap, "%s=%llu (valid: %u..%u)", name,
				(unsigned long long)f->value, c->min, c->max);
	}
	return snprintf(out, cap, "%s=%llu: %s", name, (unsigned long long)f->value, f->why);
}

int parse_number(const char *s, uint64_t *v)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!(*s >= '0' && *s <= '9'))
		return -1;	/* no sign, no empty value */
	errno = 0;
	*v = strtoull(s, &e, 0);
	if (errno || e == s)
		return -1;
	while (*e == ' ' || *e == '\t' || *e == '\r' || *e == '\n')
		e++;
	return *e ? -1 : 0;
}

int set_control_checked(struct ntrace_config *cfg, const char *name, uint64_t v, char *err,
			size_t cap)
{
	const struct ntrace_control *c = ntrace_control_find(name);
	struct ntrace_config_fault f = { .control = c, .value = v };

	if (!c) {
		snprintf(err, cap, "%s: not a trace control", name);
		return -1;
	}
	if (ntrace_control_set(cfg, c, v)) {
		config_fault_text(&f, err, cap);
		return -1;
	}
	return 0;
}

/* One "name=value" line (trailing newline cut): 0, 1 for a warning, -1. */
static int cfg_line(struct ntrace_config *cfg, char *line, char *err, size_t cap)
{
	char *eq = strchr(line, '='), *name = line, *end;
	uint64_t v;

	while (*name == ' ' || *name == '\t')
		name++;
	if (!*name || *name == '#' || *name == '\r')
		return 0;
	if (!eq) {
		snprintf(err, cap, "not name=value");
		return -1;
	}
	for (end = eq; end > name && (end[-1] == ' ' || end[-1] == '\t'); end--)
		;
	*end = 0;
	if (parse_number(eq + 1, &v)) {
		snprintf(err, cap, "%.64s: the value is not a whole number (decimal or 0x hex)", name);
		return -1;
	}
	if (!strcmp(name, "trTeFormat") && v != 1) {
		snprintf(err, cap, "trTeFormat=%llu: not an N-Trace stream (N-Trace is 1)",
			 (unsigned long long)v);
		return -1;
	}
	if (!strcmp(name, "trTeProtocolMajor") && v != 1) {
		snprintf(err, cap, "trTeProtocolMajor=%llu: a protocol this tool does not "
			 "decode (N-Trace 1.x is 1)", (unsigned long long)v);
		return -1;
	}
	if (!strcmp(name, "trTeFormat") || !strcmp(name, "trTeProtocolMajor") ||
	    listed(name, ignored_controls, sizeof(ignored_controls) / sizeof(ignored_controls[0])) ||
	    has_prefix(name, ignored_prefixes, sizeof(ignored_prefixes) / sizeof(ignored_prefixes[0])))
		return 0;
	if (listed(name, zero_controls, sizeof(zero_controls) / sizeof(zero_controls[0])) ||
	    !strncmp(name, ZERO_PREFIX, strlen(ZERO_PREFIX))) {
		if (!v)
			return 0;
		snprintf(err, cap, "%.64s=%llu: must be 0 in N-Trace 1.0", name, (unsigned long long)v);
		return -1;
	}
	if (!ntrace_control_find(name)) {
		snprintf(err, cap, "%.64s: unknown control (ignored)", name);
		return 1;
	}
	return set_control_checked(cfg, name, v, err, cap);
}

/*
 * A side file's text (n bytes, NULs allowed: they end nothing) into cfg.
 * Returns 0; 1 with a warning in err (the first); -1 with the error in err,
 * "line N: ..." (cfg then partly set).
 */
int cfg_parse_text(const char *text, size_t n, struct ntrace_config *cfg, char *err, size_t cap)
{
	char line[256], msg[200];
	size_t pos = 0;
	unsigned lineno = 0;
	int warned = 0;
	struct ntrace_config_fault f;

	while (pos < n) {
		size_t len = 0;
		int rc;

		lineno++;
		while (pos < n && text[pos] != '\n') {
			if (len + 1 < sizeof(line))
				line[len++] = text[pos] ? text[pos] : ' ';
			else
				len = sizeof(line);	/* too long: marked */
			pos++;
		}
		pos++;
		if (len >= sizeof(line)) {
			snprintf(err, cap, "line %u: longer than %zu characters", lineno,
				 sizeof(line) - 1);
			return -1;
		}
		line[len] = 0;
		rc = cfg_line(cfg, line, msg, sizeof(msg));
		if (rc < 0 || (rc > 0 && !warned))
			snprintf(err, cap, "line %u: %s", lineno, msg);
		if (rc < 0)
			return -1;
		warned |= rc;
	}
	if (ntrace_config_explain(cfg, &f)) {
		config_fault_text(&f, msg, sizeof(msg));
		snprintf(err, cap, "%s", msg);
		return -1;
	}
	return warned;
}

/* cfg as a side file's text: the length it needs (as snprintf). */
int cfg_format_text(const struct ntrace_config *cfg, char *out, size_t cap)
{
	size_t n = 0;

	n += (size_t)snprintf(out, cap, "# N-Trace encoder settings (RISC-V N-Trace 1.0 trace "
			      "controls)\ntrTeFormat=1\ntrTeProtocolMajor=1\ntrTeProtocolMinor=0\n");
	for (unsigned i = 0; i < ntrace_ncontrols; i++)
		n += (size_t)snprintf(out + (n < cap ? n : cap), n < cap ? cap - n : 0, "%s=%llu\n",
				      ntrace_controls[i].name,
				      (unsigned long long)ntrace_control_get(cfg, &ntrace_controls[i]));
	return (int)n;
}

int save_cfg(const char *path)
{
	return save_cfg_of(&trace_cfg, path);
}

int save_cfg_of(const struct ntrace_config *cfg, const char *path)
{
	char text[2048];
	FILE *f = fopen(path, "w");
	int n = cfg_format_text(cfg, text, sizeof(text));

	if (!f)
		return -1;
	if (n < 0 || (size_t)n >= sizeof(text) || fwrite(text, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

void load_cfg(const char *path)
{
	size_t len;
	uint8_t *text = read_file(path, &len);
	char err[256];
	int rc = cfg_parse_text((const char *)text, len, &trace_cfg, err, sizeof(err));

	free(text);
	if (rc) {
		fprintf(stderr, "tally-trace: %s: %s%s\n", path, rc > 0 ? "warning: " : "", err);
		if (rc < 0)
			exit(2);
	}
}
