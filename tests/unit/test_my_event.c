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
#include "my_event_common.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gtid_set_text),
        cmocka_unit_test(test_previous_gtids),
        cmocka_unit_test(test_gtid_events),
        cmocka_unit_test(test_heartbeat),
        cmocka_unit_test(test_xa_prepare),
        cmocka_unit_test(test_transaction_payload),
        cmocka_unit_test(test_table_maps),
        cmocka_unit_test(test_rows_extra_data),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
