/* Topic templates: {server}, {db}, {schema}, {table}; the "debezium" preset. */
#include <string.h>
#include "rowcast/sink.h"

static const char *const fields[] = {"server", "db", "schema", "table"};

rc_status rc_topic_template(const char *spec, const char **out, rc_error *err)
{
    if (!strcmp(spec, "debezium")) spec = "{server}.{db}.{table}";
    for (const char *p = spec; *p; p++) {
        if (*p == '}' && p[1] == '}') {
            p++;
            continue;
        }
        if (*p != '{') continue;
        if (p[1] == '{') {
            p++;
            continue;
        }
        const char *e = strchr(p, '}');
        size_t k = 0, n = e ? (size_t)(e - p - 1) : 0;
        while (e && k < 4 && !(strlen(fields[k]) == n && !strncmp(fields[k], p + 1, n))) k++;
        if (!e || k == 4)
            return rc_error_set(err, RC_ERR_USAGE, (size_t)(p - spec),
                                "topic template '%s': unknown placeholder at byte %zu (use {server}, {db}, {schema}, "
                                "{table}, or the preset 'debezium')", spec, (size_t)(p - spec) + 1);
        p = e;
    }
    *out = spec;
    return RC_OK;
}

/* Kafka topic names: ASCII letters, digits, '.', '_' and '-'. */
static void put_name(rc_buf *b, const char *s, size_t n)
{
    char *w = rc_buf_reserve(b, n);
    if (!w) return;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
        w[i] = ok ? c : '_';
    }
    rc_buf_commit(b, n);
}

void rc_topic_expand(const char *tmpl, const rc_origin *src, const char *server, rc_buf *out)
{
    size_t start = out->len;
    for (const char *p = tmpl; *p; p++) {
        if ((*p == '{' && p[1] == '{') || (*p == '}' && p[1] == '}')) {
            rc_buf_putc(out, *p++);
            continue;
        }
        if (*p != '{') {
            /* a separator right after an empty part, or at the start, is dropped */
            if (*p == '.' && (out->len == start || out->data[out->len - 1] == '.')) continue;
            rc_buf_putc(out, *p);
            continue;
        }
        const char *e = strchr(p, '}');
        rc_str v = {0};
        switch (p[1]) {
        case 's': v = p[2] == 'e' ? src->server : src->schema; break;
        case 'd': v = src->db; break;
        default: v = src->table; break;
        }
        if (p[1] == 's' && p[2] == 'e' && !v.n) v = (rc_str){server, strlen(server)};
        put_name(out, v.p, v.n);
        p = e;
    }
    while (out->len > start && out->data[out->len - 1] == '.') out->len--;
}
