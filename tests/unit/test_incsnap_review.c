/* Issue 24 review (session 13): defects of the incremental snapshot core (src/sources/incsnap.c)
 * found by reading it, each shown on a small fake source: a table of integer keys 0..n-1, chunks
 * read after the core's cursor, rows handed out recorded (the failure of one on demand). The
 * integration side is tests/integration/incsnap_review_test.sh; /tmp/review24.md lists both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "rowcast/arena.h"
#include "sources/incsnap.h"
#include "sources/signal.h"

enum { ROWS = 10, MAXOUT = 64 };

typedef struct fake {
    rc_incsnap *is;
    int64_t out[MAXOUT]; /* keys handed out, in order */
    size_t nout;
    size_t emits, fail_at; /* emit_row calls so far; the one that fails (1-based, 0 none) */
} fake;

static rc_status write_watermark(void *ctx, const rc_incsnap_table *t, uint64_t chunk, rc_incsnap_mark mark,
                                 rc_error *err)
{
    (void)ctx, (void)t, (void)chunk, (void)mark, (void)err;
    return RC_OK;
}

/* Keys after t->cursor (empty: from 0), up to `limit`; the raw row is the key's 8 bytes. */
static rc_status read_chunk(void *ctx, rc_incsnap *s, const rc_incsnap_table *t, size_t limit, rc_error *err)
{
    (void)ctx;
    int64_t from = 0;
    if (t->cursor.len) {
        rc_value v;
        size_t n;
        assert_int_equal(rc_incsnap_key_decode(t->cursor.data, t->cursor.len, &v, 1, &n, err), RC_OK);
        from = v.i + 1;
    }
    for (int64_t k = from; k < ROWS && (size_t)(k - from) < limit; k++) {
        rc_value key = {.kind = RC_V_INT, .i = k};
        rc_status st = rc_incsnap_add_row(s, &key, 1, &k, sizeof k, err);
        if (st == RC_ERR_LIMIT) return RC_OK;
        if (st != RC_OK) return st;
    }
    return RC_OK;
}

static rc_status emit_row(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn, rc_error *err)
{
    fake *f = ctx;
    (void)t;
    assert_int_equal(rawn, sizeof(int64_t));
    if (++f->emits == f->fail_at) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "the sink's queue is gone");
    assert_true(f->nout < MAXOUT);
    memcpy(&f->out[f->nout++], raw, sizeof(int64_t));
    return RC_OK;
}

static void fake_init(fake *f, size_t chunk_rows)
{
    memset(f, 0, sizeof *f);
    rc_incsnap_ops ops = {.write_watermark = write_watermark, .read_chunk = read_chunk, .emit_row = emit_row};
    rc_incsnap_limits lim = {.chunk_rows = chunk_rows};
    f->is = rc_incsnap_new(&ops, f, &lim);
    assert_non_null(f->is);
    assert_int_equal(rc_incsnap_queue(f->is, "public.t", RC_INCSNAP_BY_PK, "s-1", NULL, NULL), RC_OK);
}

/* One chunk: read, the stream passes LW and HW, the emit at HW's transaction end. */
static rc_status one_chunk(fake *f, rc_error *err)
{
    if (rc_incsnap_step(f->is, true, err) != RC_OK) return RC_SKIP;
    rc_incsnap_on_mark(f->is, RC_INCSNAP_LOW, rc_incsnap_table_at(f->is, 0)->chunks, err);
    rc_incsnap_on_mark(f->is, RC_INCSNAP_HIGH, rc_incsnap_table_at(f->is, 0)->chunks, err);
    return rc_incsnap_emit(f->is, err);
}

static bool handed(const fake *f, int64_t k)
{
    for (size_t i = 0; i < f->nout; i++)
        if (f->out[i] == k) return true;
    return false;
}

/* F4: a row that cannot be handed out (emit_row fails on the chunk's second row) must not move
 * the table's cursor past the rows after it: every row of the table is handed out in the end
 * (the chunk is read again; the rows before the failure may come twice, never zero times). */
