/* Binlog events, table maps, rows-event heads and GTID sets against the byte vectors other
 * projects keep in their tests (../shared/testdata/peers, SOURCES.md "Extracted byte vectors"):
 * each vector is decoded here and what came out is written as JSON in the shape of the
 * expectation, member by member, and compared with it. Without ../shared the vector tests are
 * skipped by name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/json.h"
#include "core/fmt.h"
#include "sources/mysql/my_decoder.h"
#include "sources/mysql/my_event.h"
#include "sources/mysql/my_gtid.h"
#include "sources/mysql/my_rows.h"
#include "sources/mysql/my_tablemap.h"

#define PEERS RC_SOURCE_DIR "/../shared/testdata/peers/"
#define GOMYSQL PEERS "go-mysql-org__go-mysql/extracted/replication/"
#define OSHEROFF PEERS "osheroff__mysql-binlog-connector-java/extracted/src/test/java/com/github/shyiko/mysql/binlog/event/deserialization/"

/* --- the vector files --- */

typedef struct vec {
    uint8_t *bytes;
    size_t n;
    rc_json j; /* the expectation */
    rc_arena arena;
    char where[64];
} vec;

typedef void (*vec_fn)(vec *v);

static int hexv(int c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

/* Runs fn over every vector of the file; returns how many, 0 (and a skip) without the file. */
static size_t each_vector(const char *path, vec_fn fn)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        print_message("skipped: %s is not here (../shared)\n", path);
        skip();
        return 0;
    }
    char *line = NULL;
    size_t cap = 0, count = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, f)) > 0) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        assert_non_null(t2);
        vec v;
        memset(&v, 0, sizeof v);
        v.n = (size_t)(t1 - line) / 2;
        v.bytes = malloc(v.n + 1);
        for (size_t i = 0; i < v.n; i++) v.bytes[i] = (uint8_t)(hexv(line[2 * i]) << 4 | hexv(line[2 * i + 1]));
        size_t wl = strcspn(t2 + 1, "\r\n");
        snprintf(v.where, sizeof v.where, "%.*s", (int)wl, t2 + 1);
        rc_arena_init(&v.arena);
        rc_json_init(&v.j, &v.arena);
        rc_error err;
        rc_error_clear(&err);
        if (rc_json_parse(&v.j, t1 + 1, (size_t)(t2 - t1 - 1), &err) != RC_OK) fail_msg("%s %s: %s", path, v.where, err.message);
        fn(&v);
        rc_json_fini(&v.j);
        rc_arena_fini(&v.arena);
        free(v.bytes);
        count++;
    }
    free(line);
    fclose(f);
    return count;
}

/* The expected value of `key` (a member of object node obj) as compact JSON equals `got`. */
static void expect_member(const vec *v, uint32_t obj, const char *key, const rc_buf *got)
{
    uint32_t m = rc_json_get(&v->j, obj, key);
    if (!m) fail_msg("%s: the expectation has no member %s", v->where, key);
    rc_buf want;
    rc_buf_init(&want, 0);
    rc_json_write(&v->j, m, &want);
    if (want.len != got->len || memcmp(want.data, got->data, want.len))
        fail_msg("%s: %s: expected %.*s, decoded %.*s", v->where, key, (int)want.len, want.data, (int)got->len, got->data);
    rc_buf_fini(&want);
}

static void expect_u64(const vec *v, uint32_t obj, const char *key, uint64_t x)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_fmt_u64(&b, x);
    expect_member(v, obj, key, &b);
    rc_buf_fini(&b);
}

static void put_jstr(rc_buf *b, const char *s, size_t n)
{
    rc_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\\') rc_buf_putc(b, '\\');
        rc_buf_putc(b, s[i]);
    }
    rc_buf_putc(b, '"');
}

static void expect_str(const vec *v, uint32_t obj, const char *key, const char *s, size_t n)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    put_jstr(&b, s, n);
    expect_member(v, obj, key, &b);
    rc_buf_fini(&b);
}

static void expect_bool(const vec *v, uint32_t obj, const char *key, bool x)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_buf_puts(&b, x ? "true" : "false");
    expect_member(v, obj, key, &b);
    rc_buf_fini(&b);
}

static void expect_hex(const vec *v, uint32_t obj, const char *key, const uint8_t *p, size_t n)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    if (!p) {
        rc_buf_puts(&b, "null");
    } else {
        rc_buf_putc(&b, '"');
        for (size_t i = 0; i < n; i++) {
            char t[3];
            snprintf(t, sizeof t, "%02x", p[i]);
            rc_buf_put(&b, t, 2);
        }
        rc_buf_putc(&b, '"');
    }
    expect_member(v, obj, key, &b);
    rc_buf_fini(&b);
}

/* A string member, NUL-terminated (in the vector's arena); "" when absent. */
static const char *jstr(const vec *v, uint32_t obj, const char *key)
{
    uint32_t m = rc_json_get(&v->j, obj, key);
    if (!m || rc_json_node(&v->j, m)->type != RC_J_STRING) return "";
    const rc_jnode *n = rc_json_node(&v->j, m);
    return rc_arena_memdup((rc_arena *)&v->arena, n->s, n->n);
}

static void set_text(const rc_my_gtid_set *g, char *out, size_t n)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_my_gtid_set_format(g, &b);
    snprintf(out, n, "%.*s", (int)b.len, b.data);
    rc_buf_fini(&b);
}

/* --- GTID sets --- */

