/* Upstream Debezium's column.propagate.source.type and datatype.propagate.source.type: the
 * columns whose fully-qualified name ("db.table.column", "schema.table.column") matches one of the
 * first option's regular expressions, or whose "db.table.TYPE" (TYPE: the name written in
 * __debezium.source.column.type) one of the second's, carry their source type in their schema's parameters, as Debezium's
 * PropagateSourceMetadataToSchemaParameter writes them: __debezium.source.column.type (the
 * declared type's name in capitals, "DECIMAL", "INT UNSIGNED"), __debezium.source.column.length
 * and __debezium.source.column.scale when the declaration gives them, and
 * __debezium.source.column.name, after the type's own parameters. (Debezium's
 * __debezium.source.column.comment is not written: the schema history keeps no comments.) Each expression matches the whole name (Java's Pattern.matches), compared
 * case-insensitively as Debezium's column selectors are. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_up_enc.h"
#include "core/jsonw.h"

rc_status rc_dbz_selectors_compile(const char *opt, const char *list, regex_t **rs, size_t *n, rc_error *err)
{
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len) {
            regex_t *r = realloc(*rs, (*n + 1) * sizeof *r);
            char *pat = malloc(len + 5);
            if (!r || !pat) return free(pat), rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
            *rs = r;
            snprintf(pat, len + 5, "^(%.*s)$", (int)len, p);
            int rc = regcomp(&r[*n], pat, REG_EXTENDED | REG_ICASE | REG_NOSUB);
            free(pat);
            if (rc) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o debezium.%s: '%.*s' is not a regular expression", opt, (int)len, p);
            (*n)++;
        }
        p = end ? end + 1 : p + len;
    }
    return RC_OK;
}

rc_status rc_dbz_srctype_open(up_enc *e, const char *columns, const char *datatypes, rc_error *err)
{
    rc_status st = rc_dbz_selectors_compile("column.propagate.source.type", columns, &e->srctype, &e->nsrctype, err);
    return st != RC_OK ? st : rc_dbz_selectors_compile("datatype.propagate.source.type", datatypes, &e->srctype_dt, &e->nsrctype_dt, err);
}

void rc_dbz_srctype_close(up_enc *e)
{
    for (size_t i = 0; i < e->nsrctype; i++) regfree(&e->srctype[i]);
    for (size_t i = 0; i < e->nsrctype_dt; i++) regfree(&e->srctype_dt[i]);
    free(e->srctype), free(e->srctype_dt);
    e->srctype = e->srctype_dt = NULL, e->nsrctype = e->nsrctype_dt = 0;
}

/* PostgreSQL: Debezium's type name is pg_type's typname in capitals (the JDBC driver's TYPE_NAME),
 * which format_type() spells otherwise for these built-ins; with the driver's COLUMN_SIZE and
 * DECIMAL_DIGITS (__debezium.source.column.length and .scale) where they do not come from the
 * declaration (-1: from it). */
static const struct {
    const char *decl, *typname;
    int len, scale;
} pg_names[] = {
    {"CHARACTER VARYING", "VARCHAR", -1, 0}, {"CHARACTER", "BPCHAR", -1, 0}, {"NUMERIC", "NUMERIC", -1, -1},
    {"SMALLINT", "INT2", 5, 0}, {"INTEGER", "INT4", 10, 0}, {"BIGINT", "INT8", 19, 0},
    {"REAL", "FLOAT4", 8, 8}, {"DOUBLE PRECISION", "FLOAT8", 17, 17}, {"BOOLEAN", "BOOL", 1, 0},
    {"BIT VARYING", "VARBIT", -1, -1}, {"TIMESTAMP WITHOUT TIME ZONE", "TIMESTAMP", -1, -1},
    {"TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ", -1, -1}, {"TIME WITHOUT TIME ZONE", "TIME", -1, -1},
    {"TIME WITH TIME ZONE", "TIMETZ", -1, -1},
};

/* Debezium's name of a declared type: the declaration without its "(…)", in capitals, one space
 * between words ("decimal(5,2) unsigned" is DECIMAL UNSIGNED); PostgreSQL's typname (pg_names).
 * The pg_names entry, or -1. */
