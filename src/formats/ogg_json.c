/* Oracle GoldenGate JSON (`ogg-json`, docs/formats/ogg-json.md): the operation layout of
 * Oracle GoldenGate for Big Data's JSON formatter, one message per row change, keys in the
 * formatter's order: {"table", "op_type", "op_ts", "current_ts", "pos", "primary_keys",
 * "before", "after"}. Values as the formatter writes them by default
 * (treatAllColumnsAsStrings=false): numbers as JSON numbers with their exact digits, the
 * rest as strings. The reader is ogg_json_read.c. */
#include <stdlib.h>
#include <string.h>
#include "core/bson.h"
#include "formats/enc_event.h"
#include "formats/ogg_json.h"
#include "core/fmt.h"
#include "core/jsonw.h"

enum { KEYS_PRIMARY, KEYS_PRIAMRY, KEYS_NONE };
enum { CTS_ISO, CTS_SQL, CTS_NONE };

typedef struct ogg_enc {
    rc_ogg_common o;
    int keys, current_ts;
    bool strings;
    rc_enc_colkeys colkeys; /* "name": of the columns of the last cached list */
} ogg_enc;

static rc_status ogg_new(const rc_options *o, void **out, rc_error *err)
{
    ogg_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    rc_status st = rc_ogg_common_parse(o, &e->o, err);
    if (st != RC_OK) {
        free(e);
        return st;
    }
    e->keys = e->o.keys, e->current_ts = e->o.current_ts;
    e->strings = e->o.numbers == 1;
    *out = e;
    return RC_OK;
}

static void ogg_free(void *p)
{
    ogg_enc *e = p;
    if (e) rc_enc_colkeys_fini(&e->colkeys);
    free(e);
}

/* "YYYY-MM-DD HH:MM:SS.ffffff" of an instant in µs, always six fraction digits as OGG writes. */
static void put_time(rc_buf *b, int64_t us, const rc_tz *tz, char sep)
{
    rc_timestamp ts = {rc_floor_div(us, 1000000), 0};
    int64_t frac = us - ts.sec * 1000000;
    rc_buf_putc(b, '"');
    rc_fmt_ts_local(b, &ts, rc_tz_offset_at(tz, ts.sec), sep);
    rc_fmt_frac_digits(b, (uint32_t)frac, 6);
    rc_buf_putc(b, '"');
}

/* expr's text, between quotes when `quote`. */
#define QUOTED_IF(b, quote, expr)            \
    do {                                     \
        if (quote) rc_buf_putc((b), '"');    \
        expr;                                \
        if (quote) rc_buf_putc((b), '"');    \
    } while (0)

/* One column value: numbers as numbers (decimals with their exact digits, never through a
 * double; strings with ogg-json.numbers=string), times as OGG's text, bytes as base64,
 * everything else as a string. */
static void put_value(rc_buf *b, const ogg_enc *e, const rc_value *v)
{
    switch (v->kind) {
    case RC_V_NULL: RC_BUF_LIT(b, "null"); return;
    case RC_V_BOOL: QUOTED_IF(b, e->strings, rc_buf_puts(b, v->b ? "true" : "false")); return;
    case RC_V_INT: QUOTED_IF(b, e->strings, rc_fmt_i64(b, v->i)); return;
    case RC_V_UINT:
    case RC_V_BITS: QUOTED_IF(b, e->strings, rc_fmt_u64(b, v->u)); return;
    case RC_V_DECIMAL: QUOTED_IF(b, e->strings, rc_fmt_dec_plain(b, &v->dec)); return;
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: /* NaN and the infinities are strings already */
        QUOTED_IF(b, e->strings && !rc_f64_special(v->kind == RC_V_FLOAT32 ? (double)v->f32 : v->f64), rc_fmt_json_float(b, v));
        return;
    case RC_V_BYTES: QUOTED_IF(b, true, rc_fmt_base64(b, (const unsigned char *)v->s.p, v->s.n)); return;
    case RC_V_DATE: QUOTED_IF(b, true, rc_fmt_date(b, &v->date)); return;
    case RC_V_TIME: QUOTED_IF(b, true, rc_fmt_time(b, &v->time)); return;
    case RC_V_DATETIME: QUOTED_IF(b, true, rc_fmt_datetime(b, &v->dt, ' ', false)); return;
    case RC_V_TIMESTAMP: QUOTED_IF(b, true, rc_fmt_ts_local(b, &v->ts, rc_tz_offset_at(&e->o.tz, v->ts.sec), ' ')); return;
    default: rc_jw_str(b, v->s.p, v->s.n); return; /* text, JSON, enum, set, geometry, interval, invalid */
    }
}

