/* A PostgreSQL column default (pg_get_expr of pg_attrdef.adbin) as the text of the value that
 * Debezium's PostgreSQL connector reports for it (its PostgresDefaultValueConverter), for the
 * events' rc_event.dflts (pg_default.h). */
#include "sources/pg/pg_default.h"
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The types Debezium parses a default of, and the value it reports for one a function computes
 * (nextval(), now(): its "generated value placeholder"); NULL: none (json's "{}" aside, the same
 * as the type's zero). */
static const struct {
    const char *typname, *generated;
} parsed[] = {
    {"bit", "00"},       {"varbit", "0"},       {"bool", "false"},   {"bpchar", ""},         {"varchar", ""},
    {"text", ""},        {"numeric", "0.0"},    {"float4", "0.0"},   {"float8", "0.0"},      {"int2", "0"},
    {"int4", "0"},       {"int8", "0"},         {"json", "{}"},      {"jsonb", "{}"},        {"xml", ""},
    {"uuid", "00000000-0000-0000-0000-000000000000"}, {"date", "1970-01-01"}, {"time", "00:00"},
    {"timestamp", "1970-01-01"}, {"timestamptz", "1970-01-01"},
};

static const char *const current_times[] = {"current_timestamp", "current_time", "current_date", "localtime", "localtimestamp"};

/* Debezium's FUNCTION_DEFAULT_PATTERN, ^[(]?[A-Za-z0-9_.]+\(: a call such as nextval('s'::regclass). */
static bool is_call(const char *e)
{
    if (*e == '(') e++;
    const char *p = e;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '.') p++;
    return p > e && *p == '(';
}

char *rc_pg_default_text(const char *expr, const char *typname)
{
    if (!expr || !typname) return NULL;
    size_t k = 0, n = sizeof parsed / sizeof *parsed;
    while (k < n && strcmp(parsed[k].typname, typname)) k++;
    if (k == n || !strncmp(expr, "NULL::", 6)) return NULL;
    bool current = false;
    for (size_t i = 0; i < sizeof current_times / sizeof *current_times; i++) current |= !strcasecmp(expr, current_times[i]);
    if (is_call(expr) || current) return strdup(parsed[k].generated);
    const char *q = strchr(expr, '\'');
    if (!q) return strdup(expr); /* a raw value: 42, true, 1.5 */
    char *out = malloc(strlen(q) + 1), *w = out; /* the first quoted literal, '' as ' */
    if (!out) return NULL;
    for (q++; *q && !(*q == '\'' && q[1] != '\''); q++) {
        *w++ = *q;
        if (*q == '\'') q++;
    }
    *w = '\0';
    return out;
}
