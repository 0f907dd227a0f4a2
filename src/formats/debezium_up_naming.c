/* Upstream Debezium: the topic naming strategies beyond --topic's template (docs/formats/
 * debezium.md, "Topic names"), -o debezium.topic.naming.strategy:
 *  - unicode (Default/SchemaUnicodeTopicNamingStrategy): the template's name with each character
 *    a topic may not hold, '_' included, written _uXXXX (rc_dbz_topic_sanitize);
 *  - regex (Default/SchemaRegexTopicNamingStrategy, AbstractRegexTopicNamingStrategy): the
 *    template's name, its characters made valid with '_', rewritten by topic.regex and
 *    topic.replacement when the expression matches the whole name; with
 *    topic.key.enforce.uniqueness (the default) the key gets one more field, topic.key.field.name
 *    (__dbz__physicalTableIdentifier), a string: the table's own topic before the rewrite, itself
 *    rewritten by topic.key.field.regex and .replacement when they are given and match.
 *  - router (the ByLogicalTableRouter SMT, ToLogicalTopicRouter, on the tables' records): the
 *    same rewrite of the topic the connector wrote, but a table the expression does not match is
 *    left as it is (no key field), and a rerouted one has its schemas named after the new topic
 *    (<topic>.Key, .Value, .Envelope); the key field's value starts from that topic.
 * The name is made once per table and kept while the table's events follow one another; with
 * the default strategy nothing here runs: the pipeline names the topic from the template. */
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_up_enc.h"
#include "core/jsonw.h"
#include "rowcast/sink.h"

typedef struct dbz_rewrite {
    bool on;
    regex_t re; /* the expression as ^(EXPR)$: Java's Matcher.matches(), group n is n + 1 here */
    const char *repl;
} dbz_rewrite;

struct rc_dbz_naming {
    bool unicode, router;
    bool matched; /* router: the table named last was rerouted */
    const char *tmpl; /* --topic's template (rc_dbz_up_set_topics) */
    dbz_rewrite topic, key;
    const char *key_field; /* NULL: the key as it is (topic.key.enforce.uniqueness=false) */
    rc_buf id;             /* the table named last: its server, db, schema and table */
    rc_buf origin, name, key_value, scratch;
};

/* Compiles expression `re` of option `opt`, its replacement `repl` of option `ropt`. */
static rc_status rewrite_open(dbz_rewrite *w, const char *opt, const char *re, const char *ropt, const char *repl, rc_error *err)
{
    if (!re || !*re) return RC_OK;
    if (!repl || !*repl)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o debezium.%s needs -o debezium.%s (Debezium: %s must be non-empty if %s is set)",
                            opt, ropt, ropt, opt);
    if (strstr(re, "(?") || strstr(repl, "${"))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "-o debezium.%s: rowcast reads the expression as POSIX extended (groups, |, ., *, +, ?, classes) and the "
                            "replacement's $1..$9: Java's (?...) groups and ${name} references are not understood", opt);
    size_t n = strlen(re);
    char *whole = malloc(n + 5);
    if (!whole) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    memcpy(whole, "^(", 2), memcpy(whole + 2, re, n), memcpy(whole + 2 + n, ")$", 3);
    int rc = regcomp(&w->re, whole, REG_EXTENDED);
    free(whole);
    if (rc) {
        char msg[160];
        regerror(rc, &w->re, msg, sizeof msg);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o debezium.%s=%s: %s", opt, re, msg);
    }
    w->on = true;
    w->repl = repl;
    return RC_OK;
}

/* Matcher.matches() then replaceFirst(repl) on s, into out; false (out untouched) when the
 * expression does not match the whole of s. "$n" is group n (digits taken while they name a
 * group, as Java does), "\c" the character c. */