/* {"col":value,...}; columns the source did not send are left out, as OGG leaves out the
 * columns missing from its trail record: unavailable values, and in a before image that holds
 * only the key (key_only) every other column, whose NULL says nothing. */
static void put_image(rc_buf *b, ogg_enc *e, const rc_event *ev, const rc_value *img, bool key_only)
{
    rc_buf_putc(b, '{');
    bool first = true, cached = rc_enc_colkeys_for(&e->colkeys, ev);
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (img[i].kind == RC_V_UNAVAILABLE || (key_only && !ev->cols[i].pk)) continue;
        if (!first) rc_buf_putc(b, ',');
        first = false;
        rc_enc_put_colkey(b, &e->colkeys, ev, i, cached);
        put_value(b, e, &img[i]);
    }
    rc_buf_putc(b, '}');
}

/* "0/16B3748" as the 64-bit number it stands for. */
static bool lsn_value(rc_str s, uint64_t *out)
{
    uint64_t part[2] = {0, 0};
    int k = 0;
    size_t digits = 0;
    for (size_t i = 0; i < s.n; i++) {
        char ch = s.p[i];
        int v = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
        if (ch == '/' && k == 0 && digits) k = 1, digits = 0;
        else if (v < 0 || ++digits > 8) return false;
        else part[k] = part[k] << 4 | (uint64_t)v;
    }
    if (k != 1 || !digits) return false;
    *out = part[0] << 32 | part[1];
    return true;
}

/* "pos": the source's position as OGG's digits. A checkpoint that is all digits (what the
 * reader keeps) is written as it is, padded to OGG's 20; a binlog position is the file's
 * sequence number and the offset, ten digits each, as OGG's trail sequence number and RBA
 * (its last ten digits of the file name at most, so that the 20 digits hold it); else a
 * PostgreSQL LSN or an SCN as its number; else the event's sequence; else zeros. */
static void put_pos(rc_buf *b, const rc_event *ev)
{
    const rc_str cp = ev->pos.checkpoint;
    size_t k = 0;
    while (k < cp.n && cp.p[k] >= '0' && cp.p[k] <= '9') k++;
    char d[24];
    rc_buf_putc(b, '"');
    if (cp.n && k == cp.n) {
        for (size_t z = cp.n; z < 20; z++) rc_buf_putc(b, '0');
        rc_buf_put(b, cp.p, cp.n);
    } else {
        uint64_t hi = 0, lo = ev->pos.has_seq ? ev->pos.seq : 0;
        size_t f = ev->pos.file.n, digits = 0;
        while (f && digits < 10 && ev->pos.file.p[f - 1] >= '0' && ev->pos.file.p[f - 1] <= '9') f--, digits++;
        for (size_t q = f; q < ev->pos.file.n; q++) hi = hi * 10 + (uint64_t)(ev->pos.file.p[q] - '0'); /* "mysql-bin.000003": 3 */
        uint64_t u;
        if (ev->pos.has_offset && digits && ev->pos.offset < 10000000000ull) lo = hi * 10000000000ull + ev->pos.offset;
        else if (lsn_value(ev->pos.lsn, &u) || (ev->pos.scn.n && rc_parse_u64(ev->pos.scn.p, ev->pos.scn.n, &u) == RC_OK)) lo = u;
        for (int i = 19; i >= 0; i--, lo /= 10) d[i] = (char)('0' + lo % 10);
        rc_buf_put(b, d, 20);
    }
    rc_buf_putc(b, '"');
}

