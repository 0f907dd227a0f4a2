/* Signal rows and messages into commands (signal.h). */
#include <stdio.h>
#include <string.h>
#include "core/json.h"
#include "sources/signal.h"

typedef struct parse {
    rc_signal *sg;
    rc_arena *a;
    const char *where;
    rc_json j;
    rc_arena scratch;
    rc_error *err;
} parse;

/* "signal id=ID in WHERE: what", offset into the data (or none). */
static rc_status bad(parse *p, rc_status code, size_t off, const char *what, const char *detail)
{
    return rc_error_set(p->err, code, off, "signal id=%.64s in %s: %s%s", p->sg->id, p->where, what,
                        detail ? detail : "");
}

static bool is(const rc_str *s, const char *lit)
{
    return s->n == strlen(lit) && !memcmp(s->p, lit, s->n);
}

/* The strings of array node `arr` (each a table name) appended to sg->tables, once each. */
static rc_status names(parse *p, uint32_t arr, const char *member)
{
    const rc_jnode *nd = rc_json_node(&p->j, arr);
    char what[96];
    snprintf(what, sizeof what, "%s is an array of table names", member);
    if (nd->type != RC_J_ARRAY) return bad(p, RC_ERR_SCHEMA, nd->off, what, NULL);
    rc_signal_table *t = rc_arena_alloc(p->a, (nd->count ? nd->count : 1) * sizeof *t);
    if (!t) return bad(p, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory", NULL);
    size_t n = 0;
    for (uint32_t e = nd->first; e; e = rc_json_node(&p->j, e)->next) {
        const rc_jnode *s = rc_json_node(&p->j, e);
        if (s->type != RC_J_STRING || !s->n || memchr(s->s, '\0', s->n))
            return bad(p, RC_ERR_SCHEMA, s->off, what, NULL);
        size_t k = 0;
        while (k < n && !(strlen(t[k].name) == s->n && !memcmp(t[k].name, s->s, s->n))) k++;
        if (k < n) continue;
        t[n] = (rc_signal_table){rc_arena_memdup(p->a, s->s, s->n), NULL};
        if (!t[n++].name) return bad(p, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory", NULL);
    }
    p->sg->tables = t, p->sg->ntables = n;
    return RC_OK;
}

/* additional-conditions: [{"data-collection": T, "filter": F}], T one of data-collections. */
static rc_status conditions(parse *p, uint32_t arr)
{
    const rc_jnode *nd = rc_json_node(&p->j, arr);
    const char *what =
        "additional-conditions is an array of {\"data-collection\": TABLE, \"filter\": SQL}";
    if (nd->type != RC_J_ARRAY) return bad(p, RC_ERR_SCHEMA, nd->off, what, NULL);
    for (uint32_t e = nd->first; e; e = rc_json_node(&p->j, e)->next) {
        const rc_jnode *o = rc_json_node(&p->j, e);
        uint32_t tn = o->type == RC_J_OBJECT ? rc_json_get(&p->j, e, "data-collection") : 0;
        uint32_t fn = o->type == RC_J_OBJECT ? rc_json_get(&p->j, e, "filter") : 0;
        const rc_jnode *t = tn ? rc_json_node(&p->j, tn) : NULL,
                       *f = fn ? rc_json_node(&p->j, fn) : NULL;
        if (!t || !f || t->type != RC_J_STRING || f->type != RC_J_STRING ||
            memchr(f->s, '\0', f->n))
            return bad(p, RC_ERR_SCHEMA, o->off, what, NULL);
        rc_signal_table *m = NULL;
        for (size_t k = 0; k < p->sg->ntables && !m; k++)
            if (strlen(p->sg->tables[k].name) == t->n && !memcmp(p->sg->tables[k].name, t->s, t->n))
                m = &p->sg->tables[k];
        if (!m)
            return bad(p, RC_ERR_SCHEMA, t->off,
                       "additional-conditions names a table not in data-collections", NULL);
        if (m->filter)
            return bad(p, RC_ERR_SCHEMA, t->off, "additional-conditions names a table twice", NULL);
        if (!(m->filter = rc_arena_memdup(p->a, f->s, f->n)))
            return bad(p, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory", NULL);
    }
    return RC_OK;
}

/* The data of execute-snapshot and stop-snapshot. */
static rc_status snapshot_data(parse *p, const rc_str *data)
{
    bool execute = p->sg->kind == RC_SIGNAL_EXECUTE;
    if (!data || !data->n)
        return execute ? bad(p, RC_ERR_SCHEMA, RC_NO_OFFSET, "execute-snapshot without data", NULL)
                       : RC_OK;
    rc_error jerr;
    rc_error_clear(&jerr);
    if (rc_json_parse(&p->j, data->p, data->n, &jerr) != RC_OK) {
        char detail[sizeof jerr.message + 40]; /* the whole message: never cut */
        snprintf(detail, sizeof detail, " (byte %zu: %s)", jerr.offset, jerr.message);
        return bad(p, jerr.code, jerr.offset, "data is not JSON", detail);
    }
    if (rc_json_node(&p->j, 0)->type != RC_J_OBJECT)
        return bad(p, RC_ERR_SCHEMA, 0, "data is not a JSON object", NULL);
    uint32_t dc = rc_json_get(&p->j, 0, "data-collections"), ty = rc_json_get(&p->j, 0, "type");
    uint32_t ac = rc_json_get(&p->j, 0, "additional-conditions");
    if (ty) {
        const rc_jnode *t = rc_json_node(&p->j, ty);
        rc_str v = {t->s, t->n};
        if (t->type != RC_J_STRING || !(is(&v, "incremental") || is(&v, "INCREMENTAL")))
            return bad(p, RC_ERR_UNSUPPORTED, t->off,
                       "only \"type\": \"incremental\" snapshots are supported", NULL);
    }
    if (!dc && execute)
        return bad(p, RC_ERR_SCHEMA, 0, "execute-snapshot without data-collections", NULL);
    rc_status rc = dc ? names(p, dc, "data-collections") : RC_OK;
    if (rc == RC_OK && execute && !p->sg->ntables)
        return bad(p, RC_ERR_SCHEMA, rc_json_node(&p->j, dc)->off, "data-collections is empty",
                   NULL);
    if (rc == RC_OK && ac) {
        if (!execute)
            return bad(p, RC_ERR_SCHEMA, rc_json_node(&p->j, ac)->off,
                       "additional-conditions is for execute-snapshot", NULL);
        rc = conditions(p, ac);
    }
    return rc;
}

static const struct {
    const char *name;
    rc_signal_kind kind;
} types[] = {
    {"execute-snapshot", RC_SIGNAL_EXECUTE},       {"stop-snapshot", RC_SIGNAL_STOP},
    {"pause-snapshot", RC_SIGNAL_PAUSE},           {"resume-snapshot", RC_SIGNAL_RESUME},
    {"snapshot-window-open", RC_SIGNAL_WATERMARK}, {"snapshot-window-close", RC_SIGNAL_WATERMARK},
};

static rc_status parse_row(parse *p, rc_str id, rc_str type, const rc_str *data)
{
    memset(p->sg, 0, sizeof *p->sg);
    p->sg->id = rc_arena_memdup(p->a, id.p, id.n);
    if (!p->sg->id) return rc_error_set(p->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    size_t k = 0;
    while (k < sizeof types / sizeof types[0] && !is(&type, types[k].name)) k++;
    if (k == sizeof types / sizeof types[0]) {
        char detail[120];
        snprintf(detail, sizeof detail,
                 " \"%.*s\" (execute-snapshot, stop-snapshot, pause-snapshot, resume-snapshot)",
                 (int)(type.n < 40 ? type.n : 40), type.p);
        return bad(p, RC_ERR_SCHEMA, RC_NO_OFFSET, "unknown type", detail);
    }
    p->sg->kind = types[k].kind;
    if (p->sg->kind == RC_SIGNAL_EXECUTE || p->sg->kind == RC_SIGNAL_STOP)
        return snapshot_data(p, data);
    return RC_OK;
}

static void parse_init(parse *p, rc_signal *sg, rc_arena *a, const char *where, rc_error *err)
{
    *p = (parse){.sg = sg, .a = a, .where = where, .err = err};
    sg->id = "";
    rc_arena_init(&p->scratch);
    rc_json_init(&p->j, &p->scratch);
}

static rc_status parse_done(parse *p, rc_status rc)
{
    rc_json_fini(&p->j);
    rc_arena_fini(&p->scratch);
    return rc;
}

rc_status rc_signal_parse(rc_signal *sg, rc_arena *a, const char *where, rc_str id, rc_str type,
                          const rc_str *data, rc_error *err)
{
    parse p;
    parse_init(&p, sg, a, where, err);
    return parse_done(&p, parse_row(&p, id, type, data));
}

/* A signal column's value as text (strings in v or a); false for a kind that has none. */
static bool value_text(const rc_value *v, rc_arena *a, rc_str *out)
{
    char d[24];
    int n = 0;
    switch (v->kind) {
    case RC_V_NULL:
        return *out = (rc_str){"", 0}, true;
    case RC_V_INT:
    case RC_V_UINT:
        n = v->kind == RC_V_INT ? snprintf(d, sizeof d, "%lld", (long long)v->i)
                                : snprintf(d, sizeof d, "%llu", (unsigned long long)v->u);
        *out = (rc_str){rc_arena_memdup(a, d, (size_t)n), (size_t)n};
        return out->p != NULL;
    case RC_V_TEXT:
    case RC_V_BYTES:
    case RC_V_JSON:
    case RC_V_ENUM:
    case RC_V_SET:
        return *out = v->s, true;
    default:
        return false;
    }
}

rc_status rc_signal_parse_values(rc_signal *sg, rc_arena *a, const char *where, const rc_value *v,
                                 rc_error *err)
{
    static const char *const col[] = {"id", "type", "data"};
    rc_str t[3];
    memset(sg, 0, sizeof *sg);
    for (int i = 0; i < 3; i++)
        if (!value_text(&v[i], a, &t[i]))
            return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "signal %s%.*s%sin %s: column %s is %s, not text",
                                i ? "id=" : "row ", i ? (int)(t[0].n < 64 ? t[0].n : 64) : 0, i ? t[0].p : "",
                                i ? " " : "", where, col[i], rc_vkind_name(v[i].kind));
    return rc_signal_parse(sg, a, where, t[0], t[1], v[2].kind == RC_V_NULL ? NULL : &t[2], err);
}

rc_status rc_signal_parse_message(rc_signal *sg, rc_arena *a, const char *msg, size_t n,
                                  rc_error *err)
{
    parse p;
    parse_init(&p, sg, a, "message rowcast.signal", err);
    rc_error jerr;
    rc_error_clear(&jerr);
    if (rc_json_parse(&p.j, msg, n, &jerr) != RC_OK || rc_json_node(&p.j, 0)->type != RC_J_OBJECT)
        return parse_done(
            &p, rc_error_set(
                    err, jerr.code ? jerr.code : RC_ERR_SCHEMA, jerr.offset,
                    "message rowcast.signal is not a JSON object {\"id\", \"type\", \"data\"}%s%s",
                    jerr.code ? ": " : "", jerr.message));
    uint32_t in = rc_json_get(&p.j, 0, "id"), tn = rc_json_get(&p.j, 0, "type"),
             dn = rc_json_get(&p.j, 0, "data");
    const rc_jnode *i = in ? rc_json_node(&p.j, in) : NULL, *t = tn ? rc_json_node(&p.j, tn) : NULL;
    const rc_jnode *d = dn ? rc_json_node(&p.j, dn) : NULL;
    if (!i || !t || i->type != RC_J_STRING || t->type != RC_J_STRING ||
        (d && d->type != RC_J_OBJECT && d->type != RC_J_NULL))
        return parse_done(
            &p, rc_error_set(
                    err, RC_ERR_SCHEMA, 0,
                    "message rowcast.signal: \"id\" and \"type\" are strings, \"data\" an object"));
    /* copied out of the reader, which parses the data next */
    rc_str id = {rc_arena_memdup(a, i->s, i->n), i->n},
           type = {rc_arena_memdup(a, t->s, t->n), t->n};
    rc_str data = {d && d->type == RC_J_OBJECT ? d->s : NULL,
                   d && d->type == RC_J_OBJECT ? d->n : 0};
    if (!id.p || !type.p)
        return parse_done(&p, rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"));
    return parse_done(&p, parse_row(&p, id, type, data.p ? &data : NULL));
}
