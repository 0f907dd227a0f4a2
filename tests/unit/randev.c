/* Random canonical events (see randev.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "randev.h"

uint64_t randev_next(randev_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static unsigned below(randev_rng *r, unsigned n) { return (unsigned)(randev_next(r) % n); }
static bool chance(randev_rng *r, unsigned pct) { return below(r, 100) < pct; }

static rc_str str_copy(rc_arena *a, const char *s, size_t n)
{
    rc_str out = {rc_arena_memdup(a, s, n), n};
    return out;
}

/* Valid UTF-8 text with ASCII, controls, quotes, multi-byte and 4-byte characters. */
static rc_str rand_text(randev_rng *r, rc_arena *a, unsigned maxlen)
{
    static const char *const pieces[] = {"a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f", "\x7f", "é", "ü",
                                         "日", "本", "🛒", "😀", "\xE2\x80\xA8", "0", "{", "}", ","};
    char buf[512];
    size_t n = 0;
    unsigned len = below(r, maxlen + 1);
    for (unsigned i = 0; i < len; i++) {
        const char *p = pieces[below(r, sizeof pieces / sizeof *pieces)];
        size_t pl = strlen(p);
        if (n + pl >= sizeof buf) break;
        memcpy(buf + n, p, pl);
        n += pl;
    }
    return str_copy(a, buf, n);
}

static rc_str rand_bytes(randev_rng *r, rc_arena *a)
{
    unsigned char buf[64];
    unsigned n = below(r, sizeof buf + 1);
    for (unsigned i = 0; i < n; i++) buf[i] = (unsigned char)randev_next(r);
    return str_copy(a, (const char *)buf, n);
}

static rc_decimal rand_decimal(randev_rng *r, rc_arena *a)
{
    char buf[80];
    unsigned n = 1 + below(r, 60);
    for (unsigned i = 0; i < n; i++) buf[i] = (char)('0' + below(r, 10));
    buf[0] = (char)('1' + below(r, 9));
    if (chance(r, 5)) buf[0] = '0', n = 1;
    rc_decimal d;
    d.digits = rc_arena_memdup(a, buf, n);
    d.ndigits = n;
    d.scale = chance(r, 10) ? -(int32_t)below(r, 20) : (int32_t)below(r, 70);
    d.neg = !(n == 1 && buf[0] == '0') && chance(r, 40);
    return d;
}

static double rand_f64(randev_rng *r)
{
    switch (below(r, 8)) {
    case 0: return __builtin_nan("");
    case 1: return chance(r, 50) ? __builtin_inf() : -__builtin_inf();
    case 2: return chance(r, 50) ? 0.0 : -0.0;
    case 3: return (double)(int64_t)randev_next(r) / 1024.0;
    default: {
        uint64_t bits = randev_next(r);
        double d;
        memcpy(&d, &bits, sizeof d);
        return isnan(d) ? 1.5 : d;
    }
    }
}

static float rand_f32(randev_rng *r)
{
    if (below(r, 4) == 0) return (float)rand_f64(r);
    uint32_t bits = (uint32_t)randev_next(r);
    float f;
    memcpy(&f, &bits, sizeof f);
    return isnan(f) ? 2.5f : f;
}

