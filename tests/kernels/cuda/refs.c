/* SPDX-License-Identifier: MIT */
/* refs.c: the plain C meaning of the CUDA and OpenCL samples; see refs.h. */
#include "refs.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void ck_saxpy(size_t n, float a, const float *x, float *y)
{
	for (size_t i = 0; i < n; i++)
		y[i] = fmaf(a, x[i], y[i]);
}

void ck_branchy(size_t n, const int32_t *x, int32_t *y)
{
	for (size_t i = 0; i < n; i++) {
		int32_t v = x[i];
		if ((uint32_t)v % 2 == 1)
			y[i] = (int32_t)(3u * (uint32_t)v + 1u);
		else {
			int32_t h = v / 2; /* v is even: the arithmetic shift is exact */
			y[i] = h < 0 ? -h - 1 : h;
		}
	}
}

void ck_collatz(size_t n, uint32_t limit, const uint32_t *x, uint32_t *steps)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t v = x[i], k = 0;
		for (; v != 1 && k < limit; k++)
			v = v % 2 ? 3u * v + 1u : v / 2;
		steps[i] = k;
	}
}

void ck_reduce(size_t n, size_t B, const int32_t *x, int32_t *part)
{
	size_t nb = (n + 2 * B - 1) / (2 * B);
	for (size_t b = 0; b < nb; b++) {
		uint32_t s = 0;
		for (size_t j = 2 * b * B; j < 2 * (b + 1) * B && j < n; j++)
			s += (uint32_t)x[j];
		part[b] = (int32_t)s;
	}
}

void ck_histogram(size_t n, const uint32_t *x, uint32_t bins[256])
{
	for (size_t i = 0; i < n; i++)
		bins[x[i] % 256]++;
}

void ck_sinexp(size_t n, const float *x, float *s, float *e)
{
	for (size_t i = 0; i < n; i++) {
		s[i] = sinf(x[i]);
		e[i] = expf(x[i] / 8.0f);
	}
}

/* A warp's votes over its threads below n (the others have left). */
void ck_votes(size_t n, const int32_t *x, uint32_t *b, int32_t *v)
{
	for (size_t w = 0; w < n; w += 32) {
		uint32_t pos = 0, any = 0, all = 0, odd = 0, members = 0;
		for (size_t i = w; i < w + 32 && i < n; i++) {
			uint32_t bit = UINT32_C(1) << (i - w);
			members |= bit;
			pos |= x[i] > 0 ? bit : 0;
			any |= x[i] > 5 ? bit : 0;
			all |= x[i] > -5 ? bit : 0;
			odd |= (x[i] & 1) ? bit : 0;
		}
		for (size_t i = w; i < w + 32 && i < n; i++) {
			b[i] = pos;
			v[i] = (any != 0) | (all == members) << 1 | (odd == 0 || odd == members) << 2;
		}
	}
}

void ck_approx(size_t n, const float *x, float *s, float *c, float *e, float *l, float *r)
{
	for (size_t i = 0; i < n; i++) {
		s[i] = sinf(x[i]);
		c[i] = cosf(x[i]);
		e[i] = exp2f(x[i]);
		l[i] = log2f(x[i]);
		r[i] = 1.0f / sqrtf(x[i]);
	}
}

void ck_index64(size_t n, const int32_t *x, int32_t *y)
{
	for (size_t i = 0; i < n; i++)
		y[i] = (int32_t)((uint32_t)x[i] * 5u + (uint32_t)(i / 8));
}

void ck_warpsum(size_t n, size_t nwarps, const int32_t *x, int32_t *sums)
{
	for (size_t w = 0; w < nwarps; w++) {
		uint32_t s = 0;
		for (size_t i = 32 * w; i < 32 * w + 32 && i < n; i++)
			s += (uint32_t)x[i];
		sums[w] = (int32_t)s;
	}
}

