/* A program of a user of the installed library: built by install_test.sh against the
 * installed headers and librowcast.a with `pkg-config --cflags --libs rowcast` only. It builds
 * one change event by hand (an insert into shop.orders) and writes, through the library's
 * stdout sink, the message each of a few formats makes of it, one per line: the value, then
 * the key where the format has one. (The sink is what links in librdkafka, so the test also
 * shows that pkg-config names it.)
 * install_test.sh compares the output with use_rowcast.out and with what the installed
 * `rowcast convert` writes for the same event (event.ndjson). */
#include <stdio.h>
#include <string.h>
#include "rowcast/arena.h"
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/event.h"
#include "rowcast/format.h"
#include "rowcast/sink.h"
#include "rowcast/types.h"

enum { NCOLS = 4 };

static int fail(const char *what, const rc_error *err)
{
    fprintf(stderr, "use_rowcast: %s: %s\n", what, err->message);
    return 1;
}

static int parse_type(const char *decl, rc_coltype *t)
{
    rc_error err;
    rc_error_clear(&err);
    if (rc_coltype_parse(RC_FAM_MYSQL, decl, strlen(decl), t, &err) != RC_OK)
        return fail(decl, &err);
    return 0;
}

static rc_sink *out;

/* One line on stdout: the sink writes the record's value and a newline. */
static int write_line(const rc_buf *b)
{
    rc_record r = {.value = b->data, .value_len = b->len, .partition = -1};
    rc_error err;
    rc_error_clear(&err);
    if (rc_sink_send(out, &r, &err) != RC_OK) return fail("stdout sink", &err);
    return 0;
}

/* Prints the value and (when the format has one) the key that format `name` with options
 * `opts` writes for `ev`. */
static int encode(const char *name, const rc_options *opts, const rc_event *ev)
{
    const rc_format *f = rc_format_find(name);
    if (!f || !f->encode_value) {
        fprintf(stderr, "use_rowcast: no encoder '%s'\n", name);
        return 1;
    }
    rc_error err;
    rc_error_clear(&err);
    void *enc = NULL;
    if (f->enc_new(opts, &enc, &err) != RC_OK) return fail(name, &err);
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    int rc = 0;
    if (f->encode_value(enc, ev, &b, &err) != RC_OK || b.err != RC_OK)
        rc = fail(name, &err);
    else
        rc = write_line(&b);
    rc_buf_reset(&b);
    if (!rc && f->encode_key) {
        if (f->encode_key(enc, ev, &b, &err) != RC_OK || b.err != RC_OK)
            rc = fail(name, &err);
        else
            rc = write_line(&b);
    }
    rc_buf_fini(&b);
    f->enc_free(enc);
    return rc;
}

int main(void)
{
    rc_column cols[NCOLS] = {
        {.name = RC_STR("id"), .pk = 1},
        {.name = RC_STR("total"), .nullable = true},
        {.name = RC_STR("note"), .nullable = true},
        {.name = RC_STR("placed"), .nullable = true},
    };
    static const char *const decls[NCOLS] = {"bigint unsigned", "decimal(12,2)", "varchar(20)",
                                             "datetime(6)"};
    for (int i = 0; i < NCOLS; i++)
        if (parse_type(decls[i], &cols[i].type)) return 1;

    rc_value after[NCOLS] = {
        {.kind = RC_V_UINT, .u = UINT64_MAX}, /* beyond int64: never through a double */
        {.kind = RC_V_DECIMAL, .dec = {.digits = "123450", .ndigits = 6, .scale = 2}},
        {.kind = RC_V_TEXT, .s = RC_STR("tab\there \"q\"")},
        {.kind = RC_V_DATETIME,
         .dt = {.year = 2024,
                .month = 2,
                .day = 29,
                .hour = 23,
                .minute = 59,
                .second = 59,
                .nanos = 999999000}},
    };
    rc_event ev = {
        .op = RC_OP_INSERT,
        .src = {.kind = RC_DB_MYSQL,
                .server = RC_STR("shop1"),
                .db = RC_STR("shop"),
                .table = RC_STR("orders")},
        .pos = {.file = RC_STR("mariadb-bin.000003"), .offset = 4711, .has_offset = true},
        .ts_us = 1709251199000000,
        .has_ts = true,
        .ncols = NCOLS,
        .cols = cols,
        .after = after,
    };

    const rc_options none = {NULL, 0};
    /* oms-canal is canal with the option its name fixes (rc_format_lookup says which) */
    const rc_format_name *oms_canal = rc_format_lookup("oms-canal", NULL);
    const rc_option oms[] = {{oms_canal->fixed_key, oms_canal->fixed_value}};
    const rc_options oms_opts = {oms, 1};
    const rc_option up[] = {{"debezium.bigint.unsigned.handling.mode", "precise"}};
    const rc_options upstream = {up, 1};
    const rc_sink_config cfg = {.layout = RC_LAYOUT_VALUES};
    rc_error err;
    rc_error_clear(&err);
    if (rc_sink_open("stdout", &none, &cfg, &out, &err) != RC_OK) return fail("stdout sink", &err);
    int rc = encode("native", &none, &ev) || encode(oms_canal->format->name, &oms_opts, &ev) ||
             encode("debezium", &upstream, &ev);
    if (!rc && rc_sink_flush(out, 1000, &err) != RC_OK) rc = fail("stdout sink", &err);
    rc_sink_close(out);
    return rc;
}
