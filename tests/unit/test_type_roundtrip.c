/* The type catalog through every format rowcast both writes and reads: for each catalog type
 * (temporal types at each fractional-second precision), random values (randev) go native ->
 * F -> native one insert at a time. A value either comes back as it was (its native rendering
 * byte for byte), or the encoder refuses the event with a message (a reported "not
 * expressible"), or the loss is listed in tests/golden/drops/types/<variant>.txt, the reviewed
 * record of what F changes (docs/types.md explains each):
 *   ~ FAMILY:TYPE value     some values come back different (the same value in another
 *                           representation, an INT 1 for a BOOL true, does not count)
 *   ~ FAMILY:TYPE precision a value comes back, but its column is declared with fewer
 *                           fractional-second digits than it has and than the original
 *                           declaration covered (a writer picking its unit from the
 *                           declaration would cut it: datetime(6) read back as datetime)
 *   ~ FAMILY:TYPE invalid   a value the source could not represent (a zero date, kept as its
 *                           text) comes back different or cannot be read back
 *   ! FAMILY:TYPE skipped   the encoder wrote no message and said nothing
 *   ? FAMILY:TYPE unread    F cannot read back what it wrote
 * A change to what a format loses fails the test with examples; to update after an intended
 * change, run with RC_TYPES_UPDATE=1, review the diff and commit the files (RC_TYPES_VERBOSE=1
 * prints every line with an example). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"
#include "randev.h"
#include "rowcast/format.h"

enum { VALUES = 96, MAX_LINES = 4096 };

typedef struct variant {
    const char *label; /* the drops file's name */
    const char *format;
    rc_option opts[4];
} variant;

static const variant variants[] = {
    {"default", "default", {{0}}},
    {"defaultextendcolumntype", "defaultextendcolumntype", {{0}}},
    {"canal", "canal", {{"canal.flavor", "oms"}}}, /* oms-canal */
    {"canal-canal", "canal", {{"canal.flavor", "canal"}}},
    {"dataworks", "dataworks", {{0}}},
    {"shareplex", "shareplex", {{0}}},
    {"debezium", "debezium", {{"debezium.flavor", "oms"}}}, /* oms-debezium */
    {"debezium-upstream", "debezium", {{"debezium.flavor", "upstream"}, {"debezium.bigint.unsigned.handling.mode", "precise"}}},
    {"debezium-upstream-schemas",
     "debezium",
     {{"debezium.flavor", "upstream"}, {"debezium.schemas", "true"}, {"debezium.bigint.unsigned.handling.mode", "precise"}}},
    {"debeziumflatten", "debeziumflatten", {{0}}},
    {"drs-json", "drs-json", {{0}}},
    {"drs-json-c", "drs-json-c", {{0}}},
    {"ogg-json", "ogg-json", {{0}}},
};

/* The source kind whose family a catalog row belongs to. */
static rc_dbkind kind_of(rc_family f) { return f == RC_FAM_ORACLE ? RC_DB_OB_ORACLE : f == RC_FAM_PG ? RC_DB_POSTGRES : RC_DB_MYSQL; }

static bool temporal(const rc_type_info *t) { return t->vkind == RC_V_DATETIME || t->vkind == RC_V_TIME || t->vkind == RC_V_TIMESTAMP; }

/* The native rendering of value v of column col: what "comes back as it was" compares. */
static void render(void *nat, const rc_column *col, const rc_value *v, rc_buf *out)
{
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.op = RC_OP_INSERT;
    ev.src.kind = RC_DB_MYSQL;
    ev.src.table = RC_STR("t");
    ev.ncols = 1;
    ev.cols = col;
    ev.after = v;
    rc_error err;
    rc_buf_reset(out);
    rc_buf tmp;
    rc_buf_init(&tmp, 0);
    rc_native_encode(nat, &ev, &tmp, &err);
    size_t n = tmp.len;
    rc_buf_putc(&tmp, '\0');
    /* the value alone: the text after "after":[ without the closing ]} */
    const char *at = tmp.err == RC_OK ? strstr(tmp.data, "\"after\":[") : NULL;
    if (at) rc_buf_put(out, at + 9, n - (size_t)(at + 9 - tmp.data) - 2);
    rc_buf_fini(&tmp);
}

/* A number as sign, significant digits and exponent ("-123e-2" for -1.23), so that values of
 * different kinds compare by what they are (an INT 1 and a BOOL true, DECIMAL 1.50 and 1.5);
 * false for values that are not numbers. */