static bool rewrite(const dbz_rewrite *w, const char *s, rc_buf *out)
{
    regmatch_t m[10];
    if (regexec(&w->re, s, 10, m, 0)) return false;
    size_t groups = w->re.re_nsub - 1; /* without the whole-name group */
    for (const char *p = w->repl; *p; p++) {
        if (*p == '\\' && p[1]) {
            rc_buf_putc(out, *++p);
        } else if (*p == '$' && p[1] >= '0' && p[1] <= '9') {
            size_t g = (size_t)(*++p - '0');
            while (p[1] >= '0' && p[1] <= '9' && g * 10 + (size_t)(p[1] - '0') <= groups) g = g * 10 + (size_t)(*++p - '0');
            if (g > groups || g + 1 >= 10) continue; /* Java: "No group n"; the option's check says the rest */
            const regmatch_t *r = &m[g + 1];
            if (r->rm_so >= 0) rc_buf_put(out, s + r->rm_so, (size_t)(r->rm_eo - r->rm_so));
        } else {
            rc_buf_putc(out, *p);
        }
    }
    return true;
}

rc_status rc_dbz_naming_open(up_enc *e, const rc_dbz_opts *o, rc_error *err)
{
    bool regex = o->topic_strategy == DBZ_TOPIC_REGEX || o->topic_strategy == DBZ_TOPIC_ROUTER;
    if (!regex && (o->topic_regex || o->topic_key_regex))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o debezium.topic.%sregex applies to -o debezium.topic.naming.strategy=regex or router only",
                            o->topic_regex ? "" : "key.field.");
    if (regex && (!o->topic_regex || !*o->topic_regex))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "-o debezium.topic.naming.strategy=regex (or router) needs -o debezium.topic.regex and -o debezium.topic.replacement");
    if (o->topic_strategy == DBZ_TOPIC_DEFAULT) return RC_OK;
    struct rc_dbz_naming *n = calloc(1, sizeof *n);
    if (!n) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->naming = n;
    n->unicode = o->topic_strategy == DBZ_TOPIC_UNICODE;
    n->router = o->topic_strategy == DBZ_TOPIC_ROUTER;
    n->tmpl = "{server}.{collection}";
    rc_buf_init(&n->id, 0), rc_buf_init(&n->origin, 0), rc_buf_init(&n->name, 0), rc_buf_init(&n->key_value, 0), rc_buf_init(&n->scratch, 0);
    if (!regex) return RC_OK;
    if (o->topic_key_unique) n->key_field = o->topic_key_field ? o->topic_key_field : "__dbz__physicalTableIdentifier";
    rc_status st = rewrite_open(&n->topic, "topic.regex", o->topic_regex, "topic.replacement", o->topic_repl, err);
    if (st == RC_OK)
        st = rewrite_open(&n->key, "topic.key.field.regex", o->topic_key_regex, "topic.key.field.replacement", o->topic_key_repl, err);
    return st;
}

void rc_dbz_naming_close(up_enc *e)
{
    struct rc_dbz_naming *n = e->naming;
    if (!n) return;
    if (n->topic.on) regfree(&n->topic.re);
    if (n->key.on) regfree(&n->key.re);
    rc_buf_fini(&n->id), rc_buf_fini(&n->origin), rc_buf_fini(&n->name), rc_buf_fini(&n->key_value), rc_buf_fini(&n->scratch);
    free(n);
    e->naming = NULL;
}

void rc_dbz_up_set_topics(void *p, const char *tmpl)
{
    up_enc *e = p;
    if (e->naming && tmpl) e->naming->tmpl = tmpl;
}