static void test_gtid_set_text(void **state)
{
    static const char *const same[] = {
        "", "0-1-14", "0-1-14,1-2-7", "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7",
        "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:abc:1-3:x:7,4e11fa47-71ca-11e1-9e33-c80aa9429562:9",
    };
    rc_my_gtid_set *g = rc_my_gtid_set_new();
    rc_error err;
    char out[256];
    for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
        rc_error_clear(&err);
        assert_int_equal(rc_my_gtid_set_parse(g, same[i], strlen(same[i]), &err), RC_OK);
        set_text(g, out, sizeof out);
        assert_string_equal(out, same[i]);
    }
    /* the server's own text: upper case, ",\n" between UUIDs, tags in any order and case */
    const char *in = "3E11FA47-71CA-11E1-9E33-C80AA9429562:7:1-5:X:7:Abc:1-3,\n4e11fa4771ca11e19e33c80aa9429562:9:10";
    assert_int_equal(rc_my_gtid_set_parse(g, in, strlen(in), &err), RC_OK);
    set_text(g, out, sizeof out);
    assert_string_equal(out, "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7:abc:1-3:x:7,4e11fa47-71ca-11e1-9e33-c80aa9429562:9-10");
    /* adding transactions one by one joins the intervals */
    uint8_t u[16] = {0x3e, 0x11, 0xfa, 0x47};
    assert_int_equal(rc_my_gtid_set_parse(g, "", 0, &err), RC_OK);
    for (uint64_t k = 1; k <= 3; k++) assert_int_equal(rc_my_gtid_set_add_mysql(g, u, (rc_str){"", 0}, k, &err), RC_OK);
    assert_int_equal(rc_my_gtid_set_add_mysql(g, u, (rc_str){"", 0}, 5, &err), RC_OK);
    assert_int_equal(rc_my_gtid_set_add_mysql(g, u, (rc_str){"", 0}, 4, &err), RC_OK);
    set_text(g, out, sizeof out);
    assert_string_equal(out, "3e11fa47-0000-0000-0000-000000000000:1-5");
    assert_int_equal(rc_my_gtid_set_add_mariadb(g, 0, 1, 1, &err), RC_ERR_VALUE);
    assert_string_equal(err.message, "a MariaDB GTID cannot join a MySQL GTID set");
    /* MariaDB: the last sequence number per domain */
    assert_int_equal(rc_my_gtid_set_parse(g, "0-1-14,1-2-7", 12, &err), RC_OK);
    assert_int_equal(rc_my_gtid_set_add_mariadb(g, 0, 3, 15, &err), RC_OK);
    assert_int_equal(rc_my_gtid_set_add_mariadb(g, 5, 3, 1, &err), RC_OK);
    set_text(g, out, sizeof out);
    assert_string_equal(out, "0-3-15,1-2-7,5-3-1");
    assert_true(rc_my_gtid_set_is_mariadb(g));
    static const struct {
        const char *in, *msg;
    } bad[] = {
        {"0-1", "GTID set '0-1': expected DOMAIN-SERVER-SEQUENCE at byte 4"},
        {"0-1-2,0-3-4", "GTID set '0-1-2,0-3-4': a domain given twice at byte 12"},
        {"3e11fa47-71ca-11e1-9e33-c80aa9429562:0", "GTID set '3e11fa47-71ca-11e1-9e33-c80aa9429562:0': expected a GTID number (1 or more) at byte 39"},
        {"3e11fa47-71ca-11e1-9e33-c80aa9429562:5-3", "GTID set '3e11fa47-71ca-11e1-9e33-c80aa9429562:5-3': expected the interval's last number, not below its first at byte 41"},
        {"zz11fa47-71ca-11e1-9e33-c80aa9429562:1", "GTID set 'zz11fa47-71ca-11e1-9e33-c80aa9429562:1': expected a UUID at byte 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rc_error_clear(&err);
        assert_int_not_equal(rc_my_gtid_set_parse(g, bad[i].in, strlen(bad[i].in), &err), RC_OK);
        assert_string_equal(err.message, bad[i].msg);
        assert_true(rc_my_gtid_set_empty(g));
    }
    rc_my_gtid_set_free(g);
}

static void previous_gtids_vec(vec *v)
{
    rc_my_gtid_set *g = rc_my_gtid_set_new();
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_previous_gtids_parse(v->bytes, v->n, g, &err) != RC_OK) fail_msg("%s: %s", v->where, err.message);
    char out[2048];
    set_text(g, out, sizeof out);
    expect_str(v, 0, "gtid_set", out, strlen(out));
    /* and the text parses back to the same set */
    rc_my_gtid_set *h = rc_my_gtid_set_new();
    assert_int_equal(rc_my_gtid_set_parse(h, out, strlen(out), &err), RC_OK);
    char again[2048];
    set_text(h, again, sizeof again);
    assert_string_equal(again, out);
    rc_my_gtid_set_free(h);
    rc_my_gtid_set_free(g);
}

static void test_previous_gtids(void **state)
{
    assert_int_equal(each_vector(GOMYSQL "event_test.go__TestPreviousGTIDEvent.txt", previous_gtids_vec), 5);
    assert_int_equal(each_vector(OSHEROFF "PreviousGtidSetDeserializerTest.java__deserialize.txt", previous_gtids_vec), 1);
}

/* --- GTID events --- */

static void gtid_vec(vec *v)
{
    rc_my_gtid_ev g;
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_gtid_ev_parse(RC_MYEV_GTID, v->bytes, v->n, &g, &err) != RC_OK) fail_msg("%s: %s", v->where, err.message);
    uint32_t e = rc_json_get(&v->j, 0, "expected");
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_my_gtid_ev_format(&g, &b);
    expect_str(v, e, "gtid", b.data, b.len);
    rc_buf_fini(&b);
    expect_u64(v, e, "last_committed", g.last_committed);
    expect_u64(v, e, "sequence_number", g.sequence_number);
    expect_u64(v, e, "immediate_commit_timestamp", g.immediate_commit_ts);
    expect_u64(v, e, "original_commit_timestamp", g.original_commit_ts);
    expect_u64(v, e, "transaction_length", g.transaction_length);
    /* go-mysql says 0 for a server version the event leaves out, osheroff 999999 (MySQL's
     * UNDEFINED_SERVER_VERSION): the file's source decides */
    bool osheroff = rc_json_get(&v->j, 0, "test") != 0;
    uint32_t none = osheroff ? 999999 : 0;
    expect_u64(v, e, "immediate_server_version", g.immediate_server_version ? g.immediate_server_version : none);
    expect_u64(v, e, "original_server_version", g.immediate_server_version ? g.original_server_version : none);
    if (rc_json_get(&v->j, e, "flags")) expect_u64(v, e, "flags", g.flags);
}

static void gtid_vec_osheroff(vec *v)
{
    uint32_t e = rc_json_get(&v->j, 0, "expected");
    if (!rc_json_get(&v->j, e, "immediate_commit_timestamp")) { /* the 5.7 case states only these */
        rc_my_gtid_ev g;
        assert_int_equal(rc_my_gtid_ev_parse(RC_MYEV_GTID, v->bytes, v->n, &g, NULL), RC_OK);
        rc_buf b;
        rc_buf_init(&b, 0);
        rc_my_gtid_ev_format(&g, &b);
        expect_str(v, e, "gtid", b.data, b.len);
        rc_buf_fini(&b);
        expect_u64(v, e, "flags", g.flags);
        expect_u64(v, e, "last_committed", g.last_committed);
        expect_u64(v, e, "sequence_number", g.sequence_number);
        return;
    }
    gtid_vec(v);
}

static void test_gtid_events(void **state)
{
    assert_int_equal(each_vector(GOMYSQL "event_test.go__TestGTIDEventMysql8NewFields.txt", gtid_vec), 3);
    assert_int_equal(each_vector(OSHEROFF "MysqlGtidEventDataDeserializerTest.java__GtidEventData.txt", gtid_vec_osheroff), 4);
}

/* --- heartbeats, XA_PREPARE --- */

static void heartbeat_vec(vec *v)
{
    uint32_t hv = rc_json_get(&v->j, 0, "heartbeat_version");
    const char *ver = rc_json_node(&v->j, hv)->s;
    uint8_t type = ver[0] == '1' ? RC_MYEV_HEARTBEAT : ver[0] == '2' ? RC_MYEV_HEARTBEAT_V2 : 0;
    rc_my_heartbeat h;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_my_heartbeat_parse(type, v->bytes, v->n, &h, &err);
    expect_bool(v, 0, "error", st != RC_OK);
    if (st != RC_OK) return;
    expect_str(v, 0, "filename", h.file.p, h.file.n);
    rc_buf b;
    rc_buf_init(&b, 0);
    if (h.has_position) rc_fmt_u64(&b, h.position);
    else rc_buf_puts(&b, "null");
    expect_member(v, 0, "offset", &b);
    rc_buf_fini(&b);
}

static void test_heartbeat(void **state) { assert_int_equal(each_vector(GOMYSQL "event_test.go__TestHeartbeatEvent.txt", heartbeat_vec), 6); }