static bool num_text(const rc_value *v, char *out, size_t cap)
{
    char d[160];
    size_t n = 0;
    int64_t exp = 0;
    bool neg = false;
    switch (v->kind) {
    case RC_V_BOOL: n = (size_t)snprintf(d, sizeof d, "%d", v->b ? 1 : 0); break;
    case RC_V_INT:
        neg = v->i < 0;
        n = (size_t)snprintf(d, sizeof d, "%llu", neg ? 0ull - (unsigned long long)v->i : (unsigned long long)v->i);
        break;
    case RC_V_UINT:
    case RC_V_BITS: n = (size_t)snprintf(d, sizeof d, "%llu", (unsigned long long)v->u); break;
    case RC_V_DECIMAL:
        if (v->dec.ndigits >= sizeof d) return false;
        memcpy(d, v->dec.digits, v->dec.ndigits), n = v->dec.ndigits, exp = -(int64_t)v->dec.scale, neg = v->dec.neg;
        break;
    default: return false;
    }
    size_t lead = 0;
    while (lead + 1 < n && d[lead] == '0') lead++;
    while (n > lead + 1 && d[n - 1] == '0') n--, exp++;
    if (n - lead == 1 && d[lead] == '0') neg = false, exp = 0;
    snprintf(out, cap, "%s%.*se%lld", neg ? "-" : "", (int)(n - lead), d + lead, (long long)exp);
    return true;
}

static bool is_text(rc_vkind k)
{
    return k == RC_V_TEXT || k == RC_V_BYTES || k == RC_V_ENUM || k == RC_V_SET || k == RC_V_JSON || k == RC_V_INTERVAL || k == RC_V_GEOMETRY;
}

/* The same value in another representation: a number of another kind, a float widened to
 * double, text of another kind with the same bytes. */
static bool same_value(const rc_value *a, const rc_value *b)
{
    char x[200], y[200];
    if (num_text(a, x, sizeof x) && num_text(b, y, sizeof y)) return !strcmp(x, y);
    bool fa = a->kind == RC_V_FLOAT32 || a->kind == RC_V_FLOAT64, fb = b->kind == RC_V_FLOAT32 || b->kind == RC_V_FLOAT64;
    if (fa && fb) {
        double p = a->kind == RC_V_FLOAT32 ? (double)a->f32 : a->f64, q = b->kind == RC_V_FLOAT32 ? (double)b->f32 : b->f64;
        return !memcmp(&p, &q, sizeof p);
    }
    if (is_text(a->kind) && is_text(b->kind)) return a->s.n == b->s.n && !memcmp(a->s.p, b->s.p, a->s.n);
    return false;
}

/* Fraction-of-second digits a temporal value has (0 for none and for other kinds). */
static int fraction_digits(const rc_value *v)
{
    uint32_t ns = v->kind == RC_V_DATETIME ? v->dt.nanos : v->kind == RC_V_TIME ? v->time.nanos : v->kind == RC_V_TIMESTAMP ? v->ts.nanos : 0;
    if (!ns) return 0;
    int d = 9;
    while (ns % 10 == 0) ns /= 10, d--;
    return d;
}

/* The fractional-second digits a declaration covers: its precision, else the database's
 * default (PostgreSQL: 6, MySQL and Oracle: 0). */
static int covered(const rc_coltype *t)
{
    return t->p1 >= 0 ? t->p1 : t->info->family == RC_FAM_PG ? 6 : 0;
}

typedef struct run {
    const rc_format *f;
    void *enc, *dec, *nat;
    rc_arena a;
    rc_event_list list;
    rc_buf msg, r1, r2;
    char lines[MAX_LINES][96];
    char examples[MAX_LINES][400];
    unsigned nlines;
    char want[MAX_LINES][96]; /* the reviewed list (on the heap: too big for a sanitizer's stack) */
    unsigned order[MAX_LINES];
} run;

static void note(run *r, char mark, const char *label, const char *what, const char *example)
{
    char line[96];
    snprintf(line, sizeof line, "%c %s %s", mark, label, what);
    for (unsigned i = 0; i < r->nlines; i++)
        if (!strcmp(r->lines[i], line)) return;
    if (r->nlines == MAX_LINES) return;
    strcpy(r->lines[r->nlines], line);
    /* an example for the report: its first bytes are enough */
    snprintf(r->examples[r->nlines], sizeof r->examples[0], "%.*s", (int)sizeof r->examples[0] - 1, example);
    r->nlines++;
}

