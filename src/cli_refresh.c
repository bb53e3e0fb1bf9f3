/*
 * cli_refresh.c: a refresh run as people and scripts see it: one live
 * progress line on a terminal, fitted to its width so it never wraps
 * (a wrapped "\r" line floods the screen), then one line per provider.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_refresh.h"
#include "err.h"
#include "str.h"

/* Append s to buf (len so far) if it fits in size; the new length. */
static size_t
append(char *buf, size_t size, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (len + n + 1 > size)
		return len;
	memcpy(buf + len, s, n + 1);
	return len + n;
}

size_t
cli_refresh_progress_line(const struct refresh_progress *pr, size_t n,
    size_t width, char *buf, size_t size)
{
	char part[128], bytes[32], *tmp;
	size_t i, len = 0, done = 0, failed = 0, cut;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	if (width == 0)
		width = 80;
	/* Leave the last column: a line that fills it wraps on some terms. */
	width--;
	/* The count first: a cut line still says how far the run is. */
	for (i = 0; i < n; i++) {
		if (pr[i].state == REFRESH_FAILED)
			failed++;
		if (pr[i].state != REFRESH_RUNNING)
			done++;
	}
	snprintf(part, sizeof part, "%zu/%zu done", done, n);
	len = append(buf, size, len, part);
	if (failed > 0) {
		snprintf(part, sizeof part, ", %zu failed", failed);
		len = append(buf, size, len, part);
	}
	for (i = 0; i < n; i++) {
		if (pr[i].state != REFRESH_RUNNING)
			continue;
		cli_human_bytes(pr[i].bytes, bytes, sizeof bytes);
		snprintf(part, sizeof part, " | %s %s, %zu offers",
		    pr[i].provider, bytes, pr[i].offers);
		len = append(buf, size, len, part);
	}
	if (str_width(buf) <= width)
		return len;
	/* Keep what fits and mark the cut. */
	cut = str_prefix_for_width(buf, width > 0 ? width - 1 : 0);
	tmp = buf + cut;
	if (width > 0 && cut + 2 <= size) {
		tmp[0] = '~';
		tmp[1] = '\0';
		return cut + 1;
	}
	*tmp = '\0';
	return cut;
}

static void
draw_progress(const struct refresh_progress *pr, size_t n)
{
	char line[1024];

	cli_refresh_progress_line(pr, n, cli_output_width(stderr), line,
	    sizeof line);
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

int
cli_refresh_run(const struct refresh_options *ropts, bool progress,
    bool report_ok, bool quiet, struct cli_refresh_result *res,
    struct err *err)
{
	const struct refresh_progress *pr;
	struct refresh *r;
	char bytes[32];
	size_t n, i, ok = 0, skipped = 0, offers = 0;
	double seconds = 0;
	int rc;

	memset(res, 0, sizeof *res);
	rc = refresh_begin(ropts, &r, err);
	if (rc < 0) {
		res->busy = rc == REFRESH_BUSY;
		return -1;
	}
	/* Even with --quiet: a key others can read is worth a cron mail. */
	if (refresh_warning(r) != NULL)
		fprintf(stderr, "gpucost: warning: %s\n", refresh_warning(r));
	while (refresh_poll(r, -1, 200) > 0) {
		if (progress) {
			n = refresh_progress(r, &pr);
			draw_progress(pr, n);
		}
	}
	if (progress)
		fputs("\r\033[K", stderr);
	n = refresh_progress(r, &pr);
	for (i = 0; i < n; i++) {
		switch (pr[i].state) {
		case REFRESH_OK:
			ok++;
			offers += pr[i].offers;
			if (pr[i].seconds > seconds)
				seconds = pr[i].seconds;
			if (!report_ok)
				break;
			cli_human_bytes(pr[i].bytes, bytes, sizeof bytes);
			fprintf(stderr, "gpucost: %s: %zu offers, %zu price "
			    "changes, %s in %.1f s", pr[i].provider, pr[i].offers,
			    pr[i].history, bytes, pr[i].seconds);
			if (pr[i].unknown_gpu > 0)
				fprintf(stderr, ", %zu with a GPU not in the "
				    "catalogue", pr[i].unknown_gpu);
			if (pr[i].message[0] != '\0')
				fprintf(stderr, "; %s", pr[i].message);
			fputc('\n', stderr);
			break;
		case REFRESH_SKIPPED:
			/*
			 * A provider without a feed is said only when asked
			 * for by name: every cron'd refresh of all would
			 * mail the same line.
			 */
			if (pr[i].listed && ropts->nproviders == 0)
				break;
			skipped++;
			if (!quiet)
				fprintf(stderr, "gpucost: %s: %s\n",
				    pr[i].provider, pr[i].message);
			break;
		case REFRESH_FAILED:
			fprintf(stderr, "gpucost: %s: %s\n", pr[i].provider,
			    pr[i].message);
			if (res->first_error[0] == '\0')
				snprintf(res->first_error,
				    sizeof res->first_error, "%s: %s",
				    pr[i].provider, pr[i].message);
			break;
		case REFRESH_RUNNING:
			break;
		}
	}
	res->failed = refresh_failures(r);
	res->signal = refresh_signal(r);
	refresh_end(r);
	/*
	 * Where the progress line was, and after the lines of each
	 * provider: one line for the whole run (issue 45).
	 */
	if ((progress || report_ok) && n > 1) {
		fprintf(stderr, "gpucost: %zu of %zu providers refreshed, %zu "
		    "offers in %.1f s", ok, n, offers, seconds);
		if (res->failed > 0)
			fprintf(stderr, "; %zu failed", res->failed);
		if (skipped > 0)
			fprintf(stderr, "; %zu skipped", skipped);
		fputc('\n', stderr);
	}
	return 0;
}
