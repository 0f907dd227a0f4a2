/* --include patterns against a database's tables (table_patterns.h). */
#include "sources/table_patterns.h"
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rc_table_pattern_match(const char *pattern, const char *schema, size_t schema_n,
                            const char *table, size_t table_n)
{
    /* "schema.table"; a longer one (no database allows it) on the heap */
    char buf[512], *name = buf;
    size_t need = schema_n + table_n + 2;
    if (need > sizeof buf && !(name = malloc(need))) return false;
    memcpy(name, schema, schema_n);
    name[schema_n] = strchr(pattern, '.') ? '.' : '\0'; /* without a dot: the schema alone */
    memcpy(name + schema_n + 1, table, table_n);
    name[need - 1] = '\0';
    bool m = fnmatch(pattern, name, 0) == 0;
    if (name != buf) free(name);
    return m;
}

void rc_table_pattern_unmatched(char *out, size_t cap, const char *pattern, const char *where,
                                const char *kind)
{
    if (strchr(pattern, '.'))
        snprintf(out, cap, "--include '%s' matched no table on %s", pattern, where);
    else
        snprintf(
            out, cap,
            "--include '%s' matched no table on %s (as %s.*: a pattern without a dot names %s)",
            pattern, where, pattern, kind);
}