static void xa_vec(vec *v)
{
    rc_my_xa_prepare x;
    assert_int_equal(rc_my_xa_prepare_parse(v->bytes, v->n, &x, NULL), RC_OK);
    expect_bool(v, 0, "one_phase", x.one_phase);
    expect_u64(v, 0, "format_id", (uint64_t)x.format_id);
    expect_str(v, 0, "gtrid", x.gtrid.p, x.gtrid.n);
    expect_str(v, 0, "bqual", x.bqual.p, x.bqual.n);
}

static void test_xa_prepare(void **state)
{
    assert_int_equal(each_vector(OSHEROFF "XAPrepareEventDataDeserializerTest.java__deserialize.txt", xa_vec), 1);
}

/* --- TRANSACTION_PAYLOAD --- */

/* The inner events' types, named as `style` does ("go": WRITE_ROWS_EVENTv2, "java": EXT_UPDATE_ROWS). */
static void inner_types(const rc_buf *p, const char *style, rc_buf *out, uint64_t *log_pos)
{
    rc_buf_putc(out, '[');
    for (size_t i = 0; i < p->len;) {
        rc_my_header h;
        assert_int_equal(rc_my_header_parse((const uint8_t *)p->data + i, p->len - i, &h, NULL), RC_OK);
        assert_true(h.size >= RC_MY_HEADER_LEN && h.size <= p->len - i);
        *log_pos = h.next_pos;
        if (i) rc_buf_putc(out, ',');
        const char *name = rc_my_event_name(h.type);
        char t[48];
        if (!strcmp(style, "java")) { /* "QUERY", "TABLE_MAP", "EXT_UPDATE_ROWS", "XID" */
            size_t k = strlen(name) - (strstr(name, "_EVENT") ? strlen(strstr(name, "_EVENT")) : 0);
            bool v2 = h.type >= RC_MYEV_WRITE_ROWS && h.type <= RC_MYEV_DELETE_ROWS;
            snprintf(t, sizeof t, "%s%.*s", v2 ? "EXT_" : "", (int)k, name);
        } else {
            bool v2 = h.type >= RC_MYEV_WRITE_ROWS && h.type <= RC_MYEV_DELETE_ROWS;
            snprintf(t, sizeof t, "%s%s", name, v2 ? "v2" : "");
        }
        put_jstr(out, t, strlen(t));
        i += h.size;
    }
    rc_buf_putc(out, ']');
}

static void payload_vec_java(vec *v)
{
    rc_my_payload t;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_payload_parse(v->bytes, v->n, &t, &err), RC_OK);
    expect_u64(v, 0, "compression_type", t.compression);
    expect_u64(v, 0, "payload_size", t.payload_size);
    expect_u64(v, 0, "uncompressed_size", t.uncompressed_size);
    rc_buf p, b;
    rc_buf_init(&p, 0);
    rc_buf_init(&b, 0);
    if (rc_my_payload_inflate(&t, v->bytes, v->n, &p, &err) != RC_OK) fail_msg("%s: %s", v->where, err.message);
    uint64_t pos;
    inner_types(&p, "java", &b, &pos);
    expect_member(v, 0, "inner_events", &b);
    rc_buf_fini(&p);
    rc_buf_fini(&b);
}

static void payload_vec_go(vec *v)
{
    /* the vector is the zstd frame alone */
    rc_my_payload t = {.payload_size = v->n, .compression = RC_MY_COMPRESSION_ZSTD};
    rc_buf p, b;
    rc_buf_init(&p, 0);
    rc_buf_init(&b, 0);
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_payload_inflate(&t, v->bytes, v->n, &p, &err) != RC_OK) fail_msg("%s: %s", v->where, err.message);
    uint64_t pos = 1;
    inner_types(&p, "go", &b, &pos);
    expect_member(v, 0, "inner_event_types", &b);
    expect_u64(v, 0, "inner_event_log_pos", pos);
    rc_buf_fini(&p);
    rc_buf_fini(&b);
}

static void test_transaction_payload(void **state)
{
    assert_int_equal(each_vector(OSHEROFF "TransactionPayloadEventDataDeserializerTest.java__deserialize.txt", payload_vec_java), 1);
    assert_int_equal(each_vector(GOMYSQL "transaction_payload_event_test.go__TestTransactionPayloadEventDecode.txt", payload_vec_go), 1);
}

/* --- TABLE_MAP --- */

static rc_my_tablemap *tablemap_of(const vec *v, const uint8_t *b, size_t n)
{
    rc_my_fde f;
    rc_my_fde_default(&f);
    const char *server = jstr(v, 0, "server"), *flavor = jstr(v, 0, "flavor");
    bool mariadb = strstr(server, "mariadb") || !strcmp(flavor, "mariadb");
    rc_my_tablemap *m;
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_tablemap_parse(&f, mariadb, b, n, &m, &err) != RC_OK) fail_msg("%s: %s", v->where, err.message);
    char t[256];
    snprintf(t, sizeof t, "%.*s.%.*s", (int)m->db.n, m->db.p, (int)m->table.n, m->table.p);
    expect_str(v, 0, "table", t, strlen(t));
    return m;
}

typedef enum { K_NUMERIC, K_CHARACTER, K_ENUM_SET, K_GEOMETRY, K_ENUM, K_SET } col_kind;

static bool col_is(const rc_my_col *c, col_kind k, bool mariadb)
{
    switch (k) {
    case K_NUMERIC:
        return c->type == RC_MY_TINY || c->type == RC_MY_SHORT || c->type == RC_MY_INT24 || c->type == RC_MY_LONG ||
               c->type == RC_MY_LONGLONG || c->type == RC_MY_NEWDECIMAL || c->type == RC_MY_FLOAT || c->type == RC_MY_DOUBLE ||
               c->type == RC_MY_YEAR;
    case K_CHARACTER:
        return c->type == RC_MY_STRING || c->type == RC_MY_VARCHAR || c->type == RC_MY_VAR_STRING || c->type == RC_MY_BLOB ||
               (mariadb && c->type == RC_MY_GEOMETRY);
    case K_ENUM_SET: return c->type == RC_MY_ENUM || c->type == RC_MY_SET;
    case K_GEOMETRY: return c->type == RC_MY_GEOMETRY;
    case K_ENUM: return c->type == RC_MY_ENUM;
    case K_SET: return c->type == RC_MY_SET;
    }
    return false;
}

static void put_labels(rc_buf *b, const rc_my_col *c)
{
    rc_buf_putc(b, '[');
    for (uint32_t k = 0; k < c->nlabels; k++) {
        if (k) rc_buf_putc(b, ',');
        put_jstr(b, c->labels[k].p, c->labels[k].n);
    }
    rc_buf_putc(b, ']');
}

/* A per-column map in the expectation's shape: an object keyed by column index (or, for the
 * label lists of TestTableMapOptMetaNames, an array in column order); null when absent. */
static void expect_col_map(const vec *v, const rc_my_tablemap *m, const char *key, bool present, col_kind k, bool mariadb,
                           void (*put)(rc_buf *, const rc_my_tablemap *, uint32_t))
{
    uint32_t node = rc_json_get(&v->j, 0, key);
    bool as_array = node && rc_json_node(&v->j, node)->type == RC_J_ARRAY;
    rc_buf b;
    rc_buf_init(&b, 0);
    if (!present) {
        rc_buf_puts(&b, "null");
    } else {
        rc_buf_putc(&b, as_array ? '[' : '{');
        bool first = true;
        for (uint32_t c = 0; c < m->ncols; c++) {
            if (!col_is(&m->cols[c], k, mariadb)) continue;
            if (!first) rc_buf_putc(&b, ',');
            first = false;
            if (!as_array) {
                char t[16];
                snprintf(t, sizeof t, "\"%u\":", c);
                rc_buf_puts(&b, t);
            }
            put(&b, m, c);
        }
        rc_buf_putc(&b, as_array ? ']' : '}');
    }
    expect_member(v, 0, key, &b);
    rc_buf_fini(&b);
}

