/* The simulated database of the incremental snapshot tests (incsnap_sim.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "incsnap_sim.h"

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return p;
    *cap = *cap ? *cap * 2 : 256;
    p = realloc(p, *cap * size);
    if (!p) abort(); /* a test: out of memory is fatal */
    return p;
}

static void log_add(sim *s, sim_ev e)
{
    s->log = grow(s->log, &s->caplog, s->nlog, sizeof *s->log);
    s->log[s->nlog++] = e;
}

static void out_add(sim *s, sim_ev e)
{
    s->out = grow(s->out, &s->capout, s->nout, sizeof *s->out);
    s->out[s->nout++] = e;
}

static size_t rnd(sim *s, size_t n)
{
    return n ? (size_t)(randev_next(&s->rng) % n) : 0;
}

static const char k2text[] = "abcdefgh";

size_t sim_values(const sim *s, const sim_row *r, rc_value *v, char *k2buf)
{
    size_t n = 0;
    v[n++] = (rc_value){.kind = RC_V_INT, .i = r->k1};
    if (s->composite || s->keyless) {
        k2buf[0] = k2text[r->k2];
        v[n++] = (rc_value){.kind = RC_V_TEXT, .s = {k2buf, 1}};
    }
    if (s->keyless) v[n++] = (rc_value){.kind = RC_V_INT, .i = r->v};
    return n;
}

static const rc_incsnap_table *table(const sim *s)
{
    return rc_incsnap_table_at(s->is, 0);
}

/* Keyed: the slot after the cursor's key; keyless: the cursor's first slot. */
static size_t cursor_slot(const sim *s, const rc_incsnap_table *t)
{
    if (!t || !t->cursor.len) return 0;
    if (s->keyless) {
        uint64_t page;
        memcpy(&page, t->cursor.data, 8);
        return (size_t)page * s->page_rows;
    }
    rc_value v[2];
    size_t n;
    if (rc_incsnap_key_decode(t->cursor.data, t->cursor.len, v, 2, &n, NULL) != RC_OK) abort();
    size_t k2 = n == 2 ? (size_t)(strchr(k2text, v[1].s.p[0]) - k2text) : 0;
    return (size_t)v[0].i * s->k2n + k2 + 1;
}

static void inject(sim *s)
{
    for (int i = 0; i < 3 && rnd(s, 100) < s->inject; i++) sim_random_change(s);
}

static rc_status op_watermark(void *ctx, const rc_incsnap_table *t, uint64_t chunk,
                              rc_incsnap_mark mark, rc_error *err)
{
    (void)t, (void)err;
    sim *s = ctx;
    inject(s);
    log_add(s, (sim_ev){.op = 'w', .mark = mark, .chunk = chunk});
    inject(s);
    return RC_OK;
}

static rc_status read_rows(sim *s, rc_incsnap *is, const rc_incsnap_table *t, size_t limit,
                           rc_error *err)
{
    size_t from = cursor_slot(s, t), end = s->nslot, rows = 0;
    if (s->ordered) rc_incsnap_set_ordered(is, true);
    if (s->keyless) { /* whole pages, about `limit` rows' worth */
        size_t pages = limit / s->page_rows ? limit / s->page_rows : 1;
        end = from + pages * s->page_rows < s->nslot ? from + pages * s->page_rows : s->nslot;
    }
    for (size_t i = from; i < end && (s->keyless || rows < limit); i++) {
        if (!s->slot[i].present) continue;
        rc_value v[3];
        char k2[1];
        size_t n = sim_values(s, &s->slot[i], v, k2);
        rows++;
        rc_status rc = s->lazy ? rc_incsnap_add_raw(is, &s->slot[i], sizeof s->slot[i], err)
                               : rc_incsnap_add_row(is, v, n, &s->slot[i], sizeof s->slot[i], err);
        if (rc == RC_ERR_LIMIT) break;
        if (rc != RC_OK) return rc;
    }
    if (s->keyless) {
        uint64_t page = end / s->page_rows;
        rc_incsnap_set_cursor(is, &page, 8, end >= s->nslot);
    }
    return RC_OK;
}

