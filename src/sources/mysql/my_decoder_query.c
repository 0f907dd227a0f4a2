/* The event decoder's QUERY events: transaction BEGIN/COMMIT/ROLLBACK, and DDL statements
 * applied to the schema history. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "my_decoder_int.h"
#include "core/fmt.h"

/* --- QUERY --- */

/* The statement after leading blanks and comments. */
static rc_str sql_start(rc_str s)
{
    size_t i = 0;
    for (;;) {
        while (i < s.n && isspace((unsigned char)s.p[i])) i++;
        if (i + 1 < s.n && s.p[i] == '/' && s.p[i + 1] == '*' && !(i + 2 < s.n && s.p[i + 2] == '!')) {
            const char *e = NULL;
            for (size_t k = i + 2; k + 1 < s.n; k++)
                if (s.p[k] == '*' && s.p[k + 1] == '/') {
                    e = s.p + k + 2;
                    break;
                }
            if (!e) break;
            i = (size_t)(e - s.p);
        } else if ((i + 1 < s.n && s.p[i] == '-' && s.p[i + 1] == '-') || (i < s.n && s.p[i] == '#')) {
            while (i < s.n && s.p[i] != '\n') i++;
        } else {
            break;
        }
    }
    return (rc_str){s.p + i, s.n - i};
}

/* Whether the statement starts with `word` as a whole word (case-insensitive). */
static bool starts_word(rc_str s, const char *word)
{
    size_t k = strlen(word);
    if (s.n < k) return false;
    for (size_t i = 0; i < k; i++)
        if (toupper((unsigned char)s.p[i]) != word[i]) return false;
    return s.n == k || !(isalnum((unsigned char)s.p[k]) || s.p[k] == '_');
}

static rc_str after_word(rc_str s, size_t k)
{
    rc_str r = {s.p + k, s.n - k};
    while (r.n && isspace((unsigned char)*r.p)) r.p++, r.n--;
    return r;
}

/* A BEGIN (QUERY BEGIN, or MariaDB's GTID event) opens the transaction: its id. */
void rc_my_decoder_tx_id(rc_my_decoder *d)
{
    int k = d->gtid_len ? snprintf(d->txid_text, sizeof d->txid_text, "%.*s", (int)d->gtid_len, d->gtid_text)
                        : snprintf(d->txid_text, sizeof d->txid_text, "file=%s,pos=%llu", d->file, (unsigned long long)d->ev_offset);
    d->txid_len = k > 0 && (size_t)k < sizeof d->txid_text ? (size_t)k : 0;
}

rc_status rc_my_decoder_emit_tx(rc_my_decoder *d, rc_op op, rc_event_list *out, rc_arena *a, rc_error *err)
{
    return rc_my_decoder_new_event(d, op, out, a) ? RC_OK : rc_my_decoder_nomem(err);
}

rc_status rc_my_decoder_on_query(rc_my_decoder *d, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err)
{
    rc_my_query q;
    rc_status st = rc_my_query_parse(&d->fde, b, n, &q, err);
    if (st != RC_OK) return st;
    rc_str s = sql_start(q.sql);
    d->thread = q.thread_id, d->has_thread = true;
    if (starts_word(s, "BEGIN") || (starts_word(s, "XA") && starts_word(after_word(s, 2), "START"))) {
        if (d->in_begin) return RC_OK; /* MariaDB's GTID event began it */
        rc_my_decoder_tx_begin(d);
        d->in_begin = true;
        rc_my_decoder_tx_id(d);
        return rc_my_decoder_emit_tx(d, RC_OP_BEGIN, out, a, err);
    }
    if (starts_word(s, "COMMIT") || (starts_word(s, "XA") && starts_word(after_word(s, 2), "PREPARE"))) {
        st = rc_my_decoder_emit_tx(d, RC_OP_COMMIT, out, a, err);
        return st == RC_OK ? rc_my_decoder_tx_end(d, err) : st;
    }
    if (starts_word(s, "ROLLBACK") && !starts_word(after_word(s, 8), "TO")) return rc_my_decoder_tx_end(d, err);
    if (starts_word(s, "SAVEPOINT") || starts_word(s, "ROLLBACK") || starts_word(s, "RELEASE") ||
        (starts_word(s, "XA") && (starts_word(after_word(s, 2), "END") || starts_word(after_word(s, 2), "COMMIT") ||
                                  starts_word(after_word(s, 2), "ROLLBACK")))) {
        if (!d->in_begin) return rc_my_decoder_tx_end(d, err); /* XA COMMIT/ROLLBACK of a prepared transaction: its own */
        return RC_OK;
    }
    static const char *const dml[] = {"INSERT", "UPDATE", "DELETE", "REPLACE", "LOAD", NULL};
    for (const char *const *w = dml; *w; w++)
        if (starts_word(s, *w))
            return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "statement-based %s (%.*s%s) cannot be captured: its rows are not in "
                                "the binlog; set binlog_format=ROW on the server (--on-error=skip goes on past the statement: "
                                "its rows are then missing from the output, the statement counted bad)", *w, (int)(s.n > 60 ? 60 : s.n), s.p,
                                s.n > 60 ? "..." : "");
    /* a DDL (or another statement of its own, such as GRANT) */
    rc_my_ddl_result res = {.kind = "OTHER", .db = q.db};
    if (d->cfg.history) {
        rc_error e2;
        rc_error_clear(&e2);
        if ((st = rc_my_history_ddl(d->cfg.history, q.db, q.sql, &res, &e2)) != RC_OK) {
            if (!d->cfg.ddl_unapplied)
                return rc_error_set(err, e2.code, RC_NO_OFFSET, "the schema history cannot apply the statement: %s", e2.message);
            if ((st = d->cfg.ddl_unapplied(d->cfg.ddl_ctx, q.db, q.sql, d->file, d->ev_offset, &e2, &res, err)) != RC_OK) return st;
        }
        /* the column lists built from the old structure stay cached: a TABLE_MAP after the DDL
         * builds its list from the new one (its own key) */
        if (res.changed) d->gen++;
        if (!res.changed && !strcmp(res.kind, "OTHER")) /* GRANT, ALTER USER, CREATE PROCEDURE...: no table's */
            return d->in_begin ? RC_OK : rc_my_decoder_tx_end(d, err);
    }
    rc_event *ev = rc_my_decoder_new_event(d, RC_OP_DDL, out, a);
    if (!ev) return rc_my_decoder_nomem(err);
    ev->src.db = rc_my_decoder_arena_str(a, res.db.n ? res.db : q.db);
    /* a statement of no table (CREATE DATABASE) has no table name, not an empty one: formats
     * that keep a stated empty name (Canal's "table":"") write it as absent */
    if (res.table.n && !(ev->src.table = rc_my_decoder_arena_str(a, res.table)).p) return rc_my_decoder_nomem(err);
    ev->ddl = rc_my_decoder_arena_str(a, q.sql);
    ev->ddl_kind = (rc_str){res.kind, strlen(res.kind)};
    if (!ev->ddl.p || !ev->src.db.p) return rc_my_decoder_nomem(err);
    if ((st = rc_my_decoder_ddl_structure(d, ev, a, err)) != RC_OK) return st;
    if (!d->in_begin) return rc_my_decoder_tx_end(d, err);
    return RC_OK;
}

