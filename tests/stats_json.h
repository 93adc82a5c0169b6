/* SPDX-License-Identifier: MIT */
/*
 * stats_json.h: reading `infsim run --stats=json` in tests (json-c): a
 * value at a path of keys, row numbers and row selections.
 */
#ifndef INFSIM_TESTS_STATS_JSON_H
#define INFSIM_TESTS_STATS_JSON_H

#include <json-c/json.h>

/* The document; a test failure if text is not JSON.  json_object_put it. */
json_object *stats_parse(const char *text);
/* The node at path, "a.b.3.c" (3: a list's row) or "by_node[label=4: x].cycles"
 * (the row whose field label is "4: x"); NULL if there is none. */
json_object *stats_at(json_object *doc, const char *path);
/* The number at path; a test failure if there is none. */
double stats_num(json_object *doc, const char *path);

#endif