static rc_status op_read(void *ctx, rc_incsnap *is, const rc_incsnap_table *t, size_t limit,
                         rc_error *err)
{
    sim *s = ctx;
    if (!s->later) return read_rows(s, is, t, limit, err);
    s->later_t = t, s->later_limit = limit; /* the rows at sim_read_end, the table as it is then */
    rc_incsnap_read_later(is);
    return RC_OK;
}

void sim_read_end(sim *s)
{
    rc_status rc = read_rows(s, s->is, s->later_t, s->later_limit, &s->err);
    rc_incsnap_read_end(s->is, rc, &s->err);
}

static rc_incsnap_mark op_recognise(void *ctx, const void *msg, size_t n, uint64_t *chunk)
{
    (void)ctx;
    char text[64], w[8];
    unsigned long long c;
    if (n >= sizeof text) return RC_INCSNAP_NOT_MARK;
    memcpy(text, msg, n);
    text[n] = '\0';
    if (sscanf(text, "rowcast.watermark %7s %llu", w, &c) != 2) return RC_INCSNAP_NOT_MARK;
    *chunk = c;
    return !strcmp(w, "low") ? RC_INCSNAP_LOW : RC_INCSNAP_HIGH;
}

static rc_status op_row(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn,
                        rc_error *err)
{
    (void)t, (void)err;
    sim_ev e = {.op = 'r'};
    if (rawn != sizeof e.after) abort();
    memcpy(&e.after, raw, rawn);
    out_add(ctx, e);
    return RC_OK;
}

static rc_status op_edge(void *ctx, const rc_incsnap_table *t, rc_incsnap_edge edge, rc_error *err)
{
    (void)t, (void)err;
    out_add(ctx, (sim_ev){.op = "SEX"[edge]});
    return RC_OK;
}

/* The key image of a row added raw (rc_incsnap_add_raw). */
static rc_status op_row_key(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn,
                            rc_buf *img, rc_error *err)
{
    (void)t;
    sim_row r;
    ((sim *)ctx)->row_keys++;
    if (rawn != sizeof r) abort();
    memcpy(&r, raw, rawn);
    rc_value v[3];
    char k2[1];
    size_t n = sim_values(ctx, &r, v, k2);
    return rc_incsnap_key_image(img, v, n, err);
}

static const rc_incsnap_ops sim_ops = {op_watermark, op_read, op_recognise, op_row, op_edge, NULL};
static const rc_incsnap_ops sim_lazy_ops = {op_watermark, op_read,  op_recognise,
                                            op_row,       op_edge, op_row_key};

void sim_lazy(sim *s, const rc_incsnap_limits *lim)
{
    rc_incsnap_free(s->is);
    s->is = rc_incsnap_new(&sim_lazy_ops, s, lim);
    if (!s->is) abort();
    s->lazy = true;
}

void sim_init(sim *s, bool keyless, bool composite, size_t nslot, unsigned fill, uint64_t seed,
              const rc_incsnap_limits *lim)
{
    memset(s, 0, sizeof *s);
    s->keyless = keyless, s->composite = composite;
    s->k2n = composite ? 3 : 1;
    s->page_rows = 4;
    s->nslot = nslot;
    s->slot = calloc(nslot, sizeof *s->slot);
    s->rng.s = seed;
    s->near = 50;
    s->is = rc_incsnap_new(&sim_ops, s, lim);
    if (!s->slot || !s->is) abort();
    for (size_t i = 0; i < nslot; i++) {
        if (rnd(s, 100) >= fill) continue;
        sim_row *r = &s->slot[i];
        *r = (sim_row){(int64_t)(i / s->k2n), (int64_t)(i % s->k2n), ++s->clock, true};
        if (keyless) r->k1 = (int64_t)rnd(s, 8), r->k2 = (int64_t)rnd(s, 3);
    }
}

void sim_fini(sim *s)
{
    rc_incsnap_free(s->is);
    free(s->slot);
    free(s->log);
    free(s->out);
}