static void put_unsigned(rc_buf *b, const rc_my_tablemap *m, uint32_t c) { rc_buf_puts(b, m->cols[c].is_unsigned ? "true" : "false"); }
static void put_collation(rc_buf *b, const rc_my_tablemap *m, uint32_t c) { rc_fmt_u64(b, m->cols[c].collation); }
static void put_es_collation(rc_buf *b, const rc_my_tablemap *m, uint32_t c) { rc_fmt_u64(b, m->enum_set_collation[c]); }
static void put_geometry(rc_buf *b, const rc_my_tablemap *m, uint32_t c) { rc_fmt_u64(b, m->geometry_type[c]); }
static void put_col_labels(rc_buf *b, const rc_my_tablemap *m, uint32_t c) { put_labels(b, &m->cols[c]); }

static void tablemap_vec(vec *v)
{
    rc_my_tablemap *m = tablemap_of(v, v->bytes, v->n);
    bool mariadb = strstr(jstr(v, 0, "server"), "mariadb") || !strcmp(jstr(v, 0, "flavor"), "mariadb");
    rc_buf b;
    rc_buf_init(&b, 0);
    if (rc_json_get(&v->j, 0, "nullable")) {
        rc_buf_putc(&b, '[');
        for (uint32_t c = 0; c < m->ncols; c++) rc_buf_puts(&b, c ? (m->cols[c].nullable ? ",true" : ",false") : (m->cols[c].nullable ? "true" : "false"));
        rc_buf_putc(&b, ']');
        expect_member(v, 0, "nullable", &b);
    }
    if (rc_json_get(&v->j, 0, "column_names")) {
        rc_buf_reset(&b);
        if (!m->has_names) rc_buf_puts(&b, "null");
        else {
            rc_buf_putc(&b, '[');
            for (uint32_t c = 0; c < m->ncols; c++) {
                if (c) rc_buf_putc(&b, ',');
                put_jstr(&b, m->cols[c].name.p, m->cols[c].name.n);
            }
            rc_buf_putc(&b, ']');
        }
        expect_member(v, 0, "column_names", &b);
    }
    if (rc_json_get(&v->j, 0, "enum_str_values"))
        expect_col_map(v, m, "enum_str_values", m->has_enum_labels, K_ENUM, mariadb, put_col_labels);
    if (rc_json_get(&v->j, 0, "set_str_values")) expect_col_map(v, m, "set_str_values", m->has_set_labels, K_SET, mariadb, put_col_labels);
    if (rc_json_get(&v->j, 0, "unsigned")) expect_col_map(v, m, "unsigned", m->has_signedness, K_NUMERIC, mariadb, put_unsigned);
    if (rc_json_get(&v->j, 0, "collation_id")) expect_col_map(v, m, "collation_id", m->has_charsets, K_CHARACTER, mariadb, put_collation);
    if (rc_json_get(&v->j, 0, "enum_set_collation_id"))
        expect_col_map(v, m, "enum_set_collation_id", m->has_enum_labels || m->has_set_labels, K_ENUM_SET, mariadb, put_es_collation);
    if (rc_json_get(&v->j, 0, "geometry_type")) expect_col_map(v, m, "geometry_type", m->has_geometry, K_GEOMETRY, mariadb, put_geometry);
    if (rc_json_get(&v->j, 0, "primary_key")) {
        for (int pass = 0; pass < 2; pass++) {
            rc_buf_reset(&b);
            if (!m->has_pk) rc_buf_puts(&b, "null");
            else {
                rc_buf_putc(&b, '[');
                for (uint32_t k = 0; k < m->npk; k++) {
                    if (k) rc_buf_putc(&b, ',');
                    rc_fmt_u64(&b, pass ? m->pk_prefix[k] : m->pk[k]);
                }
                rc_buf_putc(&b, ']');
            }
            expect_member(v, 0, pass ? "primary_key_prefix" : "primary_key", &b);
        }
    }
    if (rc_json_get(&v->j, 0, "visible")) {
        uint8_t bits[16] = {0};
        rc_buf_reset(&b);
        if (!m->has_visibility) rc_buf_puts(&b, "null");
        else {
            rc_buf_putc(&b, '[');
            for (uint32_t c = 0; c < m->ncols; c++) {
                rc_buf_puts(&b, c ? "," : "");
                rc_buf_puts(&b, m->visible[c] ? "true" : "false");
                if (m->visible[c] && c < 128) bits[c / 8] |= (uint8_t)(0x80 >> (c % 8));
            }
            rc_buf_putc(&b, ']');
        }
        expect_member(v, 0, "visible", &b);
        expect_hex(v, 0, "visibility_bitmap", m->has_visibility ? bits : NULL, (m->ncols + 7) / 8);
    }
    rc_buf_fini(&b);
    rc_my_tablemap_free(m);
}

static void test_table_maps(void **state)
{
    assert_int_equal(each_vector(GOMYSQL "row_event_test.go__TestTableMapNullable.txt", tablemap_vec), 4);
    assert_int_equal(each_vector(GOMYSQL "row_event_test.go__TestTableMapOptMetaNames.txt", tablemap_vec), 4);
    assert_int_equal(each_vector(GOMYSQL "row_event_test.go__TestTableMapOptMetaPrimaryKey.txt", tablemap_vec), 8);
    assert_int_equal(each_vector(GOMYSQL "row_event_test.go__TestTableMapOptMetaVisibility.txt", tablemap_vec), 5);
    assert_int_equal(each_vector(GOMYSQL "row_event_test.go__TestTableMapHelperMaps.txt", tablemap_vec), 4);
}

/* --- rows events: the version-2 extra data --- */

static void extra_data_vec(vec *v)
{
    const char *tmhex = jstr(v, 0, "table_map");
    size_t tn = strlen(tmhex) / 2;
    uint8_t *tm = malloc(tn + 1);
    for (size_t i = 0; i < tn; i++) tm[i] = (uint8_t)(hexv(tmhex[2 * i]) << 4 | hexv(tmhex[2 * i + 1]));
    rc_my_tablemap *m = tablemap_of(v, tm, tn);
    const char *et = jstr(v, 0, "event_type");
    uint8_t type = !strncmp(et, "WRITE", 5) ? RC_MYEV_WRITE_ROWS : !strncmp(et, "UPDATE", 6) ? RC_MYEV_UPDATE_ROWS : RC_MYEV_DELETE_ROWS;
    rc_my_fde f;
    rc_my_fde_default(&f);
    rc_my_rows r;
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_rows_parse(&f, type, v->bytes, v->n, &r, &err) != RC_OK) fail_msg("%s: %s", v->where, err.message);
    assert_int_equal(r.table_id, m->table_id);
    uint32_t e = rc_json_get(&v->j, 0, "expected");
    expect_u64(v, e, "partition_id", r.partition_id);
    expect_u64(v, e, "source_partition_id", r.source_partition_id);
    expect_u64(v, e, "ndb_format", r.ndb_format);
    expect_hex(v, e, "ndb_data", r.has_ndb ? r.ndb_data : NULL, r.ndb_len);
    /* and its rows decode to the end of the event (INT columns: the stub's integers) */
    rc_arena a;
    rc_arena_init(&a);
    rc_buf scratch;
    rc_buf_init(&scratch, 0);
    size_t pos = r.rows_off, rows = 0;
    rc_value before[8], after[8];
    while (pos < v->n) {
        if (rc_my_rows_next(&r, m, v->bytes, v->n, &pos, before, after, &a, &scratch, &err) != RC_OK) fail_msg("%s: %s", v->where, err.message);
        rows++;
    }
    assert_true(rows > 0);
    rc_buf_fini(&scratch);
    rc_arena_fini(&a);
    rc_my_tablemap_free(m);
    free(tm);
}

