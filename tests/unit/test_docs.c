/* Document events (docs/design/documents.md): generated documents with every BSON type and
 * deep nesting survive drs-dds and native (encode, decode, rc_event_equal) as inserts, updates,
 * replacements and deletes, and through Debezium's MongoDB envelope and on through drs-dds;
 * the MongoDB Kafka connector's hand-written change event with every
 * type (../shared, skipped when absent) decodes through mongo-change-stream with each type kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/format.h"
#include "core/bson.h"
#include "core/ejson.h"

static rc_arena arena;
static uint64_t rng = 0x9E3779B97F4A7C15u;

static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
static uint32_t below(uint32_t n) { return (uint32_t)(next() % n); }

/* Up to max characters of `alphabet`, each of its characters one byte but "~", which stands for
 * a character of more bytes (valid UTF-8 throughout). */
static rc_str text(const char *alphabet, uint32_t max)
{
    static const char *const wide[] = {"\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x9b\x92"};
    uint32_t n = below(max + 1), an = (uint32_t)strlen(alphabet), len = 0;
    char *p = rc_arena_alloc(&arena, 4 * n + 1);
    for (uint32_t i = 0; i < n; i++) {
        char ch = alphabet[below(an)];
        const char *w = ch == '~' ? wide[below(3)] : NULL;
        if (w) memcpy(p + len, w, strlen(w)), len += (uint32_t)strlen(w);
        else p[len++] = ch;
    }
    return (rc_str){p, len};
}

static rc_str bytes(uint32_t max)
{
    uint32_t n = below(max + 1);
    char *p = rc_arena_alloc(&arena, n + 1);
    for (uint32_t i = 0; i < n; i++) p[i] = (char)next();
    return (rc_str){p, n};
}

static void gen(rc_bson *v, int depth);

static void gen_doc(rc_bson *v, int depth, bool array)
{
    uint32_t n = depth > 0 ? below(5) : 0;
    rc_bson_member *m = rc_arena_alloc(&arena, (n + 1) * sizeof *m);
    for (uint32_t i = 0; i < n; i++) {
        /* names: never a $-wrapper's, which a reader would take for a value */
        m[i].key = array ? (rc_str){"", 0} : text("abc.XY_z 09~\"\\\n", 6);
        gen(&m[i].val, depth - 1);
    }
    *v = (rc_bson){.kind = array ? RC_B_ARRAY : RC_B_DOCUMENT, .doc = {m, n}};
}