void sim_insert(sim *s, size_t i)
{
    sim_row *r = &s->slot[i];
    *r = (sim_row){(int64_t)(i / s->k2n), (int64_t)(i % s->k2n), ++s->clock, true};
    if (s->keyless) r->k1 = (int64_t)rnd(s, 8), r->k2 = (int64_t)rnd(s, 3);
    log_add(s, (sim_ev){.op = 'c', .after = *r});
}

void sim_update(sim *s, size_t i, size_t to)
{
    sim_ev e = {.op = 'u', .before = s->slot[i]};
    s->slot[i].v = ++s->clock;
    if (s->keyless && to != i && !s->slot[to].present)
        s->slot[to] = s->slot[i], s->slot[i].present = false, i = to;
    e.after = s->slot[i];
    log_add(s, e);
}

void sim_delete(sim *s, size_t i)
{
    sim_ev e = {.op = 'd', .before = s->slot[i], .after = s->slot[i]};
    e.after.v = ++s->clock, e.after.present = false;
    s->slot[i].present = false;
    log_add(s, e);
}

void sim_truncate(sim *s)
{
    for (size_t i = 0; i < s->nslot; i++) s->slot[i].present = false;
    log_add(s, (sim_ev){.op = 't', .after.v = ++s->clock});
}

void sim_random_change(sim *s)
{
    const rc_incsnap_table *t = table(s);
    size_t i = rnd(s, s->nslot);
    if (t && t->state == RC_INCSNAP_RUNNING && rnd(s, 100) < s->near) {
        size_t from = cursor_slot(s, t), span = (t->limit ? t->limit : 4) * s->k2n + 1;
        i = from + rnd(s, span);
        if (i >= s->nslot) i = s->nslot - 1;
    }
    if (!s->slot[i].present)
        sim_insert(s, i);
    else if (rnd(s, 2))
        sim_update(s, i, rnd(s, 2) ? rnd(s, s->nslot) : i);
    else
        sim_delete(s, i);
}

static void change_to_core(sim *s, const sim_ev *e)
{
    rc_value b[3], a[3];
    char kb[1], ka[1];
    size_t n = sim_values(s, &e->before, b, kb);
    sim_values(s, &e->after, a, ka);
    bool has_before = e->op != 'c', has_after = e->op != 'd';
    rc_status rc = rc_incsnap_on_change(s->is, SIM_TABLE, has_before ? b : NULL,
                                        has_after ? a : NULL, n, &s->err);
    if (rc != RC_OK && rc != RC_ERR_LIMIT) abort();
}

bool sim_pump(sim *s)
{
    if (s->rd == s->nlog) return false;
    const sim_ev *e = &s->log[s->rd++];
    if (e->op == 'w') {
        char msg[64];
        int n = snprintf(msg, sizeof msg, "rowcast.watermark %s %llu",
                         e->mark == RC_INCSNAP_LOW ? "low" : "high", (unsigned long long)e->chunk);
        if (rc_incsnap_on_message(s->is, msg, (size_t)n, &s->err) != RC_OK) abort();
    } else {
        out_add(s, *e);
        if (e->op == 't')
            rc_incsnap_on_truncate(s->is, SIM_TABLE);
        else
            change_to_core(s, e);
    }
    rc_status rc = rc_incsnap_emit(s->is, &s->err);
    if (rc != RC_OK && rc != RC_SKIP) abort();
    return true;
}

void sim_drain(sim *s)
{
    while (sim_pump(s)) {
    }
}

static size_t key_slot(const sim *s, const sim_row *r)
{
    return (size_t)r->k1 * s->k2n + (size_t)r->k2;
}

static bool edges_ok(const sim *s, char *why, size_t whyn)
{
    size_t starts = 0, ends = 0;
    for (size_t i = 0; i < s->nout; i++) {
        char op = s->out[i].op;
        if (op == 'S') starts++;
        if (op == 'E' || op == 'X') ends++;
        if (op == 'r' && (starts != 1 || ends))
            return snprintf(why, whyn, "read %zu outside the edges", i), false;
    }
    if (starts != 1 || ends != 1)
        return snprintf(why, whyn, "%zu start and %zu end edges", starts, ends), false;
    return true;
}