void ck_layerforward(size_t n_in, const float *input, const float *w, float *partial)
{
	for (size_t by = 0; by < n_in / 16; by++)
		for (size_t tx = 0; tx < 16; tx++) {
			float p[16];
			for (size_t ty = 0; ty < 16; ty++) {
				size_t u = by * 16 + ty + 1;
				p[ty] = input[u] * w[u * 17 + tx + 1];
			}
			/* the tree: pairs 1 apart, then 2, 4, 8 */
			for (size_t s = 1; s < 16; s *= 2)
				for (size_t ty = 0; ty < 16; ty += 2 * s)
					p[ty] = p[ty] + p[ty + s];
			partial[by * 16 + tx] = p[0];
		}
}

int32_t ck_bfs(size_t n, const int32_t *start, const int32_t *degree, const int32_t *edges,
	       int32_t src, int32_t *cost, uint8_t *visited)
{
	int32_t *queue = malloc((n ? n : 1) * sizeof *queue);
	if (!queue)
		abort();
	for (size_t v = 0; v < n; v++) {
		cost[v] = -1;
		visited[v] = 0;
	}
	size_t head = 0, tail = 0;
	queue[tail++] = src;
	cost[src] = 0;
	visited[src] = 1;
	int32_t far = 0;
	while (head < tail) {
		int32_t v = queue[head++];
		for (int32_t e = start[v]; e < start[v] + degree[v]; e++) {
			int32_t w = edges[e];
			if (!visited[w]) {
				visited[w] = 1;
				cost[w] = cost[v] + 1;
				if (cost[w] > far)
					far = cost[w];
				queue[tail++] = w;
			}
		}
	}
	free(queue);
	return far;
}

void ck_gaussian(size_t n, float *a, float *b, float *m)
{
	for (size_t t = 0; t + 1 < n; t++) {
		for (size_t i = t + 1; i < n; i++)
			m[i * n + t] = a[i * n + t] / a[t * n + t];
		for (size_t i = t + 1; i < n; i++) {
			float f = m[i * n + t];
			for (size_t j = t; j < n; j++)
				a[i * n + j] = fmaf(-f, a[t * n + j], a[i * n + j]);
			b[i] = fmaf(-f, b[t], b[i]);
		}
	}
}

void ck_hotspot(size_t cols, size_t rows, const float *power, const float *temp, float *out,
		float sdc, float rx, float ry, float rz, float amb)
{
	for (size_t y = 0; y < rows; y++)
		for (size_t x = 0; x < cols; x++) {
			size_t k = y * cols + x;
			float t = temp[k];
			float no = y > 0 ? temp[k - cols] : t, so = y + 1 < rows ? temp[k + cols] : t;
			float we = x > 0 ? temp[k - 1] : t, ea = x + 1 < cols ? temp[k + 1] : t;
			float d = fmaf((no + so) - (t + t), ry, power[k]);
			d = fmaf((ea + we) - (t + t), rx, d);
			d = fmaf(amb - t, rz, d);
			out[k] = fmaf(sdc, d, t);
		}
}

void ck_lud(size_t n, float *a)
{
	for (size_t k = 0; k + 1 < n; k++) {
		for (size_t i = k + 1; i < n; i++)
			a[i * n + k] = a[i * n + k] / a[k * n + k];
		for (size_t i = k + 1; i < n; i++)
			for (size_t j = k + 1; j < n; j++)
				a[i * n + j] = fmaf(-a[i * n + k], a[k * n + j], a[i * n + j]);
	}
}

static int32_t max3(int32_t a, int32_t b, int32_t c)
{
	int32_t m = a > b ? a : b;
	return m > c ? m : c;
}

void ck_nw(size_t n, int32_t *score, const int32_t *sim, int32_t penalty)
{
	size_t w = n + 1;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= n; j++)
			score[i * w + j] = max3(score[(i - 1) * w + j - 1] + sim[i * w + j],
						score[(i - 1) * w + j] - penalty,
						score[i * w + j - 1] - penalty);
}

