/* Topic templates: {server}, {db}, {schema}, {table}, {collection}; the "debezium" preset. Kafka topic names
 * hold ASCII letters, digits, '.', '_' and '-': the template's own text must, and placeholder
 * values are made to. */
#include <string.h>
#include "rowcast/sink.h"

static const char *const fields[] = {"server", "db", "schema", "table", "collection"};
#define NFIELDS (sizeof fields / sizeof *fields)

static bool topic_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

rc_status rc_topic_template(const char *spec, const char **out, rc_error *err)
{
    /* Debezium's <topic.prefix>.<data collection>: the collection is schema.table where the source
     * has schemas (PostgreSQL), db.table where it has not (MySQL) */
    if (!strcmp(spec, "debezium")) spec = "{server}.{collection}";
    for (const char *p = spec; *p; p++) {
        size_t at = (size_t)(p - spec);
        if (*p != '{') {
            if (!topic_char(*p))
                return rc_error_set(err, RC_ERR_USAGE, at,
                                    "topic template '%s': byte %zu is not allowed in a Kafka topic name (letters, digits, "
                                    "'.', '_', '-' and the placeholders {server}, {db}, {schema}, {table}, {collection})", spec, at + 1);
            continue;
        }
        const char *e = strchr(p, '}');
        size_t k = 0, n = e ? (size_t)(e - p - 1) : 0;
        while (e && k < NFIELDS && !(strlen(fields[k]) == n && !strncmp(fields[k], p + 1, n))) k++;
        if (!e || k == NFIELDS)
            return rc_error_set(err, RC_ERR_USAGE, at,
                                "topic template '%s': unknown placeholder at byte %zu (use {server}, {db}, {schema}, "
                                "{table}, {collection}, or the preset 'debezium')", spec, at + 1);
        p = e;
    }
    *out = spec;
    return RC_OK;
}

static void put_name(rc_buf *b, const char *s, size_t n, bool raw)
{
    char *w = rc_buf_reserve(b, n);
    if (!w) return;
    for (size_t i = 0; i < n; i++) w[i] = raw || topic_char(s[i]) ? s[i] : '_';
    rc_buf_commit(b, n);
}

static void expand(const char *tmpl, const rc_origin *src, const char *server, rc_buf *out, bool raw)
{
    size_t start = out->len, kept = start; /* kept: the end of the last value written, whose own dots stay */
    for (const char *p = tmpl; *p; p++) {
        if (*p != '{') {
            /* a separator right after an empty part, or at the start, is dropped */
            if (*p == '.' && (out->len == start || (out->len > kept && out->data[out->len - 1] == '.'))) continue;
            rc_buf_putc(out, *p);
            continue;
        }
        const char *e = strchr(p, '}');
        rc_str v;
        switch (p[1]) {
        case 's': v = p[2] == 'e' ? src->server : src->schema; break;
        case 'd': v = src->db; break;
        case 'c': /* {collection}: schema.table, else db.table */
            v = src->schema.n ? src->schema : src->db;
            put_name(out, v.p, v.n, raw);
            if (v.n) kept = out->len, rc_buf_putc(out, '.');
            v = src->table;
            break;
        default: v = src->table; break;
        }
        if (p[1] == 's' && p[2] == 'e' && !v.n) v = (rc_str){server, strlen(server)};
        put_name(out, v.p, v.n, raw);
        if (v.n) kept = out->len;
        p = e;
    }
    while (out->len > kept && out->data[out->len - 1] == '.') out->len--;
}

void rc_topic_expand(const char *tmpl, const rc_origin *src, const char *server, rc_buf *out)
{
    expand(tmpl, src, server, out, false);
}

void rc_topic_expand_raw(const char *tmpl, const rc_origin *src, const char *server, rc_buf *out)
{
    expand(tmpl, src, server, out, true);
}
