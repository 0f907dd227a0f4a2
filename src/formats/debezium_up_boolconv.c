/* Upstream Debezium's TinyIntOneToBooleanConverter (`converters=boolean`,
 * `boolean.type=io.debezium.connector.binlog.converters.TinyIntOneToBooleanConverter` or the
 * MySQL connector's io.debezium.connector.mysql.converters.TinyIntOneToBooleanConverter): a MySQL
 * TINYINT or TINYINT UNSIGNED column declared with length 1 (`boolean.length.checker`, true by
 * default; false: any length) whose "db.table.column" matches `boolean.selector` (Debezium's
 * Predicates.includes: the whole name, case-insensitively; none: every column) is a BOOLEAN: its
 * schema `boolean`, its values true for any nonzero number, its default converted the same way.
 * The columns are chosen once per cached column list (rc_event.cols_id); a row of a table with
 * such columns is written from a copy of its event whose columns are MySQL's BOOLEAN and whose
 * values and defaults are booleans; the others as they are. */
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_up_enc.h"

static const char *const classes[] = {
    "io.debezium.connector.binlog.converters.TinyIntOneToBooleanConverter",
    "io.debezium.connector.mysql.converters.TinyIntOneToBooleanConverter",
};

rc_status rc_dbz_boolconv_open(up_enc *e, const rc_dbz_opts *o, rc_error *err)
{
    const char *names = o->converters;
    if (!names || !*names) return RC_OK;
    for (const char *p = names; *p;) {
        size_t n = strcspn(p, ",");
        if (n && !(n == 7 && !memcmp(p, "boolean", 7)))
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                                "-o debezium.converters: rowcast has one converter, TinyIntOneToBooleanConverter, under the name "
                                "boolean (-o debezium.converters=boolean -o debezium.boolean.type=%s), not '%.*s'",
                                classes[0], (int)n, p);
        p += n + (p[n] == ',');
    }
    const char *type = o->bool_type ? o->bool_type : "";
    bool known = false;
    for (size_t i = 0; i < sizeof classes / sizeof *classes; i++) known |= !strcmp(type, classes[i]);
    if (!known)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "-o debezium.converters=boolean needs -o debezium.boolean.type=%s (or the MySQL connector's %s), not '%s'",
                            classes[0], classes[1], type);
    e->bc_on = true;
    e->bc_length_checker = o->bool_length_checker;
    return rc_dbz_selectors_compile("boolean.selector", o->bool_selector, &e->bc_sel, &e->bc_nsel, err);
}

void rc_dbz_boolconv_close(up_enc *e)
{
    for (size_t i = 0; i < e->bc_nsel; i++) regfree(&e->bc_sel[i]);
    for (size_t k = 0; k < e->bc_n; k++) free(e->bc_lists[k].cols);
    free(e->bc_sel), free(e->bc_lists), free(e->bc_scratch), free(e->bc_vals), free(e->bc_dflts);
    e->bc_sel = NULL, e->bc_lists = NULL, e->bc_scratch = NULL, e->bc_vals = NULL, e->bc_dflts = NULL;
    e->bc_nsel = e->bc_n = e->bc_cap = 0;
}

/* Whether the converter takes column i of ev (Debezium's converterFor). */
static bool takes(const up_enc *e, const rc_event *ev, uint32_t i)
{
    const rc_column *c = &ev->cols[i];
    const char *t = c->type.info->name;
    if (c->type.info->family != RC_FAM_MYSQL || (strcmp(t, "tinyint") && strcmp(t, "tinyint unsigned"))) return false;
    if (e->bc_length_checker && c->type.p1 != 1) return false;
    return !e->bc_nsel || rc_dbz_selectors_match(ev, i, false, e->bc_sel, e->bc_nsel);
}

/* A default's text as the converter makes it: "0" (false) for zero, "1" (true) for any other number. */
static rc_str bool_text(rc_str s)
{
    bool zero = s.n > 0;
    for (size_t k = 0; k < s.n; k++) zero &= s.p[k] == '0' || (k == 0 && (s.p[k] == '-' || s.p[k] == '+'));
    return zero ? RC_STR("0") : RC_STR("1");
}