static void gen(rc_bson *v, int depth)
{
    static const char *const decimals[] = {"0", "-0", "1.10", "-1234567890123456789012345678901234", "1E+6111", "1.0E-6174", "NaN", "-Infinity", "0.000"};
    static const double doubles[] = {0.0, -0.0, 1.0, 0.1, -2.5e-300, 1e21, 123456789.125, 5e-324};
    memset(v, 0, sizeof *v);
    switch (below(RC_B_KIND_COUNT + 3)) {
    case RC_B_DOUBLE:
        v->kind = RC_B_DOUBLE;
        v->f64 = below(4) ? doubles[below(8)] : below(2) ? __builtin_nan("") : -__builtin_inf();
        break;
    case RC_B_STRING: v->kind = RC_B_STRING, v->s = text("ab \"\\/\t\x01~{}[]:,", 8); break;
    case RC_B_BINARY: v->kind = RC_B_BINARY, v->bin.subtype = (uint8_t)below(256), v->bin.data = bytes(9); break;
    case RC_B_UNDEFINED: v->kind = RC_B_UNDEFINED; break;
    case RC_B_OBJECTID:
        v->kind = RC_B_OBJECTID;
        for (int k = 0; k < 12; k++) v->oid[k] = (uint8_t)next();
        break;
    case RC_B_BOOL: v->kind = RC_B_BOOL, v->b = below(2); break;
    case RC_B_DATE: v->kind = RC_B_DATE, v->i64 = below(3) ? (int64_t)(next() % 500000000000000ULL) - 250000000000000LL : (int64_t)next(); break;
    case RC_B_NULL: v->kind = RC_B_NULL; break;
    case RC_B_REGEX: v->kind = RC_B_REGEX, v->re.pattern = text("a/b.*^$(?:)", 6), v->re.options = text("imsx", 3); break;
    case RC_B_CODE: v->kind = RC_B_CODE, v->s = text("f(x){};", 6); break;
    case RC_B_SYMBOL: v->kind = RC_B_SYMBOL, v->s = text("sym", 4); break;
    case RC_B_INT32: v->kind = RC_B_INT32, v->i32 = below(2) ? (int32_t)below(100) : (int32_t)next(); break;
    case RC_B_TIMESTAMP: v->kind = RC_B_TIMESTAMP, v->ts.t = (uint32_t)next(), v->ts.i = (uint32_t)next(); break;
    case RC_B_INT64: v->kind = RC_B_INT64, v->i64 = below(2) ? (int64_t)below(100) - 50 : (int64_t)next(); break;
    case RC_B_DECIMAL128: v->kind = RC_B_DECIMAL128, v->s = (rc_str){decimals[below(9)], strlen(decimals[0])}, v->s.n = strlen(v->s.p); break;
    case RC_B_MINKEY: v->kind = RC_B_MINKEY; break;
    case RC_B_MAXKEY: v->kind = RC_B_MAXKEY; break;
    case RC_B_CODE_SCOPE: {
        rc_bson *scope = rc_arena_alloc(&arena, sizeof *scope);
        gen_doc(scope, depth > 0 ? depth - 1 : 0, false);
        v->kind = RC_B_CODE_SCOPE, v->cws.code = text("x+y", 4), v->cws.scope = scope;
        break;
    }
    case RC_B_ARRAY: gen_doc(v, depth, true); break;
    default: gen_doc(v, depth, false); break; /* documents, more often */
    }
}

static const rc_bson *gen_top(int depth)
{
    rc_bson *v = rc_arena_alloc(&arena, sizeof *v);
    gen_doc(v, depth, false);
    return v;
}

/* ev encoded by format `name`, decoded back: equal. */
static void through(const char *name, const rc_event *ev)
{
    const rc_format *f = rc_format_find(name);
    assert_non_null(f);
    void *enc, *dec;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(f->enc_new(NULL, &enc, &err), RC_OK);
    assert_int_equal(f->dec_new(NULL, &dec, &err), RC_OK);
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_status st = f->encode_value(enc, ev, &b, &err);
    if (st != RC_OK) fail_msg("%s: encode: %s", name, err.message);
    rc_event_list l = {0};
    st = f->decode(dec, b.data, b.len, &arena, &l, &err);
    if (st != RC_OK) fail_msg("%s: decode: %s: %.*s", name, err.message, (int)(b.len > 600 ? 600 : b.len), b.data);
    assert_int_equal(l.count, 1);
    char why[200];
    if (!rc_event_equal(ev, &l.items[0], why, sizeof why)) fail_msg("%s: %s: %.*s", name, why, (int)(b.len > 600 ? 600 : b.len), b.data);
    rc_event_list_fini(&l);
    rc_buf_fini(&b);
    f->enc_free(enc);
    f->dec_free(dec);
}