static int put_type_name(rc_buf *b, const rc_column *c)
{
    rc_str d = c->type.decl;
    size_t depth = 0, start = b->len;
    for (size_t k = 0; k < d.n; k++) {
        char ch = d.p[k];
        if (ch == '(') depth++;
        else if (ch == ')') depth -= depth > 0;
        else if (depth) continue;
        else if (ch != ' ') rc_buf_putc(b, (char)toupper((unsigned char)ch));
        else if (b->len > start && b->data[b->len - 1] != ' ') rc_buf_putc(b, ' ');
    }
    if (b->len > start && b->data[b->len - 1] == ' ') b->len--;
    if (c->type.info->family != RC_FAM_PG || b->err != RC_OK) return -1;
    for (size_t k = 0; k < sizeof pg_names / sizeof *pg_names; k++) {
        size_t n = strlen(pg_names[k].decl);
        if (b->len - start != n || memcmp(b->data + start, pg_names[k].decl, n)) continue;
        b->len = start;
        rc_buf_put(b, pg_names[k].typname, strlen(pg_names[k].typname));
        return (int)k;
    }
    return -1;
}

bool rc_dbz_selectors_match(const rc_event *ev, uint32_t i, bool by_type, const regex_t *rs, size_t n)
{
    if (!n) return false;
    rc_str ns = ev->src.schema.n ? ev->src.schema : ev->src.db, t = ev->src.table, c = ev->cols[i].name;
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_buf_put(&b, ns.p, ns.n), rc_buf_putc(&b, '.'), rc_buf_put(&b, t.p, t.n), rc_buf_putc(&b, '.');
    if (by_type) put_type_name(&b, &ev->cols[i]);
    else rc_buf_put(&b, c.p, c.n);
    rc_buf_putc(&b, '\0');
    bool found = false;
    for (size_t k = 0; b.err == RC_OK && !found && k < n; k++) found = !regexec(&rs[k], b.data, 0, NULL, 0);
    rc_buf_fini(&b);
    return found;
}

void rc_dbz_srctype_params(up_enc *e, const rc_event *ev, uint32_t i, col_schema *s, rc_buf *params)
{
    if (!e->nsrctype && !e->nsrctype_dt) return;
    if (!rc_dbz_selectors_match(ev, i, false, e->srctype, e->nsrctype) && !rc_dbz_selectors_match(ev, i, true, e->srctype_dt, e->nsrctype_dt)) return;
    const rc_column *c = &ev->cols[i];
    rc_str d = c->type.decl;
    if (s->params) params->len--; /* the object's '}': its keys first, as Debezium adds these after them */
    else rc_buf_reset(params), rc_buf_putc(params, '{');
    if (params->len > 1) rc_buf_putc(params, ',');
    RC_BUF_LIT(params, "\"__debezium.source.column.type\":\"");
    int pg = put_type_name(params, c);
    rc_buf_putc(params, '"');
    int64_t len = c->type.p1 > 0 ? c->type.p1 : -1, scale = len > 0 && c->type.p2 >= 0 && memchr(d.p, ',', d.n) ? c->type.p2 : -1;
    if (pg >= 0 && pg_names[pg].len >= 0) len = pg_names[pg].len;
    if (pg >= 0 && pg_names[pg].scale >= 0 && len > 0) scale = pg_names[pg].scale;
    if (len > 0) {
        RC_BUF_LIT(params, ",\"__debezium.source.column.length\":\"");
        rc_fmt_i64(params, len);
        rc_buf_putc(params, '"');
    }
    if (scale >= 0) {
        RC_BUF_LIT(params, ",\"__debezium.source.column.scale\":\"");
        rc_fmt_i64(params, scale);
        rc_buf_putc(params, '"');
    }
    RC_BUF_LIT(params, ",\"__debezium.source.column.name\":");
    rc_jw_str(params, c->name.p, c->name.n);
    rc_buf_putc(params, '}');
    s->params = params;
}