static void test_rows_extra_data(void **state)
{
    assert_int_equal(each_vector(GOMYSQL "row_event_test.go__TestRowsDataExtraData.txt", extra_data_vec), 5);
}

/* --- the decoder over whole binlog files --- */

static void put_value(rc_buf *b, const rc_value *v)
{
    switch (v->kind) {
    case RC_V_NULL: rc_buf_puts(b, "NULL"); break;
    case RC_V_UNAVAILABLE: rc_buf_puts(b, "?"); break;
    case RC_V_INT: rc_fmt_i64(b, v->i); break;
    case RC_V_UINT: rc_fmt_u64(b, v->u); break;
    case RC_V_TEXT: case RC_V_BYTES: put_jstr(b, v->s.p, v->s.n); break;
    default: rc_buf_puts(b, rc_vkind_name(v->kind)); break;
    }
}

static void put_image(rc_buf *b, const rc_event *ev, const rc_value *vals)
{
    rc_buf_putc(b, '(');
    for (uint32_t c = 0; c < ev->ncols; c++) {
        if (c) rc_buf_putc(b, ',');
        rc_buf_put(b, ev->cols[c].name.p, ev->cols[c].name.n);
        rc_buf_putc(b, '=');
        put_value(b, &vals[c]);
    }
    rc_buf_putc(b, ')');
}

/* How decode_file hands the events over: as the file reader does (the decoder sums them), as
 * the live stream does (rc_my_decoder_feed_summed with the CRC32 its reader thread computes),
 * or the latter with a sum one off (what a corrupted event looks like to the decoder). */
enum feed_mode { FEED_PLAIN, FEED_SUMMED, FEED_SUM_OFF };

/* Feeds every event of a binlog file to a fresh decoder and writes one line per event made
 * ("insert db.t (a=1,b="x") @OFFSET gtid") and per error; the position at the end. flip: the
 * file's byte at that offset inverted first (0: none). */
/* The peers' binlog file `name` into buf (cap bytes, more than the file); the test is skipped
 * without ../shared. */
static size_t load_peer(const char *name, uint8_t *buf, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", PEERS, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_message("skipped: %s is not here (../shared)\n", path);
        skip();
    }
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    assert_true(n > 4 && n < cap && !memcmp(buf, "\xfe" "bin", 4));
    return n;
}

/* The size of the event at buf[at..n), 0 when it does not fit. */
static size_t event_size(const uint8_t *buf, size_t n, size_t at)
{
    rc_my_header h;
    size_t size = n - at >= RC_MY_HEADER_LEN && rc_my_header_parse(buf + at, n - at, &h, NULL) == RC_OK ? h.size : 0;
    return size < RC_MY_HEADER_LEN || size > n - at ? 0 : size;
}

/* One line per event of l (see decode_file_as), and the error of the event that made them. */
static void put_events(rc_buf *out, rc_status st, const rc_error *err, const rc_event_list *l)
{
    if (st != RC_OK) {
        rc_buf_puts(out, "error: ");
        rc_buf_puts(out, err->message);
        rc_buf_putc(out, '\n');
    }
    for (size_t i = 0; i < l->count; i++) {
        const rc_event *ev = &l->items[i];
        rc_buf_puts(out, rc_op_name(ev->op));
        if (ev->src.table.n) {
            rc_buf_putc(out, ' ');
            rc_buf_put(out, ev->src.db.p, ev->src.db.n);
            rc_buf_putc(out, '.');
            rc_buf_put(out, ev->src.table.p, ev->src.table.n);
        }
        if (ev->before) put_image(out, ev, ev->before);
        if (ev->after) put_image(out, ev, ev->after);
        rc_buf_puts(out, " @");
        rc_fmt_u64(out, ev->pos.offset);
        if (ev->pos.gtid.n) {
            rc_buf_putc(out, ' ');
            rc_buf_put(out, ev->pos.gtid.p, ev->pos.gtid.n);
        }
        rc_buf_putc(out, '\n');
    }
}

/* A decoder of the peers' dumps: server s1, the statements kept, its first file `file`. */
static rc_my_decoder *peer_decoder(const char *file)
{
    rc_my_decoder_config cfg = {.file = file, .server = RC_STR("s1"), .with_query = true};
    rc_my_decoder *d;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_decoder_new(&cfg, &d, &err), RC_OK);
    return d;
}

/* "at FILE:OFFSET GTIDS" and the NUL that ends the text. */
static void put_position(rc_buf *out, rc_my_decoder *d)
{
    rc_my_decoder_pos p;
    rc_my_decoder_position(d, &p);
    rc_buf_puts(out, "at ");
    rc_buf_puts(out, p.file);
    rc_buf_putc(out, ':');
    rc_fmt_u64(out, p.offset);
    rc_buf_putc(out, ' ');
    rc_my_gtid_set_format(p.gtids, out);
    rc_buf_putc(out, '\n');
    rc_buf_putc(out, 0);
}

static void decode_file_as(const char *name, enum feed_mode mode, size_t flip, rc_buf *out)
{
    static uint8_t buf[1 << 16];
    size_t n = load_peer(name, buf, sizeof buf);
    if (flip) {
        assert_true(flip < n);
        buf[flip] = (uint8_t)~buf[flip];
    }
    rc_my_decoder *d = peer_decoder(strrchr(name, '/') + 1);
    rc_error err;
    rc_error_clear(&err);
    rc_arena a;
    rc_arena_init(&a);
    rc_event_list l = {0};
    for (size_t at = 4; at < n;) {
        size_t size = event_size(buf, n, at);
        if (!size) {
            rc_buf_puts(out, "cut\n");
            break;
        }
        l.count = 0;
        rc_error_clear(&err);
        uint32_t sum = rc_my_crc32(0, buf + at, size - 4) + (mode == FEED_SUM_OFF);
        rc_status st = mode == FEED_PLAIN ? rc_my_decoder_feed(d, buf + at, size, at, &l, &a, &err)
                                          : rc_my_decoder_feed_summed(d, buf + at, size, at, sum, &l, &a, &err);
        put_events(out, st, &err, &l);
        at += size;
    }
    put_position(out, d);
    rc_event_list_fini(&l);
    rc_arena_fini(&a);
    rc_my_decoder_free(d);
    if (flip) buf[flip] = (uint8_t)~buf[flip];
}

static void decode_file(const char *name, rc_buf *out) { decode_file_as(name, FEED_PLAIN, 0, out); }

