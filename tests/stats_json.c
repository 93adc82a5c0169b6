/* SPDX-License-Identifier: MIT */
/* stats_json.c: see stats_json.h. */
#include "stats_json.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

json_object *stats_parse(const char *text)
{
	json_object *o = json_tokener_parse(text);
	cr_assert_not_null(o, "not JSON:\n%s", text);
	return o;
}

/* The row of list l whose field equals value. */
static json_object *row_where(json_object *l, const char *field, const char *value)
{
	if (!json_object_is_type(l, json_type_array))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(l); i++) {
		json_object *r = json_object_array_get_idx(l, i), *f;
		if (json_object_object_get_ex(r, field, &f) &&
		    !strcmp(json_object_get_string(f), value))
			return r;
	}
	return NULL;
}

json_object *stats_at(json_object *doc, const char *path)
{
	char part[256];
	while (doc && *path) {
		size_t n = 0;
		/* a part ends at a '.' outside brackets */
		for (int depth = 0; path[n] && (depth || path[n] != '.'); n++)
			depth += path[n] == '[' ? 1 : path[n] == ']' ? -1 : 0;
		snprintf(part, sizeof part, "%.*s", (int)n, path);
		path += n + (path[n] == '.');
		char *br = strchr(part, '[');
		if (br) {
			*br = '\0';
			char *eq = strchr(br + 1, '='), *end = strrchr(br + 1, ']');
			if (!eq || !end)
				return NULL;
			*eq = *end = '\0';
			json_object *l;
			doc = json_object_object_get_ex(doc, part, &l) ? row_where(l, br + 1, eq + 1)
								       : NULL;
			continue;
		}
		char *end;
		const long i = strtol(part, &end, 10);
		if (*part && !*end && json_object_is_type(doc, json_type_array)) {
			doc = i >= 0 && (size_t)i < json_object_array_length(doc)
				      ? json_object_array_get_idx(doc, (size_t)i) : NULL;
			continue;
		}
		json_object *k;
		doc = json_object_object_get_ex(doc, part, &k) ? k : NULL;
	}
	return doc;
}

double stats_num(json_object *doc, const char *path)
{
	json_object *v = stats_at(doc, path);
	cr_assert(v && (json_object_is_type(v, json_type_int) ||
			json_object_is_type(v, json_type_double)), "no number at %s", path);
	return json_object_get_double(v);
}