/* One declaration through the format: VALUES random values, one insert each. */
static void one_type(run *r, randev_rng *g, const rc_type_info *t, const char *decl, const char *label)
{
    rc_column cols[2];
    memset(cols, 0, sizeof cols);
    rc_error err;
    const char *id_type = t->family == RC_FAM_ORACLE ? "integer" : "bigint";
    assert_int_equal(rc_coltype_parse((rc_family)t->family, id_type, strlen(id_type), &cols[0].type, &err), RC_OK);
    cols[0].name = RC_STR("id");
    cols[0].pk = 1;
    if (rc_coltype_parse((rc_family)t->family, decl, strlen(decl), &cols[1].type, &err) != RC_OK || cols[1].type.info != t) return;
    cols[1].name = RC_STR("c");
    cols[1].nullable = true;
    for (int k = 0; k < VALUES; k++) {
        rc_arena_reset(&r->a);
        rc_value vals[2];
        memset(vals, 0, sizeof vals);
        vals[0].kind = RC_V_INT;
        vals[0].i = k + 1;
        randev_value(g, &r->a, &cols[1], &vals[1]);
        rc_event ev;
        memset(&ev, 0, sizeof ev);
        ev.op = RC_OP_INSERT;
        ev.src.kind = kind_of((rc_family)t->family);
        ev.src.server = RC_STR("s");
        ev.src.db = RC_STR("d");
        ev.src.schema = t->family == RC_FAM_MYSQL ? (rc_str){0} : RC_STR("d");
        ev.src.table = RC_STR("t");
        ev.has_ts = true;
        ev.ts_us = 1700000000000000;
        ev.ncols = 2;
        ev.cols = cols;
        ev.after = vals;
        rc_buf_reset(&r->msg);
        rc_error_clear(&err);
        rc_status st = r->f->encode_value(r->enc, &ev, &r->msg, &err);
        render(r->nat, &cols[1], &vals[1], &r->r1);
        rc_buf_putc(&r->r1, '\0');
        if (st == RC_SKIP && !err.message[0]) note(r, '!', label, "skipped", r->r1.data);
        if (st != RC_OK) continue; /* refused with a message: reported, not lost */
        r->list.count = 0;
        rc_error_clear(&err);
        char ex[sizeof err.message + 220];
        if (r->f->decode(r->dec, r->msg.data, r->msg.len, &r->a, &r->list, &err) != RC_OK || r->list.count != 1 ||
            !r->list.items[0].after) {
            snprintf(ex, sizeof ex, "%s: %.*s", err.message, (int)(r->msg.len > 200 ? 200 : r->msg.len), r->msg.data);
            note(r, vals[1].kind == RC_V_INVALID ? '~' : '?', label, vals[1].kind == RC_V_INVALID ? "invalid" : "unread", ex);
            continue;
        }
        const rc_event *back = &r->list.items[0];
        uint32_t c = 0;
        while (c < back->ncols && !(back->cols[c].name.n == 1 && back->cols[c].name.p[0] == 'c')) c++;
        if (c == back->ncols) {
            note(r, '?', label, "unread", "column c is missing");
            continue;
        }
        render(r->nat, &back->cols[c], &back->after[c], &r->r2);
        rc_buf_putc(&r->r2, '\0');
        /* the value came back, but a declaration that does not cover its digits makes the next
         * writer that picks a unit from it (upstream Debezium) cut them */
        int need = fraction_digits(&back->after[c]), have = covered(&back->cols[c].type);
        if (need > covered(&cols[1].type)) need = covered(&cols[1].type); /* only what the original declaration covered */
        if (need > have && temporal(back->cols[c].type.info)) {
            snprintf(ex, sizeof ex, "%s read back as %.*s", r->r1.data, (int)back->cols[c].type.decl.n, back->cols[c].type.decl.p);
            note(r, '~', label, "precision", ex);
        }
        if (strcmp(r->r1.data, r->r2.data) && !same_value(&vals[1], &back->after[c])) {
            snprintf(ex, sizeof ex, "%.180s -> %.180s", r->r1.data, r->r2.data);
            note(r, '~', label, vals[1].kind == RC_V_INVALID ? "invalid" : "value", ex);
        }
    }
}

static int cmp_lines(const void *a, const void *b) { return strcmp(a, b); }