static void test_generated_documents_survive(void **state)
{
    (void)state;
    for (int round = 0; round < 400; round++) {
        rc_arena_reset(&arena);
        rc_doc_change *d = rc_arena_alloc(&arena, sizeof *d);
        memset(d, 0, sizeof *d);
        rc_event ev;
        memset(&ev, 0, sizeof ev);
        ev.src.db = RC_STR("shop"), ev.src.table = RC_STR("orders");
        ev.pos.seq = (uint64_t)round + 1, ev.pos.has_seq = true;
        ev.ts_us = 1684315111439000, ev.proc_us = 1684315111576000, ev.has_ts = ev.has_proc = true;
        d->has_cluster_time = true, d->cluster_t = (uint32_t)next(), d->cluster_i = (uint32_t)next();
        int depth = 1 + round % 8;
        switch (round % 4) {
        case 0: ev.op = RC_OP_INSERT, d->full = gen_top(depth); break;
        case 1: ev.op = RC_OP_UPDATE, d->replace = true, d->full = gen_top(depth), d->key = gen_top(2); break;
        case 2:
            ev.op = RC_OP_UPDATE, d->key = gen_top(2), d->set = gen_top(depth);
            if (below(2)) d->unset = gen_top(1), d->unset_first = below(2);
            if (!d->set->doc.n) d->set = NULL;
            if (!d->set && !d->unset) d->set = gen_top(depth), ((rc_bson *)d->set)->doc.n = 0;
            if (!d->set || !d->unset) d->unset_first = false;
            break;
        default: ev.op = RC_OP_DELETE, d->key = gen_top(depth); break;
        }
        ev.doc = d;
        through("drs-dds", &ev);
        through("native", &ev);
    }
}

/* ev through Debezium's MongoDB envelope (the layout of `version`): its value, and its key when
 * the event has a document key, encoded and decoded as a record; the event read back into *out
 * (in the arena), which must equal ev. */
static void through_debezium(const char *version, const rc_event *ev, rc_event *out)
{
    const rc_format *f = rc_format_find("debezium");
    assert_non_null(f);
    const rc_option item = {"debezium.version", version};
    const rc_options opts = {&item, 1}, *o = &opts;
    void *enc, *dec;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(f->enc_new(o, &enc, &err), RC_OK);
    assert_int_equal(f->dec_new(o, &dec, &err), RC_OK);
    rc_buf k, v;
    rc_buf_init(&k, 0), rc_buf_init(&v, 0);
    if (f->encode_value(enc, ev, &v, &err) != RC_OK) fail_msg("debezium %s: encode: %s", version, err.message);
    bool keyed = ev->doc->key != NULL;
    if (keyed && f->encode_key(enc, ev, &k, &err) != RC_OK) fail_msg("debezium %s: key: %s", version, err.message);
    rc_record_in r = {v.data, keyed ? k.data : NULL, v.data, keyed ? k.len : 0, v.len};
    rc_event_list l = {0};
    if (f->decode_record(dec, &r, &arena, &l, &err) != RC_OK)
        fail_msg("debezium %s: decode: %s: %.*s", version, err.message, (int)(v.len > 600 ? 600 : v.len), v.data);
    assert_int_equal(l.count, 1);
    char why[200];
    if (!rc_event_equal(ev, &l.items[0], why, sizeof why)) fail_msg("debezium %s: %s: %.*s", version, why, (int)(v.len > 600 ? 600 : v.len), v.data);
    *out = l.items[0]; /* its trees are in the arena */
    rc_event_list_fini(&l);
    rc_buf_fini(&k), rc_buf_fini(&v);
    f->enc_free(enc), f->dec_free(dec);
}

/* {"_id": <a generated value>} */
static const rc_bson *gen_key(void)
{
    rc_bson_member *m = rc_arena_alloc(&arena, sizeof *m);
    m->key = RC_STR("_id");
    do gen(&m->val, 2);
    while (m->val.kind == RC_B_NULL || m->val.kind == RC_B_UNDEFINED);
    rc_bson *k = rc_arena_alloc(&arena, sizeof *k);
    *k = (rc_bson){.kind = RC_B_DOCUMENT, .doc = {m, 1}};
    return k;
}

/* {"<name>": true, ...}: what an update removed (Debezium lists the names only) */
static const rc_bson *gen_removed(void)
{
    static const rc_bson yes = {.kind = RC_B_BOOL, .b = true};
    uint32_t n = 1 + below(3);
    rc_bson_member *m = rc_arena_alloc(&arena, n * sizeof *m);
    for (uint32_t i = 0; i < n; i++) m[i] = (rc_bson_member){text("abc.d~", 5), yes};
    rc_bson *u = rc_arena_alloc(&arena, sizeof *u);
    *u = (rc_bson){.kind = RC_B_DOCUMENT, .doc = {m, n}};
    return u;
}