void ck_pathfinder(size_t rows, size_t cols, const int32_t *wall, int32_t *last, int32_t *prev)
{
	memcpy(last, wall, cols * sizeof *last);
	memcpy(prev, wall, cols * sizeof *prev);
	for (size_t r = 1; r < rows; r++) {
		memcpy(prev, last, cols * sizeof *prev);
		for (size_t i = 0; i < cols; i++) {
			int32_t m = prev[i];
			if (i > 0 && prev[i - 1] < m)
				m = prev[i - 1];
			if (i + 1 < cols && prev[i + 1] < m)
				m = prev[i + 1];
			last[i] = wall[r * cols + i] + m;
		}
	}
}

void ck_kmeans(size_t npoints, size_t nclusters, size_t nfeatures, const float *feature,
	       const float *clusters, int32_t *membership)
{
	for (size_t p = 0; p < npoints; p++) {
		size_t best = 0;
		float best_dist = 0.0f;
		for (size_t c = 0; c < nclusters; c++) {
			float dist = 0.0f;
			for (size_t f = 0; f < nfeatures; f++) {
				float d = feature[f * npoints + p] - clusters[c * nfeatures + f];
				dist = fmaf(d, d, dist);
			}
			if (c == 0 || dist < best_dist) {
				best_dist = dist;
				best = c;
			}
		}
		membership[p] = (int32_t)best;
	}
}

