/* libFuzzer target: PostgreSQL value texts (src/sources/pg/pg_value_types.c, core/pg_value_text.c). The first byte picks
 * the column type (every reader, arrays, typmods), the rest is the value text. No input may
 * crash; an error names a byte inside the text; an accepted value has the kind its reader
 * promises, holds valid UTF-8 where it is text, and the native writer writes it; every
 * other encoder writes it or returns an error with a message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"
#include "core/jsonw.h"
#include "sources/pg/pg_value.h"

static const struct {
    uint32_t oid;
    int32_t typmod;
} types[] = {
    {20, -1},   {21, -1},   {23, -1},        {26, -1},   {1700, -1},  {1700, 655366}, {700, -1},  {701, -1},  {16, -1},
    {25, -1},   {1043, 24}, {1042, 8},       {17, -1},   {1082, -1},  {1083, -1},     {1083, 3},  {1266, -1}, {1114, -1},
    {1114, 0},  {1184, -1}, {1186, -1},      {1186, 470286339},        {114, -1},      {3802, -1}, {2950, -1}, {1560, 5},
    {1562, -1}, {869, -1},  {790, -1},       {600, -1},  {3904, -1},  {1007, -1},     {1009, -1}, {1020, -1}, {1185, 3},
    {1231, 655366},         {16400, -1},     {16399, -1},
    /* issue 28: extensions' types by name (hstore: its text read by upstream Debezium's hstore
     * reader, debezium_pg.c), an array of hstore, a type rowcast does not know, bit varying */
    {16410, -1},            {16411, -1},     {16412, -1},    {16413, -1},
    /* box, circle: upstream Debezium with include.unknown.datatypes=true rewrites their numbers
     * (debezium_pg_geometric.c) */
    {603, -1},              {718, -1},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rc_arena a;
    static rc_buf out;
    static rc_pg_types *reg;
    if (!reg) {
        rc_error e;
        rc_error_clear(&e);
        rc_arena_init(&a);
        rc_buf_init(&out, 0);
        reg = rc_pg_types_new();
        const char *labels[] = {"sad", "ok"};
        const size_t lens[] = {3, 2};
        if (!reg || rc_pg_types_add_enum(reg, 16400, 2, labels, lens, &e) != RC_OK || rc_pg_types_add_array(reg, 16399, 16400, &e) != RC_OK ||
            rc_pg_types_add_named(reg, 16410, "hstore", 0, &e) != RC_OK || rc_pg_types_add_array(reg, 16411, 16410, &e) != RC_OK ||
            rc_pg_types_add_named(reg, 16412, "mytype", 0, &e) != RC_OK || rc_pg_types_add_named(reg, 16413, "citext", 0, &e) != RC_OK)
            abort();
    }
    if (!size) return 0;
    rc_arena_reset(&a);
    unsigned pick = data[0] % (sizeof types / sizeof types[0]);
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    rc_error err;
    rc_error_clear(&err);
    rc_pg_type t;
    if (rc_pg_type_resolve(reg, types[pick].oid, types[pick].typmod, &a, &t, &err) != RC_OK) abort();
    rc_column col = {.name = RC_STR("c"), .type = t.type};
    rc_value v;
    if (rc_pg_value_parse(&t, &col, s, n, &a, &v, &err) != RC_OK) {
        if (err.code == RC_OK || err.offset > n || !err.message[0]) abort();
        return 0;
    }
    /* the kind follows from the reader (numeric, dates and timestamps may also be invalid) */
    static const rc_vkind kind_of[RC_PG_R_COUNT] = {
        [RC_PG_R_INT] = RC_V_INT,           [RC_PG_R_NUMERIC] = RC_V_DECIMAL,     [RC_PG_R_FLOAT4] = RC_V_FLOAT32,
        [RC_PG_R_FLOAT8] = RC_V_FLOAT64,    [RC_PG_R_BOOL] = RC_V_BOOL,           [RC_PG_R_TEXT] = RC_V_TEXT,
        [RC_PG_R_BYTEA] = RC_V_BYTES,       [RC_PG_R_DATE] = RC_V_DATE,           [RC_PG_R_TIME] = RC_V_TIME,
        [RC_PG_R_TIMETZ] = RC_V_TEXT,       [RC_PG_R_TIMESTAMP] = RC_V_DATETIME,  [RC_PG_R_TIMESTAMPTZ] = RC_V_TIMESTAMP,
        [RC_PG_R_INTERVAL] = RC_V_INTERVAL, [RC_PG_R_JSON] = RC_V_JSON,           [RC_PG_R_UUID] = RC_V_TEXT,
        [RC_PG_R_BITS] = RC_V_TEXT,         [RC_PG_R_ENUM] = RC_V_ENUM,           [RC_PG_R_ARRAY] = RC_V_TEXT,
    };
    if (v.kind != kind_of[t.reader] && v.kind != RC_V_INVALID) abort();
    if (v.kind == RC_V_INVALID && t.reader != RC_PG_R_NUMERIC && t.reader != RC_PG_R_DATE && t.reader != RC_PG_R_TIMESTAMP &&
        t.reader != RC_PG_R_TIMESTAMPTZ)
        abort();
    if ((v.kind == RC_V_TEXT || v.kind == RC_V_JSON || v.kind == RC_V_ENUM || v.kind == RC_V_INTERVAL) &&
        (v.s.n != n || rc_utf8_valid_prefix(v.s.p, v.s.n) != n || memcmp(v.s.p, s, n)))
        abort();
    rc_event ev = {.op = RC_OP_INSERT, .src = {.kind = RC_DB_POSTGRES, .db = RC_STR("d"), .schema = RC_STR("public"), .table = RC_STR("t")},
                   .ncols = 1, .cols = &col, .after = &v};
    rc_buf_reset(&out);
    if (rc_native_encode(NULL, &ev, &out, &err) != RC_OK) abort();
    /* every name's encoder (oms-debezium's with the option its name fixes), and upstream
     * Debezium with schemas, writes the value or says why not */
    static void *encs[64], *upstream, *unknown;
    static bool ready;
    int nf = 0;
    while (rc_format_names[nf].name && nf < 64) nf++;
    if (!ready) {
        for (int i = 0; i < nf; i++) {
            const rc_format_name *nm = &rc_format_names[i];
            rc_option fixed = {nm->fixed_key, nm->fixed_value};
            rc_options fo = {&fixed, nm->fixed_key ? 1 : 0};
            if (!nm->now && nm->format && nm->format->enc_new && nm->format->enc_new(&fo, &encs[i], &err) != RC_OK) abort();
        }
        static const rc_option up[] = {{"debezium.schemas", "true"}};
        rc_options o = {up, 1};
        if (rc_format_find("debezium")->enc_new(&o, &upstream, &err) != RC_OK) abort();
        static const rc_option unk[] = {{"debezium.schemas", "true"}, {"debezium.include.unknown.datatypes", "true"},
                                        {"debezium.interval.handling.mode", "string"}};
        rc_options uo = {unk, 3};
        if (rc_format_find("debezium")->enc_new(&uo, &unknown, &err) != RC_OK) abort();
        ready = true;
    }
    for (int i = 0; i <= nf + 1; i++) { /* the last two: upstream Debezium with schemas, and with unknown types and intervals as text */
        const rc_format *f = i < nf ? rc_format_names[i].format : rc_format_find("debezium");
        void *enc = i < nf ? encs[i] : i == nf ? upstream : unknown;
        if (!f) continue; /* an old spelling, mysql-binlog */
        if (!f->encode_value) continue;
        rc_buf_reset(&out);
        rc_error_clear(&err);
        rc_status st = f->encode_value(enc, &ev, &out, &err);
        if (st != RC_OK && st != RC_SKIP && st != RC_PENDING && err.code == RC_OK) abort(); /* an error without message */
    }
    return 0;
}
