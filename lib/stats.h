/* stats.h — the few robust statistics the analysis decides with: the
 * median, a quantile, and a spread that one outlier does not move (the
 * median absolute deviation scaled to a standard deviation). */
#ifndef FLASHBENCH_STATS_H
#define FLASHBENCH_STATS_H

#include <stddef.h>

/* qsort's comparison of two doubles, ascending. */
int stats_cmp_double(const void *a, const void *b);

/* The median of v[0..n): the middle value, or the mean of the two middle
 * ones; 0 when n is 0.  Sorts v. */
double stats_median(double *v, size_t n);

/* The q-quantile of v[0..n) (0 <= q < 1): the value with n*q values below
 * it; 0 when n is 0.  Sorts v. */
double stats_quantile(double *v, size_t n, double q);

/* 1.4826 x the median absolute deviation of v[0..n) around m: the standard
 * deviation for normal noise, unmoved by outliers.  tmp holds n values. */
double stats_mad_around(const double *v, size_t n, double m, double *tmp);

/* The same around v's own median. */
double stats_mad(const double *v, size_t n, double *tmp);

#endif