/* The names of ev's table into n (once per table: the last one's are kept). */
static bool name_table(up_enc *e, const rc_event *ev)
{
    struct rc_dbz_naming *n = e->naming;
    rc_str server = server_of(e, ev);
    const rc_str *f[4] = {&server, &ev->src.db, &ev->src.schema, &ev->src.table};
    rc_buf *s = &n->scratch;
    rc_buf_reset(s);
    for (int i = 0; i < 4; i++) {
        rc_buf_put(s, f[i]->p, f[i]->n);
        rc_buf_putc(s, '\0');
    }
    if (s->err != RC_OK) return false;
    if (n->id.len == s->len && !memcmp(n->id.data, s->data, s->len)) return true;
    rc_buf_reset(&n->id), rc_buf_reset(&n->origin), rc_buf_reset(&n->name), rc_buf_reset(&n->key_value);
    rc_buf_put(&n->id, s->data, s->len);
    rc_origin src = ev->src;
    src.server = server;
    rc_topic_expand_raw(n->tmpl, &src, "rowcast", &n->origin); /* getOriginTopic */
    rc_buf_putc(&n->origin, '\0');                              /* for regexec, not in the name */
    size_t on = n->origin.len - 1;
    rc_buf_reset(s);
    rc_dbz_topic_sanitize(s, n->origin.data, on, n->unicode);
    rc_buf_putc(s, '\0');
    n->matched = n->topic.on && s->err == RC_OK && rewrite(&n->topic, s->data, &n->name) && n->name.len;
    if (!n->matched) /* not matched, or empty: the old name, as Debezium */
        rc_buf_reset(&n->name), rc_buf_put(&n->name, s->data, s->len - 1);
    if (n->key_field) { /* keyValueAugment: the origin topic (the router: the record's), rewritten by the key field's expression */
        if (n->router) rc_buf_reset(&n->origin), rc_buf_put(&n->origin, s->data, s->len), on = s->len - 1;
        rc_buf_reset(s);
        if (!n->key.on || !rewrite(&n->key, n->origin.data, s)) rc_buf_reset(s), rc_buf_put(s, n->origin.data, on);
        rc_jw_str_body(&n->key_value, s->data, s->len);
    }
    bool ok = n->origin.err == RC_OK && n->name.err == RC_OK && n->key_value.err == RC_OK && s->err == RC_OK;
    if (!ok) rc_buf_reset(&n->id); /* not kept */
    return ok;
}

bool rc_dbz_naming_topic(up_enc *e, const rc_event *ev, rc_buf *topic)
{
    if (!e->naming || !ev->src.table.n || !name_table(e, ev)) return false;
    rc_buf_put(topic, e->naming->name.data, e->naming->name.len);
    return true;
}

bool rc_dbz_naming_prefix(up_enc *e, const rc_event *ev, const char **p, size_t *n)
{
    struct rc_dbz_naming *g = e->naming;
    if (!g || !g->router || !ev->src.table.n || !name_table(e, ev) || !g->matched) return false;
    *p = g->name.data, *n = g->name.len;
    return true;
}

void rc_dbz_naming_key_schema(const up_enc *e, rc_buf *b)
{
    /* the router: only a rerouted table's (rc_dbz_naming_prefix named it just before) */
    if (!e->naming || !e->naming->key_field || (e->naming->router && !e->naming->matched)) return;
    RC_BUF_LIT(b, ",{\"type\":\"string\",\"optional\":false,\"field\":\"");
    rc_jw_str_body(b, e->naming->key_field, strlen(e->naming->key_field));
    RC_BUF_LIT(b, "\"}");
}

void rc_dbz_naming_key(up_enc *e, const rc_event *ev, rc_buf *b)
{
    struct rc_dbz_naming *n = e->naming;
    if (!n || !n->key_field || !b->len || b->data[b->len - 1] != '}' || !name_table(e, ev) || (n->router && !n->matched)) return;
    b->len--; /* the key struct's '}' */
    if (b->data[b->len - 1] != '{') rc_buf_putc(b, ',');
    rc_buf_putc(b, '"');
    rc_jw_str_body(b, n->key_field, strlen(n->key_field));
    RC_BUF_LIT(b, "\":\"");
    rc_buf_put(b, n->key_value.data, n->key_value.len);
    RC_BUF_LIT(b, "\"}");
}
