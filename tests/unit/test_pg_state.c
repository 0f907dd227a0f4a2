/* The PostgreSQL incremental snapshot state file (src/sources/pg/pg_state.c): written and read
 * back, another slot's refused, a malformed one named, the default path under $XDG_STATE_HOME. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sources/pg/pg_state.h"

static const char text[] =
    "rowcast-pg-state 1\n"
    "slot rowcast\n"
    "at 0/5A3C2F8 4097\n"
    "snapshot-state 1\n"
    "captured\n"
    "paused 1\n"
    "table public.orders incremental by=pk signal=s-42 rows=69632 estimate=200000 chunks=17\n"
    "last public.orders [\"69701\",\"b\"]\n"
    "queued public.audit signal=s-43\n";

static void test_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/rc_pg_state_XXXXXX", path[128], slot[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.state", dir);
    rc_isstate st, back;
    rc_isstate_init(&st), rc_isstate_init(&back);
    rc_pg_state_pos at;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_pg_state_parse(text, strlen(text), slot, sizeof slot, &at, &st, &err), RC_OK);
    assert_string_equal(slot, "rowcast");
    assert_true(at.lsn == 0x5A3C2F8 && at.k == 4097);
    assert_true(st.paused && st.nt == 2 && st.t[0].nlast == 2 && st.t[1].queued);
    assert_int_equal(rc_pg_state_read(path, NULL, "rowcast", &at, &back, &err), RC_SKIP); /* none yet */
    assert_int_equal(rc_pg_state_writable(path, &err), RC_OK);
    rc_state_store *store = NULL;
    assert_int_equal(rc_pg_state_write(&store, path, NULL, "rowcast", at, &st, &err), RC_OK);
    rc_state_store_close(store);
    FILE *f = fopen(path, "rb");
    char got[sizeof text + 16] = {0};
    assert_non_null(f);
    assert_int_equal(fread(got, 1, sizeof got, f), strlen(text));
    fclose(f);
    assert_string_equal(got, text); /* written as read */
    assert_int_equal(rc_pg_state_read(path, NULL, "rowcast", &at, &back, &err), RC_OK);
    assert_true(back.nt == 2 && back.t[0].rows == 69632);
    /* another slot's */
    assert_int_equal(rc_pg_state_read(path, NULL, "other", &at, &back, &err), RC_ERR_USAGE);
    assert_non_null(strstr(err.message, "is slot rowcast's, not other's"));
    rc_isstate_fini(&st), rc_isstate_fini(&back);
    unlink(path);
    rmdir(dir);
}

static void test_errors(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "rowcast-slot-state 1\nslot x\n", "rowcast-pg-state 1\nslot \nat 0/0 0\n",
        "rowcast-pg-state 1\nslot x\nat 0/0\nsnapshot-state 1\ncaptured\npaused 0\n",
        "rowcast-pg-state 1\nslot x\nat 0/0 1 2\nsnapshot-state 1\ncaptured\npaused 0\n",
        "rowcast-pg-state 1\nslot x\nat 0/0 0\nsnapshot-state 9\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rc_isstate st;
        rc_isstate_init(&st);
        rc_error err;
        rc_error_clear(&err);
        char slot[64];
        rc_pg_state_pos at;
        assert_int_not_equal(rc_pg_state_parse(bad[i], strlen(bad[i]), slot, sizeof slot, &at, &st, &err), RC_OK);
        assert_true(err.message[0] != '\0');
        rc_isstate_fini(&st);
    }
}

static void test_default_path(void **state)
{
    (void)state;
    char dir[] = "/tmp/rc_pg_xdg_XXXXXX", path[RC_PG_STATE_PATH_MAX], want[256];
    assert_non_null(mkdtemp(dir));
    setenv("XDG_STATE_HOME", dir, 1);
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_pg_state_default_path(path, sizeof path, "/var/run/postgresql", "5432", "shop", "rowcast", &err),
                     RC_OK);
    snprintf(want, sizeof want, "%s/rowcast/pg-_var_run_postgresql-5432-shop-rowcast.state", dir);
    assert_string_equal(path, want);
    assert_int_equal(rc_pg_state_writable(path, &err), RC_OK); /* the directory was made */
    snprintf(want, sizeof want, "%s/rowcast", dir);
    rmdir(want);
    rmdir(dir);
    unsetenv("XDG_STATE_HOME");
    char why[300];
    rc_pg_state_locate(path, sizeof path, why, sizeof why, "/x/given.state", "h", "1", "d", "s");
    assert_string_equal(path, "/x/given.state");
    assert_string_equal(why, "");
    const char *home = getenv("HOME");
    char *saved = home ? strdup(home) : NULL;
    unsetenv("HOME");
    rc_pg_state_locate(path, sizeof path, why, sizeof why, NULL, "h", "1", "d", "s");
    assert_non_null(strstr(why, "give --checkpoint PATH"));
    if (saved) setenv("HOME", saved, 1);
    free(saved);
}

/* the file is cut back to the state's position only when it is ahead of the slot; else to
 * everything at the slot's LSN, a chunk's rows acknowledged there included */
static void test_cut_at(void **state)
{
    (void)state;
    rc_pg_state_pos p = rc_pg_state_cut_at(0x100, (rc_pg_state_pos){0x200, 7});
    assert_true(p.lsn == 0x200 && p.k == 7);
    p = rc_pg_state_cut_at(0x200, (rc_pg_state_pos){0x200, 7});
    assert_true(p.lsn == 0x200 && p.k == UINT64_MAX);
    p = rc_pg_state_cut_at(0x200, (rc_pg_state_pos){0x200, 0}); /* a keepalive's state at the slot's LSN */
    assert_true(p.lsn == 0x200 && p.k == UINT64_MAX);
    p = rc_pg_state_cut_at(0x300, (rc_pg_state_pos){0x200, 4096}); /* a chunk's rows in part: state not rewritten */
    assert_true(p.lsn == 0x300 && p.k == UINT64_MAX);
    p = rc_pg_state_cut_at(0x300, (rc_pg_state_pos){0, 0}); /* no state */
    assert_true(p.lsn == 0x300 && p.k == UINT64_MAX);
}

static void test_last_json(void **state)
{
    (void)state;
    rc_isstate_key k[2] = {{"1\"7", 3, false}, {"x", 1, true}};
    rc_isstate_table t = {.name = "public.t", .last = k, .nlast = 2};
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_pg_state_last_json(&b, &t);
    assert_string_equal(b.data, "[\"1\\\"7\",{\"hex\":\"…\"}]");
    rc_buf_fini(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_default_path),
        cmocka_unit_test(test_last_json),
        cmocka_unit_test(test_cut_at),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