static void rand_date(randev_rng *r, int32_t *y, uint8_t *m, uint8_t *d)
{
    static const uint8_t md[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    *y = chance(r, 10) ? (chance(r, 50) ? 9999 : 1) : (int32_t)(1900 + below(r, 200));
    *m = (uint8_t)(1 + below(r, 12));
    *d = (uint8_t)(1 + below(r, md[*m - 1]));
    if (*m == 2 && *d == 29 && !(*y % 4 == 0 && (*y % 100 != 0 || *y % 400 == 0))) *d = 28;
}

static uint32_t rand_nanos(randev_rng *r)
{
    switch (below(r, 4)) {
    case 0: return 0;
    case 1: return (uint32_t)below(r, 1000) * 1000000u;
    case 2: return (uint32_t)below(r, 1000000) * 1000u;
    default: return (uint32_t)below(r, 1000000000u);
    }
}

static void rand_value(randev_rng *r, rc_arena *a, const rc_column *col, rc_value *v)
{
    static const char *const zones[] = {"Asia/Shanghai", "UTC", "+08:00", "-05:30", "Europe/Berlin"};
    memset(v, 0, sizeof *v);
    if (col->nullable && chance(r, 15)) return;
    if (chance(r, 3)) {
        v->kind = RC_V_INVALID;
        v->s = chance(r, 50) ? str_copy(a, "0000-00-00 00:00:00", 19) : rand_text(r, a, 8);
        return;
    }
    v->kind = (rc_vkind)col->type.info->vkind;
    switch (v->kind) {
    case RC_V_BOOL: v->b = chance(r, 50); break;
    case RC_V_INT: v->i = chance(r, 10) ? (chance(r, 50) ? INT64_MIN : INT64_MAX) : (int64_t)randev_next(r) >> below(r, 64); break;
    case RC_V_UINT: v->u = chance(r, 10) ? UINT64_MAX : randev_next(r) >> below(r, 64); break;
    case RC_V_BITS: {
        int w = col->type.p1 > 0 ? col->type.p1 : 1;
        v->u = w >= 64 ? randev_next(r) : randev_next(r) & ((1ull << w) - 1);
        break;
    }
    case RC_V_DECIMAL: v->dec = rand_decimal(r, a); break;
    case RC_V_FLOAT32: v->f32 = rand_f32(r); break;
    case RC_V_FLOAT64: v->f64 = rand_f64(r); break;
    case RC_V_BYTES: v->s = rand_bytes(r, a); break;
    case RC_V_DATE: rand_date(r, &v->date.year, &v->date.month, &v->date.day); break;
    case RC_V_TIME:
        v->time.hour = chance(r, 20) ? 838 : below(r, 100);
        v->time.minute = (uint8_t)below(r, 60);
        v->time.second = (uint8_t)below(r, 60);
        v->time.nanos = rand_nanos(r);
        v->time.neg = chance(r, 30) && (v->time.hour || v->time.minute || v->time.second || v->time.nanos);
        break;
    case RC_V_DATETIME:
        rand_date(r, &v->dt.year, &v->dt.month, &v->dt.day);
        v->dt.hour = (uint8_t)below(r, 24);
        v->dt.minute = (uint8_t)below(r, 60);
        v->dt.second = (uint8_t)below(r, 60);
        v->dt.nanos = rand_nanos(r);
        if (chance(r, 30)) {
            const char *z = zones[below(r, 5)];
            v->dt.zone = str_copy(a, z, strlen(z));
        }
        break;
    case RC_V_TIMESTAMP:
        v->ts.sec = (int64_t)(randev_next(r) % 253402300800ull) - 62135596800LL; /* years 1..9999 */
        v->ts.nanos = rand_nanos(r);
        break;
    default: v->s = rand_text(r, a, 40); break;
    }
}

/* A declaration for a catalog row, with parameters where the type takes them. */
static void rand_decl(randev_rng *r, const rc_type_info *t, char *out, size_t cap)
{
    const char *n = t->name;
    if (!strcmp(n, "array")) snprintf(out, cap, "int4[]");
    else if (!strncmp(n, "decimal", 7) || !strncmp(n, "numeric", 7) || !strcmp(n, "number"))
        snprintf(out, cap, "%s(%u,%u)", n, 10 + below(r, 55), below(r, 10));
    else if (!strcmp(n, "bit")) snprintf(out, cap, "bit(%u)", 1 + below(r, 64));
    else if (!strcmp(n, "enum") || !strcmp(n, "set")) snprintf(out, cap, "%s('a','b','it''s')", n);
    else if (!strcmp(n, "varchar") || !strcmp(n, "char")) snprintf(out, cap, "%s(%u) character set utf8mb4", n, 1 + below(r, 255));
    else if (!strcmp(n, "datetime") || !strcmp(n, "time")) snprintf(out, cap, "%s(%u)", n, below(r, 7));
    else if (!strcmp(n, "timestamp with time zone")) snprintf(out, cap, "timestamp(6) with time zone");
    else snprintf(out, cap, "%s", n);
}

void randev_value(randev_rng *r, rc_arena *a, const rc_column *col, rc_value *v) { rand_value(r, a, col, v); }

void randev_decl(randev_rng *r, const rc_type_info *t, char *out, size_t cap) { rand_decl(r, t, out, cap); }

/* An LSN as the readers accept it (rc_lsn_text_check): "X/Y" in hex, either case, or decimal. */
static rc_str rand_lsn(randev_rng *r, rc_arena *a)
{
    char buf[24];
    uint64_t v = randev_next(r) >> below(r, 64);
    int n = chance(r, 30) ? snprintf(buf, sizeof buf, "%llu", (unsigned long long)v)
                          : snprintf(buf, sizeof buf, chance(r, 80) ? "%X/%X" : "%x/%x", (unsigned)(v >> 32), (unsigned)v);
    return str_copy(a, buf, (size_t)n);
}

void randev_make(randev_rng *r, rc_arena *a, rc_event *ev)
{
    static const rc_dbkind kinds[] = {RC_DB_MYSQL, RC_DB_MARIADB, RC_DB_OB_MYSQL, RC_DB_OB_ORACLE, RC_DB_POSTGRES, RC_DB_UNKNOWN};
    memset(ev, 0, sizeof *ev);
    ev->op = (rc_op)below(r, RC_OP_COUNT);
    ev->src.kind = kinds[below(r, 6)];
    rc_str *strs[] = {&ev->src.server, &ev->src.version, &ev->src.tenant, &ev->src.db, &ev->src.schema, &ev->src.table,
                      &ev->pos.file, &ev->pos.gtid, &ev->pos.scn, &ev->pos.txid, &ev->pos.checkpoint};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
        if (chance(r, 60)) *strs[i] = rand_text(r, a, 12);
    if (chance(r, 60)) ev->pos.lsn = rand_lsn(r, a);
    if (chance(r, 20)) ev->pos.last_commit_lsn = rand_lsn(r, a);
    if ((ev->pos.has_offset = chance(r, 50))) ev->pos.offset = randev_next(r);
    if ((ev->pos.has_seq = chance(r, 50))) ev->pos.seq = randev_next(r) >> below(r, 64);
    if ((ev->pos.has_tx_index = chance(r, 50))) ev->pos.tx_index = (uint32_t)randev_next(r);
    if ((ev->pos.has_tx_count = chance(r, 30))) ev->pos.tx_count = (uint32_t)randev_next(r);
    if ((ev->pos.has_server_id = chance(r, 30))) ev->pos.server_id = randev_next(r);
    if ((ev->pos.has_thread = chance(r, 30))) ev->pos.thread = randev_next(r) >> 8;
    if ((ev->pos.has_row = chance(r, 30))) ev->pos.row = (uint32_t)randev_next(r);
    if ((ev->pos.has_xmin = chance(r, 20))) ev->pos.xmin = randev_next(r) >> 16;
    if (chance(r, 20)) ev->pos.query = rand_text(r, a, 20);
    if (chance(r, 20)) ev->snapshot = str_copy(a, "last", 4);
    if ((ev->has_ts = chance(r, 80))) ev->ts_us = (int64_t)randev_next(r);
    if ((ev->has_proc = chance(r, 50))) ev->proc_us = (int64_t)(randev_next(r) >> 2);

    bool row = ev->op <= RC_OP_READ;
    if (ev->op == RC_OP_DDL || (ev->op == RC_OP_TRUNCATE && chance(r, 50))) {
        ev->ddl = rand_text(r, a, 30);
        if (!ev->ddl.n) ev->ddl = str_copy(a, "DROP TABLE t", 12);
        if (chance(r, 70)) ev->ddl_kind = str_copy(a, "ALTER_TABLE", 11);
    }
    if (!row) return;

    rc_family fam = rc_dbkind_family(ev->src.kind);
    const rc_type_info *rows[200];
    unsigned nrows = 0;
    for (const rc_type_info *t = rc_type_catalog; t->name && nrows < 200; t++)
        if (t->family == fam) rows[nrows++] = t;
    uint32_t ncols = 1 + below(r, 14);
    rc_column *cols = rc_arena_alloc(a, sizeof *cols * ncols);
    for (uint32_t c = 0; c < ncols; c++) {
        char decl[96], name[16];
        rand_decl(r, rows[below(r, nrows)], decl, sizeof decl);
        size_t dl = strlen(decl);
        char *d = rc_arena_memdup(a, decl, dl);
        memset(&cols[c], 0, sizeof cols[c]);
        rc_coltype_parse(fam, d, dl, &cols[c].type, NULL);
        snprintf(name, sizeof name, "c%u", c);
        cols[c].name = str_copy(a, name, strlen(name));
        if (chance(r, 10)) {
            rc_str t = rand_text(r, a, 6);
            if (t.n) cols[c].name = t;
        }
        for (uint32_t q = 0; q < c; q++)
            if (cols[q].name.n == cols[c].name.n && !memcmp(cols[q].name.p, cols[c].name.p, cols[c].name.n))
                cols[c].name = str_copy(a, name, strlen(name));
        cols[c].pk = (c == 0 || chance(r, 10)) ? 1 : 0;
        cols[c].nullable = !cols[c].pk && chance(r, 70);
    }
    /* number the key columns; sometimes in reverse column order (PRIMARY KEY (b, a)) */
    uint16_t npk = 0;
    for (uint32_t c = 0; c < ncols; c++) npk += cols[c].pk != 0;
    bool reverse = chance(r, 30);
    uint16_t k = 0;
    for (uint32_t c = 0; c < ncols; c++)
        if (cols[c].pk) cols[c].pk = reverse ? (uint16_t)(npk - k++) : (uint16_t)++k;
    ev->ncols = ncols;
    ev->cols = cols;
    bool want_before = ev->op == RC_OP_DELETE || (ev->op == RC_OP_UPDATE && chance(r, 80));
    bool want_after = ev->op != RC_OP_DELETE;
    if (want_before) {
        rc_value *v = rc_arena_alloc(a, sizeof *v * ncols);
        for (uint32_t c = 0; c < ncols; c++) rand_value(r, a, &cols[c], &v[c]);
        ev->before = v;
    }
    if (want_after) {
        rc_value *v = rc_arena_alloc(a, sizeof *v * ncols);
        for (uint32_t c = 0; c < ncols; c++) rand_value(r, a, &cols[c], &v[c]);
        ev->after = v;
    }
    if (ev->op == RC_OP_UPDATE && chance(r, 50)) {
        uint8_t *ch = rc_arena_alloc(a, ncols);
        for (uint32_t c = 0; c < ncols; c++) ch[c] = chance(r, 30);
        ev->changed = ch;
    }
}