/* Generated document events of every BSON type, nested up to eight deep, through Debezium's
 * MongoDB envelope (2.7 and 1.1 layouts) and back equal, then on through DRS DDS and back, and
 * native: equal but for what DRS's layout has no place for (the server name; the id it numbers). */
static void test_generated_documents_debezium(void **state)
{
    (void)state;
    for (int round = 0; round < 400; round++) {
        rc_arena_reset(&arena);
        rc_doc_change *d = rc_arena_alloc(&arena, sizeof *d);
        memset(d, 0, sizeof *d);
        rc_event ev;
        memset(&ev, 0, sizeof ev);
        ev.src.server = RC_STR("rowcast"), ev.src.db = RC_STR("shop"), ev.src.table = RC_STR("orders");
        d->has_cluster_time = true, d->cluster_t = (uint32_t)next(), d->cluster_i = (uint32_t)next();
        ev.ts_us = (int64_t)d->cluster_t * 1000000, ev.proc_us = ev.ts_us + (int64_t)below(100000) * 1000, ev.has_ts = ev.has_proc = true;
        int depth = 1 + round % 8;
        bool v1 = round % 2; /* the 1.1 layout: a patch, $unset before $set kept */
        switch (round % 6) {
        case 0:
        case 1: ev.op = RC_OP_INSERT, d->full = gen_top(depth); break;
        case 2:
        case 3:
            ev.op = RC_OP_UPDATE, d->key = gen_key(), d->set = gen_top(depth);
            if (!d->set->doc.n) d->set = NULL;
            if (!d->set || below(2)) d->unset = gen_removed(), d->unset_first = v1 && d->set && below(2);
            break;
        default: ev.op = RC_OP_DELETE, d->key = gen_key(); break;
        }
        ev.doc = d;
        rc_event back;
        through_debezium(v1 ? "1.1.1.Final" : "2.7.0.Final", &ev, &back);
        through("native", &back);
        /* on through DRS DDS: it has no server name, and numbers its messages */
        back.src.server = (rc_str){0};
        back.pos.seq = 1, back.pos.has_seq = true;
        through("drs-dds", &back);
    }
}

/* Paimon's event-bson.txt (../shared): a hand-written document with one field per BSON type in
 * relaxed and legacy Extended JSON ({"$binary": …, "$type": "4"}, a bare long): each read as its
 * type, then as an insert through Debezium's envelope, DRS DDS and native and back equal. */