static void expect_file(const char *name, const char *want)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    decode_file(name, &b);
    if (strcmp(b.data, want)) fail_msg("%s decoded to\n%s\nexpected\n%s", name, b.data, want);
    rc_buf_fini(&b);
}

/* The file decoded as `mode` with byte `flip` inverted is `want`. */
static void expect_file_as(const char *name, enum feed_mode mode, size_t flip, const char *want)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    decode_file_as(name, mode, flip, &b);
    if (strcmp(b.data, want)) fail_msg("%s (mode %d, byte %zu flipped) decoded to\n%s\nexpected\n%s", name, mode, flip, b.data, want);
    rc_buf_fini(&b);
}

/* The live stream's reader thread computes each event's CRC32 (rc_my_decoder_feed_summed): the
 * same events, and for a corrupted event the same message, naming the same offset, as the
 * decoder's own check. */

/* data_80045_gtid's binlog.000002 from the first commit on: what every reading of it ends with */
#define DATA_80045_REST                                                                                               \
    "commit @498 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"                                                           \
    "begin @608 396e294c-1ca4-11f1-9ae7-00155da79c6b:6\n"                                                            \
    "delete test.t1(@1=4) @731 396e294c-1ca4-11f1-9ae7-00155da79c6b:6\n"                                             \
    "delete test.t1(@1=5) @731 396e294c-1ca4-11f1-9ae7-00155da79c6b:6\n"                                             \
    "delete test.t1(@1=6) @731 396e294c-1ca4-11f1-9ae7-00155da79c6b:6\n"                                             \
    "commit @793 396e294c-1ca4-11f1-9ae7-00155da79c6b:6\n"                                                           \
    "at binlog.000002:847 396e294c-1ca4-11f1-9ae7-00155da79c6b:1-6\n"

static void test_decoder_summed(void **state)
{
    const char *name = "Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_gtid.zip-members/data_80045_gtid/binlog.000002";
    rc_buf plain;
    rc_buf_init(&plain, 0);
    decode_file_as(name, FEED_PLAIN, 0, &plain);
    expect_file_as(name, FEED_SUMMED, 0, plain.data);
    rc_buf_reset(&plain);
    decode_file_as(name, FEED_PLAIN, 480, &plain); /* a byte of the UPDATE_ROWS at 408 */
    expect_file_as(name, FEED_SUMMED, 480, plain.data);
    rc_buf_fini(&plain);
    expect_file_as(name, FEED_SUMMED, 480,
                   "begin @276 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"
                   "error: binlog.000002 at offset 408: checksum mismatch in UPDATE_ROWS_EVENT (stored 3cbd79b1, computed 033591e0): "
                   "the event is corrupted\n"
                   DATA_80045_REST);
    /* the decoder compares with the sum it is given, it does not compute its own (the first
     * events; the message of a whole file is longer than cmocka prints) */
    const char *off = "error: binlog.000002 at offset 126: checksum mismatch in PREVIOUS_GTIDS_LOG_EVENT (stored 699caa6f, computed "
                      "699caa70): the event is corrupted\n"
                      "error: binlog.000002 at offset 197: checksum mismatch in GTID_LOG_EVENT (stored 3d2933f2, computed 3d2933f3): "
                      "the event is corrupted\n";
    rc_buf b;
    rc_buf_init(&b, 0);
    decode_file_as(name, FEED_SUM_OFF, 0, &b);
    if (strncmp(b.data, off, strlen(off))) fail_msg("a sum one off decoded to\n%.400s\nexpected it to start with\n%s", b.data, off);
    rc_buf_fini(&b);
}

/* The files of a stream, fed one after the other to one decoder as a server sends them: each
 * event summed by the live stream's own rc_my_event_sum (reader: true) and handed over as
 * my_source.c does (summed or not), or handed over for the decoder to sum (reader: false).
 * Byte `flip` of file `flip_file` is inverted first (flip 0: none). Per file, the events and
 * those summed, each of whose sums is checked against the one the event stores. */
#define STREAM_FILES 3
static void feed_stream(const char *const *names, bool reader, unsigned flip_file, size_t flip, rc_buf *out, size_t *events,
                        size_t *summed)
{
    static uint8_t buf[1 << 16];
    rc_my_decoder *d = peer_decoder("binlog.000001");
    rc_error err;
    rc_error_clear(&err);
    rc_arena a;
    rc_arena_init(&a);
    rc_event_list l = {0};
    bool sums = true; /* the stream's state, as my_stream.c's reader thread starts it */
    for (unsigned fi = 0; fi < STREAM_FILES; fi++) {
        size_t n = load_peer(names[fi], buf, sizeof buf);
        if (flip && fi == flip_file) buf[flip] = (uint8_t)~buf[flip];
        events[fi] = summed[fi] = 0;
        for (size_t at = 4, size; at < n && (size = event_size(buf, n, at)); at += size) {
            l.count = 0;
            rc_error_clear(&err);
            uint32_t sum = 0;
            bool is_summed = reader && rc_my_event_sum(buf + at, size, &sums, &sum);
            events[fi]++;
            if (is_summed) {
                summed[fi]++;
                if (!flip && sum != (uint32_t)rc_my_le(buf + at + size - 4, 4))
                    fail_msg("%s: the event at %zu summed to %08x, it stores %08x", names[fi], at, sum,
                             (uint32_t)rc_my_le(buf + at + size - 4, 4));
            }
            rc_status st = is_summed ? rc_my_decoder_feed_summed(d, buf + at, size, at, sum, &l, &a, &err)
                                     : rc_my_decoder_feed(d, buf + at, size, at, &l, &a, &err);
            put_events(out, st, &err, &l);
        }
    }
    put_position(out, d);
    rc_event_list_fini(&l);
    rc_arena_fini(&a);
    rc_my_decoder_free(d);
}

/* rc_my_event_sum over real dumps as a stream: a file with checksums that ends in a ROTATE,
 * a file whose FORMAT_DESCRIPTION says binlog_checksum=NONE, and a file with checksums again.
 * Every event of the two with checksums is summed (and its sum is the stored one), no event of
 * the other; the events decode as when the decoder sums them; a corrupted byte is reported
 * with the file and the event's offset. */
static void test_reader_sums(void **state)
{
    const char *const names[STREAM_FILES] = {
        "Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_gtid.zip-members/data_80045_gtid/binlog.000001",
        "osheroff__mysql-binlog-connector-java/src/test/resources/mysql-bin.checksum-none",
        "Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_gtid.zip-members/data_80045_gtid/binlog.000002",
    };
    size_t events[STREAM_FILES], summed[STREAM_FILES], pevents[STREAM_FILES], psummed[STREAM_FILES];
    rc_buf plain, got;
    rc_buf_init(&plain, 0);
    rc_buf_init(&got, 0);
    feed_stream(names, false, 0, 0, &plain, pevents, psummed);
    feed_stream(names, true, 0, 0, &got, events, summed);
    if (strcmp(got.data, plain.data)) fail_msg("summed by the reader decoded to\n%.600s\nexpected\n%.600s", got.data, plain.data);
    for (unsigned fi = 0; fi < STREAM_FILES; fi++) print_message("%s: %zu events, %zu summed\n", strrchr(names[fi], '/') + 1, events[fi], summed[fi]);
    assert_true(events[0] > 10 && events[1] > 10 && events[2] > 10);
    assert_int_equal(summed[0], events[0]);
    assert_int_equal(summed[1], 0);
    assert_int_equal(summed[2], events[2]);
    /* a byte of binlog.000002's UPDATE_ROWS at 408 */
    const char *want = "error: binlog.000002 at offset 408: checksum mismatch in UPDATE_ROWS_EVENT (stored 3cbd79b1, computed "
                       "033591e0): the event is corrupted\n";
    rc_buf_reset(&plain);
    rc_buf_reset(&got);
    feed_stream(names, false, 2, 480, &plain, pevents, psummed);
    feed_stream(names, true, 2, 480, &got, events, summed);
    if (strcmp(got.data, plain.data)) fail_msg("corrupted, summed by the reader decoded to\n%.600s\nexpected\n%.600s", got.data, plain.data);
    if (!strstr(got.data, want)) fail_msg("corrupted, summed by the reader decoded to\n%s\nwithout\n%s", got.data, want);
    rc_buf_fini(&plain);
    rc_buf_fini(&got);
}