void ck_vadd(size_t n, const float *a, const float *b, float *c)
{
	for (size_t i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

void ck_transpose(size_t rows, size_t cols, const uint32_t *in, uint32_t *out)
{
	for (size_t r = 0; r < rows; r++)
		for (size_t c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}

void ck_digits(size_t n, const uint32_t *x, uint32_t *sum, uint32_t hist[10])
{
	for (size_t i = 0; i < n; i++) {
		uint32_t v = x[i], s = 0;
		do {
			s += v % 10;
			hist[v % 10]++;
			v /= 10;
		} while (v);
		sum[i] = s;
	}
}

void ck_div64(size_t n, const uint64_t *a, const uint64_t *b, uint64_t *q, uint64_t *r, int64_t *sq,
	      int64_t *sr, uint64_t *k)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t x = a[i], y = b[i] ? b[i] : 1;
		q[i] = x / y;
		r[i] = x % y;
		int64_t sx = (int64_t)x, sy = (int64_t)y;
		sq[i] = sy == -1 ? (int64_t)(0 - x) : sx / sy; /* wraps: MIN / -1 = MIN */
		sr[i] = sy == -1 ? 0 : sx % sy;
		k[i] = x / 1000;
	}
}

void ck_rotate(size_t n, const int32_t *x, const uint32_t *s, int32_t *y, int32_t *m)
{
	for (size_t i = 0; i < n; i++) {
		size_t base = i & ~(size_t)31, lane = i & 31;
		y[i] = x[base + ((lane * 7 + s[i]) & 31)];
		uint32_t u = (uint32_t)x[i];
		m[i] = (int32_t)((uint32_t)x[base + (u / 10 & 31)] % 10);
	}
}

/* ---- half.cu: binary16 from doubles (every sum, product and the fma of
 * the case's inputs is exact in a double), rounded once to nearest even;
 * a NaN is 0x7fff (PTX's); min/max give the other operand for one NaN. */
static double h2d(uint16_t h)
{
	int e = (h >> 10) & 0x1f, f = h & 0x3ff;
	double v = e == 31 ? (f ? NAN : INFINITY) : e ? ldexp(1024 + f, e - 25) : ldexp(f, -24);
	return (h & 0x8000) ? -v : v;
}

static uint16_t d2h(double v)
{
	if (isnan(v))
		return 0x7fff;
	uint16_t s = signbit(v) ? 0x8000 : 0;
	v = fabs(v);
	if (v >= 65520.0)
		return s | 0x7c00;
	if (v == 0)
		return s;
	int e;
	frexp(v, &e); /* v in [2^(e-1), 2^e) */
	int q = e - 11 < -24 ? -24 : e - 11;
	double m = nearbyint(ldexp(v, -q)); /* to nearest even */
	return s | (uint16_t)((q + 24) * 1024 + (int)m);
}

uint16_t ck_f2h(float f) { return d2h(f); }

static uint16_t hmin(uint16_t a, uint16_t b, bool max)
{
	double x = h2d(a), y = h2d(b);
	if (isnan(x) && isnan(y))
		return 0x7fff;
	if (isnan(x) || isnan(y))
		return isnan(x) ? b : a;
	if (x == y) /* -0 < +0 */
		return ((a >> 15) == max) ? b : a;
	return (x < y) != max ? a : b;
}

static uint16_t hsat(uint16_t h)
{
	double v = h2d(h);
	return isnan(v) || v <= 0 ? 0 : v > 1 ? 0x3c00 : h;
}

static uint16_t half_elem(uint16_t a, uint16_t b, uint16_t c)
{
	uint16_t t = d2h(h2d(d2h(fma(h2d(a), h2d(b), h2d(c)))) - h2d(d2h(h2d(a) * h2d(b))));
	t = hmin(hmin(t, c, false), (c & 0x7fff) ^ 0x8000, true);
	uint16_t u = hsat(d2h(h2d(t) + h2d(a))), w = hsat(d2h(fma(h2d(a), h2d(b), h2d(t))));
	return d2h(h2d(u) + h2d(w));
}

static uint16_t half2_elem(uint16_t u, uint16_t v)
{
	uint16_t w = d2h(h2d(d2h(fma(h2d(u), h2d(v), h2d(u)))) - h2d(d2h(h2d(u) * h2d(v))));
	w = hmin(hmin(w, v, false), (v & 0x7fff) ^ 0x8000, true);
	return d2h(h2d(w) + h2d(u ^ 0x8000));
}

void ck_half(size_t n, const uint16_t *x, const uint16_t *y, const uint16_t *z, uint16_t *h,
	     const uint32_t *p, const uint32_t *q, uint32_t *r, int32_t *cmp)
{
	for (size_t i = 0; i < n; i++) {
		double a = h2d(x[i]), b = h2d(y[i]), c = h2d(z[i]);
		h[i] = half_elem(x[i], y[i], z[i]);
		cmp[i] = (a < b) + 2 * (b >= c) + 4 * (a != c && !isnan(a) && !isnan(c));
	}
	for (size_t i = 0; i < n / 2; i++)
		r[i] = half2_elem((uint16_t)p[i], (uint16_t)q[i]) |
		       (uint32_t)half2_elem((uint16_t)(p[i] >> 16), (uint16_t)(q[i] >> 16)) << 16;
}

/* ---- ftz.cu: a subnormal input or result is the zero of its sign on
 * the instructions clang marked .ftz; a NaN is 0x7fffffff. */
static float fz(float v)
{
	uint32_t u;
	memcpy(&u, &v, 4);
	if (isnan(v))
		u = 0x7fffffffu;
	else if (!(u & 0x7f800000u))
		u &= 0x80000000u;
	memcpy(&v, &u, 4);
	return v;
}

static float fcanon(float v)
{
	if (isnan(v)) {
		uint32_t u = 0x7fffffffu;
		memcpy(&v, &u, 4);
	}
	return v;
}

void ck_ftz(size_t n, const float *x, const float *y, float *o, int32_t *c)
{
	for (size_t i = 0; i < n; i++) {
		volatile float a = x[i], b = y[i], fa = fz(a), fb = fz(b);
		volatile float s = fz(fa + fb), p = fz(fa * fb);
		volatile float f = fcanon(fmaf(a, b, s));     /* fma.rn.f32 (a builtin: no .ftz) */
		volatile float q = fz(fa / fb), rb = 1.0f / b;  /* div.rn.ftz; div.approx */
		volatile float d = fcanon(a * rb), r = fz(1.0f / fb), t = fcanon(sqrtf(fabsf(a)));
		volatile float nb = -fb, mn = fcanon(fminf(a, nb)), mx = fcanon(fmaxf(p, s));
		o[8 * i + 0] = s, o[8 * i + 1] = p, o[8 * i + 2] = f, o[8 * i + 3] = q;
		o[8 * i + 4] = d, o[8 * i + 5] = r, o[8 * i + 6] = t;
		o[8 * i + 7] = fz(fz(mn) - fz(mx));
		c[i] = fa < fb;
	}
}