static void test_paimon_every_type(void **state)
{
    (void)state;
    const char *path = RC_SOURCE_DIR "/../shared/testdata/peers/apache__paimon/paimon-flink/paimon-flink-cdc/src/test/resources/kafka/"
                                     "debezium-bson/table/event/event-bson.txt";
    FILE *fp = fopen(path, "r");
    if (!fp) skip();
    static char line[8192], doc[8192];
    doc[0] = 0;
    while (fgets(line, sizeof line, fp))
        if (line[0] == '{') memcpy(doc, line, strlen(line) + 1); /* the last: the document (the first is its key) */
    fclose(fp);
    rc_arena_reset(&arena);
    rc_bson *v = rc_arena_alloc(&arena, sizeof *v);
    rc_error err;
    rc_error_clear(&err);
    if (rc_ejson_read(doc, strlen(doc), &arena, v, &err) != RC_OK) fail_msg("%s", err.message);
    static const struct {
        const char *name;
        rc_bson_kind kind;
    } want[] = {{"id", RC_B_OBJECTID},      {"age", RC_B_INT32},        {"created_time", RC_B_INT64}, {"updated_time", RC_B_INT64},
                {"deleted_time", RC_B_DATE}, {"register_time", RC_B_TIMESTAMP}, {"double_nan", RC_B_DOUBLE}, {"double_zero", RC_B_DOUBLE},
                {"decimal", RC_B_DECIMAL128}, {"decimal_nan", RC_B_DECIMAL128}, {"regex", RC_B_REGEX}, {"symbol", RC_B_SYMBOL},
                {"minKey", RC_B_MINKEY},     {"maxKey", RC_B_MAXKEY},     {"code", RC_B_CODE},          {"null", RC_B_NULL},
                {"undefined", RC_B_UNDEFINED}, {"binary", RC_B_BINARY},   {"uuid", RC_B_BINARY},        {"context", RC_B_DOCUMENT},
                {"array_mix", RC_B_ARRAY}};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        const rc_bson *x = rc_bson_get(v, want[k].name);
        if (!x || x->kind != want[k].kind) fail_msg("%s: %s", want[k].name, x ? rc_bson_kind_name(x->kind) : "absent");
    }
    assert_int_equal(rc_bson_get(v, "updated_time")->i64, 1735934393769LL);
    assert_int_equal(rc_bson_get(v, "deleted_time")->i64, 1735934393769LL);
    assert_int_equal(rc_bson_get(v, "register_time")->ts.t, 1736997330);
    assert_int_equal(rc_bson_get(v, "uuid")->bin.subtype, 4);
    assert_int_equal(rc_bson_get(v, "array_mix")->doc.items[2].val.kind, RC_B_INT64);
    assert_int_equal(rc_bson_get(rc_bson_get(rc_bson_get(v, "context"), "location"), "lon")->kind, RC_B_DOUBLE);
    rc_doc_change *d = rc_arena_alloc(&arena, sizeof *d);
    memset(d, 0, sizeof *d);
    d->full = v, d->has_cluster_time = true, d->cluster_t = 1736997330, d->cluster_i = 2;
    rc_event ev, back;
    memset(&ev, 0, sizeof ev);
    ev.op = RC_OP_INSERT, ev.src.server = RC_STR("rowcast"), ev.src.db = RC_STR("db"), ev.src.table = RC_STR("coll");
    ev.ts_us = 1736997330000000, ev.proc_us = 1736997330123000, ev.has_ts = ev.has_proc = true, ev.doc = d;
    through_debezium("2.7.0.Final", &ev, &back);
    through_debezium("1.9.4.Final", &ev, &back);
    through("native", &back);
    back.src.server = (rc_str){0}, back.pos.seq = 1, back.pos.has_seq = true;
    through("drs-dds", &back);
    /* a change stream event has no processing time nor DRS's id */
    back.has_proc = false, back.proc_us = 0, back.pos.has_seq = false, back.pos.seq = 0;
    through("mongo-change-stream", &back);
}