static void test_failed_emit_keeps_cursor(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, 4);
    f.fail_at = 2;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(one_chunk(&f, &err), RC_ERR_IO); /* key 0 handed, key 1 failed */
    rc_error_clear(&err);
    for (int i = 0; i < 20 && one_chunk(&f, &err) != RC_SKIP; i++) rc_error_clear(&err);
    assert_int_equal(rc_incsnap_table_at(f.is, 0)->state, RC_INCSNAP_DONE);
    for (int64_t k = 0; k < ROWS; k++)
        if (!handed(&f, k)) fail_msg("key %lld never handed out after the failed emit", (long long)k);
    rc_incsnap_free(f.is);
}

/* F5: a streamed change whose key value the stream did not send (PostgreSQL's unchanged TOAST:
 * an UPDATE of another column of a row whose long key is stored out of line) is no error that
 * ends the capture: inside a window the chunk is read again (which buffered row it changed is
 * unknown), elsewhere the chunk saw it or has not begun. */
static void test_unavailable_key(void **state)
{
    (void)state;
    fake f;
    fake_init(&f, 4);
    rc_error err;
    rc_error_clear(&err);
    rc_value unchanged = {.kind = RC_V_UNAVAILABLE};
    assert_int_equal(rc_incsnap_step(f.is, true, &err), RC_OK);
    assert_int_equal(rc_incsnap_on_change(f.is, "public.t", NULL, &unchanged, 1, &err), RC_OK); /* before LW */
    rc_incsnap_on_mark(f.is, RC_INCSNAP_LOW, 1, &err);
    assert_int_equal(rc_incsnap_on_change(f.is, "public.t", NULL, &unchanged, 1, &err), RC_OK); /* in the window */
    assert_int_equal(rc_incsnap_phase_of(f.is), RC_INCSNAP_IDLE);
    assert_int_equal(rc_incsnap_table_at(f.is, 0)->rereads, 1);
    for (int i = 0; i < 20 && one_chunk(&f, &err) != RC_SKIP; i++) rc_error_clear(&err);
    assert_int_equal(rc_incsnap_table_at(f.is, 0)->state, RC_INCSNAP_DONE);
    assert_int_equal(f.nout, ROWS);
    rc_incsnap_free(f.is);
}

/* A signal row read from a table whose id column is an integer (a signal table of the user's,
 * "id INT AUTO_INCREMENT"): the sources took the id's rc_str out of the value's union (no text:
 * the error said "signal id= in ..."); the row is named by its number now. Another kind of
 * column is an error naming the row, not a read of the union. */
static void test_signal_values(void **state)
{
    (void)state;
    rc_arena a;
    rc_arena_init(&a);
    rc_signal sg;
    rc_error err;
    rc_error_clear(&err);
    rc_value row[] = {{.kind = RC_V_INT, .i = 42}, {.kind = RC_V_TEXT, .s = RC_STR("execute-snapshot")},
                      {.kind = RC_V_TEXT, .s = RC_STR("{not json")}};
    assert_int_not_equal(rc_signal_parse_values(&sg, &a, "shop.sig", row, &err), RC_OK);
    assert_non_null(strstr(err.message, "signal id=42 in shop.sig: data is not JSON"));
    rc_value good[] = {{.kind = RC_V_UINT, .u = 7}, {.kind = RC_V_TEXT, .s = RC_STR("pause-snapshot")}, {.kind = RC_V_NULL}};
    assert_int_equal(rc_signal_parse_values(&sg, &a, "shop.sig", good, NULL), RC_OK);
    assert_string_equal(sg.id, "7");
    assert_int_equal(sg.kind, RC_SIGNAL_PAUSE);
    rc_error_clear(&err);
    rc_value odd[] = {{.kind = RC_V_TEXT, .s = RC_STR("s-9")}, {.kind = RC_V_FLOAT64, .f64 = 1.5}, {.kind = RC_V_NULL}};
    assert_int_equal(rc_signal_parse_values(&sg, &a, "shop.sig", odd, &err), RC_ERR_SCHEMA);
    assert_non_null(strstr(err.message, "signal id=s-9 in shop.sig: column type is"));
    rc_arena_fini(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_failed_emit_keeps_cursor),
        cmocka_unit_test(test_unavailable_key),
        cmocka_unit_test(test_signal_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
