/* stats.c — median, quantile and the median absolute deviation (stats.h). */
#include "lib/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* normal noise: sigma = 1.4826 x the median absolute deviation */
#define MAD_TO_SIGMA 1.4826

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double stats_median(double *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), stats_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double stats_quantile(double *v, size_t n, double q)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), stats_cmp_double);
	return v[(size_t)(q * (double)n)];
}

double stats_mad_around(const double *v, size_t n, double m, double *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(v[i] - m);
	return MAD_TO_SIGMA * stats_median(tmp, n);
}

double stats_mad(const double *v, size_t n, double *tmp)
{
	memcpy(tmp, v, n * sizeof(*v));
	return stats_mad_around(v, n, stats_median(tmp, n), tmp);
}