static void test_mongo_kafka_every_type(void **state)
{
    (void)state;
    const char *path = RC_SOURCE_DIR "/../shared/testdata/peers/mongodb__mongo-kafka/extracted/src/test/java/com/mongodb/kafka/connect/"
                                     "source/producer/SchemaAndValueProducerTest.java__testRawJsonStringSchemaAndValueProducer.jsonl";
    FILE *fp = fopen(path, "r");
    if (!fp) skip();
    static char line[8192];
    assert_non_null(fgets(line, sizeof line, fp));
    fclose(fp);
    /* the hand-written event's placeholders: an update, no rename target */
    static const char rename[] = "\"to\": {\"db\": \"<to_database>\", \"coll\": \"<to_collection>\"}, ";
    char *op = strstr(line, "\"<operation>\""), *to = strstr(line, rename);
    assert_non_null(op), assert_non_null(to);
    memcpy(op, "\"update\"     ", 13);
    memmove(to, to + sizeof rename - 1, strlen(to + sizeof rename - 1) + 1);
    const rc_format *f = rc_format_find("mongo-change-stream");
    void *dec;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(f->dec_new(NULL, &dec, &err), RC_OK);
    rc_event_list l = {0};
    rc_arena_reset(&arena);
    if (f->decode(dec, line, strlen(line), &arena, &l, &err) != RC_OK) fail_msg("%s", err.message);
    assert_int_equal(l.count, 1);
    const rc_doc_change *d = l.items[0].doc;
    assert_non_null(d), assert_non_null(d->full), assert_non_null(d->before);
    static const struct {
        const char *name;
        rc_bson_kind kind;
    } want[] = {{"binary", RC_B_BINARY}, {"code", RC_B_CODE}, {"codeWithScope", RC_B_CODE_SCOPE}, {"dateTime", RC_B_DATE},
                {"decimal128", RC_B_DECIMAL128}, {"double", RC_B_DOUBLE}, {"int32", RC_B_INT32}, {"int64", RC_B_INT64},
                {"maxKey", RC_B_MAXKEY}, {"minKey", RC_B_MINKEY}, {"null", RC_B_NULL}, {"objectId", RC_B_OBJECTID},
                {"regex", RC_B_REGEX}, {"symbol", RC_B_SYMBOL}, {"timestamp", RC_B_TIMESTAMP}, {"undefined", RC_B_UNDEFINED}};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        const rc_bson *v = rc_bson_get(d->full, want[k].name);
        if (!v || v->kind != want[k].kind) fail_msg("%s: %s", want[k].name, v ? rc_bson_kind_name(v->kind) : "absent");
    }
    assert_int_equal(rc_bson_get(d->full, "int64")->i64, 52);
    assert_int_equal(rc_bson_get(d->full, "int32")->i32, 42);
    assert_true(rc_bson_get(d->full, "double")->f64 == 62.0);
    assert_int_equal(rc_bson_get(d->full, "dateTime")->i64, 1577836801000LL);
    assert_int_equal(rc_bson_get(d->full, "timestamp")->ts.t, 305419896);
    assert_memory_equal(rc_bson_get(d->full, "decimal128")->s.p, "1.0", 3);
    assert_int_equal(rc_bson_get(d->set, "myInt")->kind, RC_B_INT32);
    assert_non_null(rc_bson_get(d->unset, "legacyUUID"));
    assert_int_equal(d->ntruncated, 1);
    assert_int_equal(d->truncated[0].new_size, 1);
    assert_true(d->has_cluster_time && d->cluster_t == 123456789 && d->cluster_i == 42);
    assert_true(rc_bson_equal(d->full, d->before));
    through("native", &l.items[0]);
    through("mongo-change-stream", &l.items[0]); /* its writer, and back: every type kept */
    rc_event_list_fini(&l);
    f->dec_free(dec);
}

/* dbType: the vendor document's examples write "MongoDB", its table "Mongo": both read; else refused */
static void test_drs_dds_db_type(void **state)
{
    (void)state;
    static const char *const types[] = {"MongoDB", "Mongo", "MySQL"};
    const rc_format *f = rc_format_find("drs-dds");
    for (size_t i = 0; i < 3; i++) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "{\"id\":256,\"op\":\"INSERT\",\"dbType\":\"%s\",\"db\":\"ljx\",\"coll\":\"ljx\",\"value\":\"{\\\"_id\\\": "
                 "ObjectId(\\\"64650cf67dc36a464e76e583\\\")}\",\"where\":null,\"recordType\":\"insert\",\"extra\":\"insert\","
                 "\"es\":1684315111439,\"ts\":1684315111576,\"clusterTime\":\"1684344064:1\"}",
                 types[i]);
        void *dec;
        rc_error err;
        rc_error_clear(&err);
        assert_int_equal(f->dec_new(NULL, &dec, &err), RC_OK);
        rc_event_list l = {0};
        rc_status st = f->decode(dec, msg, strlen(msg), &arena, &l, &err);
        if (i < 2 && (st != RC_OK || l.count != 1)) fail_msg("dbType %s: %s", types[i], err.message);
        if (i == 2) assert_non_null(strstr(err.message, "\"dbType\" must be \"MongoDB\" (or \"Mongo\")"));
        rc_event_list_fini(&l);
        f->dec_free(dec);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_generated_documents_survive), cmocka_unit_test(test_generated_documents_debezium),
                                       cmocka_unit_test(test_paimon_every_type), cmocka_unit_test(test_mongo_kafka_every_type),
                                       cmocka_unit_test(test_drs_dds_db_type)};
    rc_arena_init(&arena);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rc_arena_fini(&arena);
    return failed;
}