/* db[.schema].table */
static void put_table(rc_buf *b, const rc_event *ev)
{
    rc_buf_putc(b, '"');
    const rc_str parts[3] = {ev->src.db, ev->src.schema, ev->src.table};
    bool first = true;
    for (int i = 0; i < 3; i++) {
        if (!parts[i].n && i < 2) continue;
        if (!first) rc_buf_putc(b, '.');
        first = false;
        rc_jw_str_body(b, parts[i].p, parts[i].n);
    }
    rc_buf_putc(b, '"');
}

static rc_status ogg_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    ogg_enc *e = p;
    if (ev->doc) return rc_doc_refuse("ogg-json", err);
    char op;
    switch (ev->op) {
    case RC_OP_INSERT:
    case RC_OP_READ: op = 'I'; break; /* an initial load is inserts in OGG's trail */
    case RC_OP_UPDATE: op = 'U'; break;
    case RC_OP_DELETE: op = 'D'; break;
    case RC_OP_TRUNCATE: op = 'T'; break;
    case RC_OP_DDL: /* said on stderr and counted as not expressible; the run goes on */
        rc_enc_unsupported(err, "ogg-json", ev, "OGG's JSON formatter writes no DDL message");
        return RC_SKIP;
    default: return RC_SKIP; /* heartbeat, begin, commit: no message (docs/formats/ogg-json.md) */
    }
    if (op == 'I' && !ev->after) {
        rc_enc_unsupported(err, "ogg-json", ev, "an insert needs its row (\"after\")");
        return RC_SKIP;
    }
    if (op != 'T' && op != 'I') {
        rc_status need = rc_enc_need_before(ev, "ogg-json", "\"before\"", false, err);
        if (need != RC_OK) return need;
    }
    RC_BUF_LIT(b, "{\"table\":");
    put_table(b, ev);
    RC_BUF_LIT(b, ",\"op_type\":\"");
    rc_buf_putc(b, op);
    RC_BUF_LIT(b, "\",\"op_ts\":");
    put_time(b, ev->has_ts ? ev->ts_us : 0, &e->o.tz, ' ');
    if (e->current_ts != CTS_NONE) {
        RC_BUF_LIT(b, ",\"current_ts\":");
        put_time(b, ev->has_proc ? ev->proc_us : ev->has_ts ? ev->ts_us : 0, &e->o.tz, e->current_ts == CTS_ISO ? 'T' : ' ');
    }
    RC_BUF_LIT(b, ",\"pos\":");
    put_pos(b, ev);
    if (e->keys != KEYS_NONE) {
        rc_buf_puts(b, e->keys == KEYS_PRIMARY ? ",\"primary_keys\":" : ",\"priamry_keys\":");
        if (rc_enc_has_pk(ev)) rc_enc_put_pk_array(b, ev);
        else RC_BUF_LIT(b, "[]"); /* an array even without a key: Paimon refuses a null one */
    }
    if (op == 'U' || op == 'D') {
        RC_BUF_LIT(b, ",\"before\":");
        put_image(b, e, ev, ev->before, ev->before_key_only);
    }
    if (op == 'I' || op == 'U') {
        RC_BUF_LIT(b, ",\"after\":");
        put_image(b, e, ev, ev->after, false);
    }
    rc_buf_putc(b, '}');
    return rc_enc_finish(b, err);
}

const rc_format rc_format_ogg_json = {
    .name = "ogg-json",
    .summary = "Oracle GoldenGate for Big Data JSON: table, op_type I/U/D/T, op_ts, current_ts, pos, primary_keys, before, after",
    .content_type = "application/json",
    .options = rc_ogg_options,
    .enc_new = ogg_new,
    .enc_free = ogg_free,
    .encode_value = ogg_encode,
    .dec_new = rc_ogg_dec_new,
    .dec_free = rc_ogg_dec_free,
    .decode = rc_ogg_decode,
};
