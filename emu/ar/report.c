/* SPDX-License-Identifier: MIT */
/*
 * report.c: the Fig 11 heat map of a run as an SVG picture (the
 * statistics themselves are target.c's tree, emu/target/stats.h).
 */
#include <inttypes.h>

#include "ar_private.h"

static const char *root_name(ar_root_policy r)
{
	return r == AR_ROOT_NAIVE ? "naive" : r == AR_ROOT_TID ? "tid" : "addr";
}

/* One 4x4 panel: cube c at column c % 4, row c / 4; darker is more. */
static void svg_panel(FILE *f, int x0, const char *title, const uint64_t *v)
{
	uint64_t max = 1;
	for (int i = 0; i < AR_CUBES; i++)
		max = v[i] > max ? v[i] : max;
	fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"14\">%s</text>\n", x0, title);
	for (int i = 0; i < AR_CUBES; i++) {
		int shade = 255 - (int)(215.0 * (double)v[i] / (double)max);
		int x = x0 + (i % 4) * 60, y = 30 + (i / 4) * 60;
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"58\" height=\"58\" fill=\"rgb(%d,%d,255)\" "
			"stroke=\"black\"/>\n", x, y, shade, shade);
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">cube %d</text>\n", x + 4, y + 14, i);
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"%s\">%" PRIu64 "</text>\n",
			x + 4, y + 40, shade < 120 ? "white" : "black", v[i]);
	}
}

void ar_heatmap_svg(FILE *f, const ar_stats *st, const ar_config *c)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"540\" height=\"300\" "
		"font-family=\"sans-serif\">\n<rect width=\"540\" height=\"300\" fill=\"white\"/>\n");
	svg_panel(f, 10, "compute points (element operations)", st->cube_compute);
	svg_panel(f, 280, "operands (elements read)", st->cube_operands);
	fprintf(f, "<text x=\"10\" y=\"290\" font-size=\"11\">root=%s, net=%s; cube c at column "
		"c mod 4, row c / 4; darker is more</text>\n</svg>\n", root_name(c->root),
		c->net == AR_NET_MESH ? "mesh" : "dragonfly");
}
