/*
** obb_exact.h: exact products without libm's fma (internal; obb_exact.c).
**
** The core needs the rounding error of a product in three places: Kahan's
** a*b - c*d for the cross products of nearly parallel edges (penetration,
** contacts, the 3D test's careful half) and the exact orientation test of
** the 2D hull. libm's fma would give it, but is not the same everywhere
** (mingw-w64's is a software routine that rounds wrongly), and the answers
** must be the same bits on every platform (docs/precision.md). These use
** + - * alone, so they are.
*/
#ifndef OBB_EXACT_H
#define OBB_EXACT_H

/* Returns p = fl(a*b) and sets *err to fl(a*b - p), the same bits as
** fma(a, b, -p) for every a and b (a NaN's payload aside): the exact
** error a*b - p whenever that is a double, which is always except where
** p is below 2^-969 in magnitude (then the error, below half an ulp of
** p, may fall under the subnormals' spacing and be rounded; below 2^-1022
** it rounds to a zero with the error's sign). A zero a or b gives +0, an
** overflowing product (p infinite, a and b finite) gives -p, an infinite
** or NaN a or b gives NaN. */
double obb_two_product(double a, double b, double *err);

/* a*b - c*d by Kahan's method: within 1.5 ulps of the true value even when
** the two products nearly cancel, as they do in the cross product of
** nearly parallel unit axes. Bit for bit what it gives with a correctly
** rounded fma, fl(fma(a, b, -w) + fma(-c, d, w)) with w = fl(c*d), while
** |a*b| is 0 or within [2^-969, 2^1000] and |c*d| below 2^1000: for unit
** vectors' components, unless a or b is below 2^-484. When |a*b| is below
** 2^-969, its error may not be a double, and the answer may be off that
** by less than 2^-968 (absolute). A NaN or infinite input gives NaN or an
** infinity, as with fma. */
double obb_diff_of_products(double a, double b, double c, double d);

#endif
