/* report.h - what a finished Run prints: the text report for people, the
 * JSON report for scripts (Nsight Compute metric names), and fault
 * messages.  Both reports read the same metric table, so their figures are
 * equal by construction. */
#ifndef GPUSIM_REPORT_H
#define GPUSIM_REPORT_H

#include <stdio.h>

#include "sim/front/run.h"

void report_text(const Run *r, FILE *out);
void report_json(const Run *r, FILE *out);
/* "file:line:col: fault: ..." with the source line, block, thread and pc. */
void report_fault(const Run *r, FILE *out);
/* The occupancy calculator of --occupancy: per launch, per limiter. */
void report_occupancy(const Program *p, const Config *c, const char *config_path, FILE *out);
/* Metric values by name, from the same table (for sweeps): values[i] is set
 * for each names[i] this run reports and left as is otherwise.  Returns how
 * many were found. */
int report_metrics(const Run *r, const char *const *names, double *values, int n);
/* Whether a timing run on config c can report the metric `name` (the JSON
 * report's names, docs/metrics.md); if not, *near is the closest such
 * name or NULL (for "did you mean"). */
int report_metric_known(const Config *c, const char *name, const char **near);
/* Check results, one line per .check. */
void report_checks(const Run *r, FILE *out);
/* The run-time checks' findings (races, uninitialised registers), if any:
 * each with its kind, the word or register, both source lines, the warps,
 * lanes and thread, and how often. */
void report_findings(const Run *r, FILE *out);

#endif