/* The columns of ev as the converter makes them (those it takes of MySQL's BOOLEAN type) into
 * cols; whether it took one. */
static bool convert_cols(const up_enc *e, const rc_event *ev, rc_column *cols)
{
    const rc_type_info *b = rc_type_lookup(RC_FAM_MYSQL, "boolean", 7);
    bool any = false;
    for (uint32_t i = 0; i < ev->ncols; i++) {
        cols[i] = ev->cols[i];
        if (b && takes(e, ev, i)) cols[i].type.info = b, any = true;
    }
    return any;
}

/* ev's columns as the converter makes them, NULL when it takes none (or out of memory): for a
 * cached list (cols_id) kept under it for the encoder's life, so that the copy's list is a cached
 * one too (its own pointer: the encoder's caches go by it), else made again in e->bc_scratch. */
static const rc_column *converted(up_enc *e, const rc_event *ev)
{
    if (!ev->cols_id) {
        rc_column *nc = realloc(e->bc_scratch, ev->ncols * sizeof *nc);
        if (!nc) return NULL;
        e->bc_scratch = nc;
        return convert_cols(e, ev, nc) ? nc : NULL;
    }
    if (e->bc_last < e->bc_n && e->bc_lists[e->bc_last].of == ev->cols_id) return e->bc_lists[e->bc_last].cols;
    for (size_t k = 0; k < e->bc_n; k++)
        if (e->bc_lists[k].of == ev->cols_id) return e->bc_last = k, e->bc_lists[k].cols;
    struct rc_dbz_bc_list *nl = realloc(e->bc_lists, (e->bc_n + 1) * sizeof *nl);
    if (!nl) return NULL;
    e->bc_lists = nl;
    rc_column *cols = malloc(ev->ncols * sizeof *cols);
    if (cols && !convert_cols(e, ev, cols)) free(cols), cols = NULL;
    nl[e->bc_n] = (struct rc_dbz_bc_list){ev->cols_id, cols};
    e->bc_last = e->bc_n++;
    return cols;
}

static const rc_value *bool_image(const rc_event *ev, const rc_column *cols, const rc_value *img, rc_value *out)
{
    if (!img) return NULL;
    for (uint32_t i = 0; i < ev->ncols; i++) {
        out[i] = img[i];
        if (cols[i].type.info == ev->cols[i].type.info) continue;
        if (img[i].kind == RC_V_INT) out[i] = (rc_value){.kind = RC_V_BOOL, .b = img[i].i != 0};
        else if (img[i].kind == RC_V_UINT) out[i] = (rc_value){.kind = RC_V_BOOL, .b = img[i].u != 0};
    }
    return out;
}

const rc_event *rc_dbz_boolconv(up_enc *e, const rc_event *ev, rc_event *copy)
{
    if (!e->bc_on || !ev->ncols || ev->doc) return ev;
    const rc_column *cols = converted(e, ev);
    if (!cols) return ev;
    if (ev->ncols > e->bc_cap) {
        rc_value *nv = realloc(e->bc_vals, 2 * (size_t)ev->ncols * sizeof *nv);
        if (nv) e->bc_vals = nv;
        rc_str *nd = realloc(e->bc_dflts, ev->ncols * sizeof *nd);
        if (nd) e->bc_dflts = nd;
        if (!nv || !nd) return ev;
        e->bc_cap = ev->ncols;
    }
    *copy = *ev;
    copy->cols = cols;
    copy->cols_id = ev->cols_id ? cols : NULL;
    copy->before = bool_image(ev, cols, ev->before, e->bc_vals);
    copy->after = bool_image(ev, cols, ev->after, e->bc_vals + ev->ncols);
    if (ev->dflts) {
        for (uint32_t i = 0; i < ev->ncols; i++) {
            rc_str d = ev->dflts[i];
            e->bc_dflts[i] = d.p && cols[i].type.info != ev->cols[i].type.info ? bool_text(d) : d;
        }
        copy->dflts = e->bc_dflts;
    }
    return copy;
}
