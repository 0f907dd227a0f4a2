/* A table of the schema history from its information_schema.COLUMNS rows (the live source
 * reads them at the start and after a snapshot): COLUMN_TYPE is the declaration as the
 * server prints it, which is the form the DDL parser normalises to, so that a table read here
 * and the same table created by a CREATE TABLE in the binlog are equal in the history. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sources/mysql/my_schema.h"

/* "VIRTUAL GENERATED", "STORED GENERATED", "DEFAULT_GENERATED on update …", "INVISIBLE":
 * whether EXTRA holds the word w (DEFAULT_GENERATED is a default, not a generated column). */
static bool has_word(rc_str s, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i + n <= s.n; i++) {
        if (strncasecmp(s.p + i, w, n)) continue;
        bool start = i == 0 || s.p[i - 1] == ' ';
        bool end = i + n == s.n || s.p[i + n] == ' ' || s.p[i + n] == ',';
        if (start && end) return true;
    }
    return false;
}

rc_status rc_my_history_put_is(rc_my_history *h, rc_str db, rc_str table, rc_str table_collation,
                               const rc_my_is_column *rows, uint32_t nrows, rc_error *err)
{
    rc_my_table_col *cols = calloc(nrows ? nrows : 1, sizeof *cols);
    size_t dn = 1;
    for (uint32_t i = 0; i < nrows; i++) dn += rows[i].column_default.n;
    char *dtext = malloc(dn), *dw = dtext; /* the defaults' texts: none longer than COLUMN_DEFAULT */
    if (!cols || !dtext) return free(cols), free(dtext), rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    rc_status st = RC_OK;
    for (uint32_t i = 0; i < nrows && st == RC_OK; i++) {
        const rc_my_is_column *r = &rows[i];
        rc_my_table_col *c = &cols[i];
        rc_error e;
        rc_error_clear(&e);
        /* MariaDB's COMPRESSED columns: COLUMN_TYPE 'text' followed by a versioned comment
         * saying COMPRESSED (the declared type is the text before it, as the DDL parser keeps it) */
        rc_str ty = r->column_type;
        if (ty.n > 2 && !memcmp(ty.p + ty.n - 2, "*/", 2))
            for (size_t k = ty.n - 2; k > 1; k--)
                if (ty.p[k - 1] == '*' && ty.p[k - 2] == '/') {
                    for (ty.n = k - 2; ty.n && ty.p[ty.n - 1] == ' ';) ty.n--;
                    break;
                }
        if (rc_coltype_parse(RC_FAM_MYSQL, ty.p, ty.n, &c->type, &e) != RC_OK) {
            st = rc_error_set(err, RC_ERR_TYPE, RC_NO_OFFSET,
                              "information_schema.COLUMNS of %.*s.%.*s, column %.*s: COLUMN_TYPE '%.*s' is not a MySQL type "
                              "rowcast knows (%s)",
                              (int)db.n, db.p, (int)table.n, table.p, (int)r->name.n, r->name.p, (int)r->column_type.n,
                              r->column_type.p, e.message);
            break;
        }
        c->name = r->name;
        c->nullable = r->is_nullable.n == 3 && !strncasecmp(r->is_nullable.p, "YES", 3);
        c->pk = r->pk;
        c->generated = has_word(r->extra, "GENERATED") && !has_word(r->extra, "DEFAULT_GENERATED");
        c->invisible = has_word(r->extra, "INVISIBLE");
        c->collation = r->collation_name.n ? rc_my_collation_id(r->collation_name) : 0;
        if (!r->collation_name.n && c->type.info && c->type.info->vkind == RC_V_BYTES) c->collation = 63;
        if (r->has_column_default && rc_my_default_from_is(r->column_default, dw, &c->dflt)) c->has_dflt = true, dw += c->dflt.n;
    }
    if (st == RC_OK) {
        rc_my_table t = {db, table, nrows, cols, table_collation.n ? rc_my_collation_id(table_collation) : 0};
        st = rc_my_history_put(h, &t, err);
    }
    free(cols);
    free(dtext);
    return st;
}