static void test_decoder_files(void **state)
{
    /* the statements that made it: INSERT INTO t1 VALUES (1), (1) */
    expect_file("blackbeam__rust_mysql_common/test-data/binlogs/bug32407.001",
                "ddl @120\n"
                "begin @233\n"
                "insert test.t1(@1=1) @350\n"
                "insert test.t1(@1=1) @350\n"
                "commit @395\n"
                "at master-bin.000002:4 \n");
    /* ids 1..6 inserted, 1..3 updated to 101..103, 4..6 deleted (in the second file) */
    expect_file("Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_gtid.zip-members/data_80045_gtid/binlog.000002",
                "begin @276 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"
                "update test.t1(@1=1)(@1=101) @408 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"
                "update test.t1(@1=2)(@1=102) @408 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"
                "update test.t1(@1=3)(@1=103) @408 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"
                DATA_80045_REST);
    /* a relay log (two FDEs, two ROTATEs); the image leaves out the hidden generated column of
     * the functional index (the second) */
    expect_file("blackbeam__rust_mysql_common/test-data/binlogs/rpl_unfiltered_hidden_gcol.000001",
                "ddl @448\n"
                "ddl @651\n"
                "begin @849\n"
                "insert test.t(@1=1,@2=?,@3=\"1\") @979\n"
                "commit @1022\n"
                "at master-bin.000001:1076 \n");
    /* the GTID sets of PREVIOUS_GTIDS, untagged [1, 3) and tagged (mytag [1, 3) beside [1, 14)),
     * with the tagged transaction mytag:3 added at its commit */
    expect_file("blackbeam__rust_mysql_common/test-data/binlogs/binlog_transaction_previous_GTID_no_tag.000001",
                "at binlog.000008:4 b9b88c66-0755-11f1-9899-4a9da94c4d71:1-2\n");
    expect_file("blackbeam__rust_mysql_common/test-data/binlogs/binlog_transaction_with_GTID_TAG.000001",
                "begin @328 55778904-0299-11f1-b1b8-4ef0c4956feb:mytag:3\n"
                "insert test.orders(@1=3,@2=100,@3=decimal) @461 55778904-0299-11f1-b1b8-4ef0c4956feb:mytag:3\n"
                "commit @510 55778904-0299-11f1-b1b8-4ef0c4956feb:mytag:3\n"
                "at binlog.000005:4 55778904-0299-11f1-b1b8-4ef0c4956feb:1-13:mytag:1-3\n");
    /* a compressed transaction: QUERY, TABLE_MAP, WRITE_ROWS, XID inside one event */
    expect_file("blackbeam__rust_mysql_common/test-data/binlogs/transaction_compression.000001",
                "begin @274\n"
                "insert test.tb1(@1=1) @274\n"
                "commit @274\n"
                "at binlog.000043:4 357df524-4139-11ee-9979-b033ee13919e:1\n");
}

/* --- crafted events: QUERY status variables, refusals --- */

/* One event of type `type` with body b[0..n) at `at` into d, with a CRC32 when `crc`: the
 * decoder's error message ("" when none) and the events made into l. */
static rc_status feed_body(rc_my_decoder *d, uint8_t type, uint16_t flags, const uint8_t *b, size_t n, uint64_t at, bool crc,
                           rc_event_list *l, rc_arena *a, char *msg, size_t msgn)
{
    uint8_t ev[1024];
    size_t size = RC_MY_HEADER_LEN + n + (crc ? 4 : 0);
    assert_true(size <= sizeof ev);
    memset(ev, 0, RC_MY_HEADER_LEN);
    ev[4] = type;
    ev[5] = 9;
    for (int k = 0; k < 4; k++) ev[9 + k] = (uint8_t)(size >> (8 * k)), ev[13 + k] = (uint8_t)((at + size) >> (8 * k));
    ev[17] = (uint8_t)flags, ev[18] = (uint8_t)(flags >> 8);
    memcpy(ev + RC_MY_HEADER_LEN, b, n);
    if (crc) {
        uint32_t c = rc_my_crc32(0, ev, size - 4);
        for (int k = 0; k < 4; k++) ev[size - 4 + k] = (uint8_t)(c >> (8 * k));
    }
    rc_error err;
    rc_error_clear(&err);
    l->count = 0;
    rc_status st = rc_my_decoder_feed(d, ev, size, at, l, a, &err);
    snprintf(msg, msgn, "%s", st == RC_OK ? "" : err.message);
    return st;
}

static void test_query_status_vars(void **state)
{
    /* thread 7, exec 0, db "shop" (4), error 0, status variables: FLAGS2, SQL_MODE, CATALOG_NZ,
     * CHARSET, TIME_ZONE "+02:00", INVOKER, UPDATED_DB_NAMES (1: "shop"), MariaDB's XID; then the
     * db with its NUL and the statement */
    static const uint8_t sv[] = {0x00, 0, 0, 0, 0,                         /* FLAGS2 */
                                 0x01, 0x22, 0, 0, 0x40, 0, 0, 0, 0,          /* SQL_MODE */
                                 0x06, 3, 's', 't', 'd',                      /* CATALOG_NZ */
                                 0x04, 0x21, 0, 0xe0, 0, 0x2d, 0,             /* CHARSET 33, 224, 45 */
                                 0x05, 6, '+', '0', '2', ':', '0', '0',       /* TIME_ZONE */
                                 0x0b, 4, 'r', 'o', 'o', 't', 9, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't', /* INVOKER */
                                 0x0c, 1, 's', 'h', 'o', 'p', 0,              /* UPDATED_DB_NAMES */
                                 0x81, 1, 2, 3, 4, 5, 6, 7, 8};               /* MariaDB XID */
    uint8_t b[256];
    size_t n = 0;
    b[n++] = 7, b[n++] = 0, b[n++] = 0, b[n++] = 0;
    memset(b + n, 0, 4), n += 4;
    b[n++] = 4;
    b[n++] = 0, b[n++] = 0;
    b[n++] = sizeof sv, b[n++] = 0;
    memcpy(b + n, sv, sizeof sv), n += sizeof sv;
    memcpy(b + n, "shop", 5), n += 5;
    const char *sql = "ALTER TABLE t ADD c INT";
    memcpy(b + n, sql, strlen(sql)), n += strlen(sql);
    rc_my_fde f;
    rc_my_fde_default(&f);
    rc_my_query q;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_query_parse(&f, b, n, &q, &err), RC_OK);
    assert_int_equal(q.thread_id, 7);
    assert_true(q.has_sql_mode && q.sql_mode == 0x40000022ull);
    assert_true(q.has_charset && q.charset_client == 33 && q.collation_connection == 224 && q.collation_server == 45);
    assert_int_equal(q.time_zone.n, 6);
    assert_memory_equal(q.time_zone.p, "+02:00", 6);
    assert_int_equal(q.db.n, 4);
    assert_memory_equal(q.db.p, "shop", 4);
    assert_int_equal(q.sql.n, strlen(sql));
    assert_memory_equal(q.sql.p, sql, strlen(sql));
    /* status variables that run past their block */
    b[11] = 3;
    assert_int_equal(rc_my_query_parse(&f, b, n, &q, &err), RC_ERR_VALUE);
    assert_string_equal(err.message, "QUERY_EVENT status variables truncated at byte 16 of its body");
}