static unsigned check_variant(const variant *v)
{
    run *r = calloc(1, sizeof *r);
    assert_non_null(r);
    rc_error err;
    size_t nopts = 0;
    while (nopts < 4 && v->opts[nopts].key) nopts++;
    rc_options o = {v->opts, nopts};
    r->f = rc_format_find(v->format);
    assert_non_null(r->f);
    assert_int_equal(r->f->enc_new(&o, &r->enc, &err), RC_OK);
    assert_int_equal(r->f->dec_new(&o, &r->dec, &err), RC_OK);
    assert_int_equal(rc_format_native.enc_new(NULL, &r->nat, &err), RC_OK);
    rc_arena_init(&r->a);
    rc_buf_init(&r->msg, 0), rc_buf_init(&r->r1, 0), rc_buf_init(&r->r2, 0);
    randev_rng g = {20260301};
    for (const rc_type_info *t = rc_type_catalog; t->name; t++) {
        char decl[64], label[96];
        const char *fam = rc_family_name((rc_family)t->family);
        if (temporal(t) && !strchr(t->name, ' ')) {
            static const int precs[] = {-1, 0, 3, 6, 9};
            for (size_t p = 0; p < sizeof precs / sizeof *precs; p++) {
                if (precs[p] < 0) snprintf(decl, sizeof decl, "%s", t->name);
                else snprintf(decl, sizeof decl, "%s(%d)", t->name, precs[p]);
                snprintf(label, sizeof label, "%s:%s", fam, decl);
                one_type(r, &g, t, decl, label);
            }
        } else {
            randev_decl(&g, t, decl, sizeof decl);
            snprintf(label, sizeof label, "%s:%s", fam, t->name);
            for (char *s = label; *s; s++)
                if (*s == ' ') *s = '_';
            one_type(r, &g, t, decl, label);
        }
    }
    /* the sorted list against the reviewed file */
    unsigned *order = r->order;
    for (unsigned i = 0; i < r->nlines; i++) order[i] = i;
    for (unsigned i = 1; i < r->nlines; i++) /* insertion sort by line, keeping examples beside */
        for (unsigned j = i; j > 0 && cmp_lines(r->lines[order[j - 1]], r->lines[order[j]]) > 0; j--) {
            unsigned x = order[j];
            order[j] = order[j - 1], order[j - 1] = x;
        }
    char path[512];
    snprintf(path, sizeof path, "%s/tests/golden/drops/types/%s.txt", RC_SOURCE_DIR, v->label);
    if (getenv("RC_TYPES_UPDATE")) {
        FILE *w = fopen(path, "w");
        assert_non_null(w);
        for (unsigned i = 0; i < r->nlines; i++) fprintf(w, "%s\n", r->lines[order[i]]);
        fclose(w);
    }
    FILE *in = fopen(path, "r");
    char (*want)[96] = r->want;
    unsigned nwant = 0;
    if (in) {
        while (nwant < MAX_LINES && fgets(want[nwant], sizeof want[0], in)) {
            want[nwant][strcspn(want[nwant], "\n")] = '\0';
            if (want[nwant][0]) nwant++;
        }
        fclose(in);
    }
    unsigned bad = 0;
    if (getenv("RC_TYPES_VERBOSE")) /* every line with its first example, for review */
        for (unsigned i = 0; i < r->nlines; i++) printf("%s: %s   e.g. %s\n", v->label, r->lines[order[i]], r->examples[order[i]]);
    for (unsigned i = 0; i < r->nlines; i++) {
        unsigned w = 0;
        while (w < nwant && strcmp(want[w], r->lines[order[i]])) w++;
        if (w == nwant) printf("%s: not in %s.txt: %s   e.g. %s\n", v->label, v->label, r->lines[order[i]], r->examples[order[i]]), bad++;
    }
    for (unsigned w = 0; w < nwant; w++) {
        unsigned i = 0;
        while (i < r->nlines && strcmp(want[w], r->lines[i])) i++;
        if (i == r->nlines) printf("%s: listed in %s.txt but no longer seen: %s\n", v->label, v->label, want[w]), bad++;
    }
    r->f->enc_free(r->enc);
    r->f->dec_free(r->dec);
    rc_format_native.enc_free(r->nat);
    rc_arena_fini(&r->a);
    rc_event_list_fini(&r->list);
    rc_buf_fini(&r->msg), rc_buf_fini(&r->r1), rc_buf_fini(&r->r2);
    free(r);
    if (!in) printf("%s: no reviewed list %s\n", v->label, path), bad++;
    return bad;
}

static void test_variants(void **state)
{
    (void)state;
    unsigned bad = 0;
    for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) bad += check_variant(&variants[i]);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_variants)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