/* Keyless: the consumer's copies of each row version (v), replayed as a multiset. */
static int *replay_counts(const sim *s)
{
    int *count = calloc((size_t)s->clock + 1, sizeof *count);
    if (!count) abort();
    size_t from = 0; /* the start edge: where the keyless consumer rebuilds from */
    while (from < s->nout && s->out[from].op != 'S') from++;
    for (size_t i = from; i < s->nout; i++) {
        const sim_ev *e = &s->out[i];
        if (e->op == 't') memset(count, 0, ((size_t)s->clock + 1) * sizeof *count);
        if ((e->op == 'u' || e->op == 'd') && count[e->before.v] > 0) count[e->before.v]--;
        if (e->op == 'c' || e->op == 'u' || e->op == 'r') count[e->after.v]++;
    }
    return count;
}

int sim_copies(const sim *s, int64_t v)
{
    int *count = replay_counts(s), n = v <= s->clock ? count[v] : 0;
    free(count);
    return n;
}

static bool rebuilt_keyless(const sim *s, char *why, size_t whyn)
{
    int *count = replay_counts(s);
    bool ok = true;
    for (size_t i = 0; i < s->nslot && ok; i++)
        if (s->slot[i].present && count[s->slot[i].v] != 1)
            ok = false, snprintf(why, whyn, "row v=%lld: %d copies", (long long)s->slot[i].v,
                                 count[s->slot[i].v]);
    for (size_t i = 0; i < s->nslot; i++)
        if (s->slot[i].present) count[s->slot[i].v] = 0;
    for (int64_t v = 0; v <= s->clock && ok; v++)
        if (count[v])
            ok = false,
            snprintf(why, whyn, "row v=%lld rebuilt but not in the table", (long long)v);
    free(count);
    return ok;
}

bool sim_rebuilt(const sim *s, char *why, size_t whyn)
{
    if (!edges_ok(s, why, whyn)) return false;
    if (s->keyless) return rebuilt_keyless(s, why, whyn);
    sim_row *cur = calloc(s->nslot, sizeof *cur);
    if (!cur) abort();
    for (size_t i = 0; i < s->nout; i++) {
        const sim_ev *e = &s->out[i];
        if (e->op == 't')
            memset(cur, 0, s->nslot * sizeof *cur);
        else if (e->op == 'd')
            cur[key_slot(s, &e->before)].present = false;
        else if (e->op == 'c' || e->op == 'u' || e->op == 'r')
            cur[key_slot(s, &e->after)] = e->after;
    }
    bool ok = true;
    for (size_t i = 0; i < s->nslot && ok; i++) {
        const sim_row *a = &cur[i], *b = &s->slot[i];
        if (a->present != b->present || (a->present && a->v != b->v))
            ok = false, snprintf(why, whyn, "key slot %zu: rebuilt %s v=%lld, table %s v=%lld", i,
                                 a->present ? "present" : "absent", (long long)a->v,
                                 b->present ? "present" : "absent", (long long)b->v);
    }
    free(cur);
    return ok;
}

bool sim_dblog(const sim *s, char *why, size_t whyn)
{
    sim_row *last = calloc(s->nslot, sizeof *last); /* present: the last emitted was not a delete */
    bool *seen = calloc(s->nslot, sizeof *seen), ok = true;
    if (!last || !seen) abort();
    for (size_t i = 0; i < s->nout && ok; i++) {
        const sim_ev *e = &s->out[i];
        if (e->op == 't') {
            for (size_t k = 0; k < s->nslot; k++)
                last[k] = (sim_row){.v = e->after.v}, seen[k] = true;
            continue;
        }
        if (e->op == 'S' || e->op == 'E' || e->op == 'X') continue;
        size_t k = key_slot(s, &e->after);
        if (e->op == 'r' && seen[k] &&
            (e->after.v < last[k].v || (!last[k].present && e->after.v == last[k].v)))
            ok = false,
            snprintf(why, whyn, "event %zu: read of key slot %zu v=%lld after %s v=%lld", i, k,
                     (long long)e->after.v, last[k].present ? "a change" : "a delete",
                     (long long)last[k].v);
        last[k] = e->after, seen[k] = true;
    }
    free(last);
    free(seen);
    return ok;
}