static void test_refusals(void **state)
{
    rc_my_decoder_config cfg = {.file = "bin.000007"};
    rc_my_decoder *d;
    assert_int_equal(rc_my_decoder_new(&cfg, &d, NULL), RC_OK);
    rc_arena a;
    rc_arena_init(&a);
    rc_event_list l = {0};
    char msg[600];
    /* an event type of a newer server: refused, unless it says a reader may skip it */
    static const uint8_t x[] = {1, 2, 3};
    assert_int_equal(feed_body(d, 200, 0, x, 3, 120, false, &l, &a, msg, sizeof msg), RC_ERR_UNSUPPORTED);
    assert_string_equal(msg, "bin.000007 at offset 120: event type 200 is not known and not marked ignorable "
                             "(LOG_EVENT_IGNORABLE_F): a newer server's event?");
    assert_int_equal(feed_body(d, 200, RC_MY_LOG_EVENT_IGNORABLE_F, x, 3, 142, false, &l, &a, msg, sizeof msg), RC_OK);
    /* INCIDENT: lost events */
    static const uint8_t inc[] = {1, 0, 11, 'L', 'O', 'S', 'T', '_', 'E', 'V', 'E', 'N', 'T', 'S'};
    assert_int_equal(feed_body(d, RC_MYEV_INCIDENT, 0, inc, sizeof inc, 164, false, &l, &a, msg, sizeof msg), RC_ERR_VALUE);
    assert_string_equal(msg, "bin.000007 at offset 164: INCIDENT_EVENT 1 (LOST_EVENTS): the server lost events here; what "
                             "follows cannot be trusted to be complete (resynchronise the target)");
    /* a rows event of a table no TABLE_MAP named */
    static const uint8_t rows[] = {42, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 5, 0, 0, 0};
    assert_int_equal(feed_body(d, RC_MYEV_WRITE_ROWS_V1, 0, rows, sizeof rows, 200, false, &l, &a, msg, sizeof msg), RC_ERR_SCHEMA);
    assert_string_equal(msg, "bin.000007 at offset 200: WRITE_ROWS_EVENT_V1 for table id 42, which no TABLE_MAP_EVENT before it "
                             "maps (a file read from the middle of a transaction?)");
    /* statement-based DML in a QUERY */
    uint8_t q[64] = {7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 's', 0};
    const char *sql = "/* app */ INSERT INTO t VALUES (1)";
    memcpy(q + 15, sql, strlen(sql));
    assert_int_equal(feed_body(d, RC_MYEV_QUERY, 0, q, 15 + strlen(sql), 240, false, &l, &a, msg, sizeof msg), RC_ERR_UNSUPPORTED);
    assert_string_equal(msg, "bin.000007 at offset 240: statement-based INSERT (INSERT INTO t VALUES (1)) cannot be captured: its "
                             "rows are not in the binlog; set binlog_format=ROW on the server (--on-error=skip goes on past the "
                             "statement: its rows are then missing from the output, the statement counted bad)");
    /* with CRC32 (a FORMAT_DESCRIPTION asking for it), a flipped byte */
    uint8_t fde[128];
    memset(fde, 0, sizeof fde);
    size_t fn = 0;
    fde[fn++] = 4, fde[fn++] = 0;
    memcpy(fde + fn, "8.0.32", 6), fn += 50 + 4;
    fde[fn++] = RC_MY_HEADER_LEN;
    fde[fn++] = 0x38, fde[fn++] = 0x0d; /* START_V3, QUERY: 13 */
    memset(fde + fn, 0, 38), fn += 38;
    fde[fn++] = 1; /* CRC32 */
    assert_int_equal(feed_body(d, RC_MYEV_FORMAT_DESCRIPTION, 0, fde, fn, 4, true, &l, &a, msg, sizeof msg), RC_OK);
    assert_int_equal(feed_body(d, 200, RC_MY_LOG_EVENT_IGNORABLE_F, x, 3, 300, true, &l, &a, msg, sizeof msg), RC_OK);
    rc_my_decoder_pos p;
    rc_my_decoder_position(d, &p);
    assert_string_equal(p.file, "bin.000007");
    assert_int_equal(p.offset, 300 + RC_MY_HEADER_LEN + 3 + 4);
    assert_false(p.in_transaction);
    rc_event_list_fini(&l);
    rc_arena_fini(&a);
    rc_my_decoder_free(d);
}

/* --- framing: CRC32 --- */

static void test_crc32(void **state)
{
    (void)state;
    /* the check value of CRC-32/ISO-HDLC (zlib's crc32) */
    assert_int_equal(rc_my_crc32(0, (const uint8_t *)"123456789", 9), 0xCBF43926u);
    assert_int_equal(rc_my_crc32(0, (const uint8_t *)"", 0), 0);
    /* folded 16 bytes at a time (64 bytes and more, where the CPU multiplies without carries),
     * eight at a time, then the rest: = the bitwise definition for every prefix of 1,000 bytes,
     * and the same in two pieces at every cut */
    uint8_t b[1000];
    for (size_t i = 0; i < sizeof b; i++) b[i] = (uint8_t)(i * 131 + 7);
    uint32_t bitwise = ~0u;
    for (size_t i = 0; i < sizeof b; i++) {
        if (rc_my_crc32(0, b, i) != ~bitwise)
            fail_msg("the CRC32 of the first %zu bytes is %08x, not %08x", i, rc_my_crc32(0, b, i), ~bitwise);
        bitwise ^= b[i];
        for (int k = 0; k < 8; k++) bitwise = bitwise & 1 ? 0xEDB88320u ^ (bitwise >> 1) : bitwise >> 1;
    }
    uint32_t whole = rc_my_crc32(0, b, sizeof b);
    assert_int_equal(whole, ~bitwise);
    for (size_t cut = 0; cut <= sizeof b; cut++) assert_int_equal(rc_my_crc32(rc_my_crc32(0, b, cut), b + cut, sizeof b - cut), whole);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32),
        cmocka_unit_test(test_gtid_set_text),
        cmocka_unit_test(test_previous_gtids),
        cmocka_unit_test(test_gtid_events),
        cmocka_unit_test(test_heartbeat),
        cmocka_unit_test(test_xa_prepare),
        cmocka_unit_test(test_transaction_payload),
        cmocka_unit_test(test_table_maps),
        cmocka_unit_test(test_rows_extra_data),
        cmocka_unit_test(test_decoder_files),
        cmocka_unit_test(test_decoder_summed),
        cmocka_unit_test(test_reader_sums),
        cmocka_unit_test(test_query_status_vars),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
