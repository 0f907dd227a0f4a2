/* The incremental snapshots' numbers for the pipeline (incsnap_stats.h). */
#include <string.h>
#include "sources/incsnap_stats.h"

void rc_incsnap_signal_count(rc_incsnap_signals *sg, rc_str type, int result)
{
    /* in the order of rc_signal_kind; the last row is every other type */
    static const char *const names[RC_SIGNAL_TYPES - 1] = {"execute-snapshot", "stop-snapshot",
                                                           "pause-snapshot", "resume-snapshot"};
    size_t k = 0;
    while (k < RC_SIGNAL_TYPES - 1 &&
           !(type.n == strlen(names[k]) && !memcmp(type.p, names[k], type.n)))
        k++;
    if (result >= 0 && result < RC_SIGNAL_RESULTS) sg->n[k][result]++;
}

int rc_incsnap_signal_result(rc_status st)
{
    return st == RC_OK ? RC_SIGNAL_OK : st == RC_SKIP ? RC_SIGNAL_IGNORED : RC_SIGNAL_ERROR;
}

int rc_incsnap_signal_worse(int a, int b)
{
    static const int rank[RC_SIGNAL_RESULTS] = {[RC_SIGNAL_IGNORED] = 0, [RC_SIGNAL_OK] = 1,
                                                [RC_SIGNAL_ERROR] = 2};
    return rank[a] >= rank[b] ? a : b;
}

int rc_incsnap_signal_pause(rc_incsnap *core, bool pause)
{
    int result = rc_incsnap_paused(core) == pause ? RC_SIGNAL_IGNORED : RC_SIGNAL_OK;
    rc_incsnap_pause(core, pause);
    return result;
}

static rc_source_incsnap_state state_of(const rc_incsnap_table *t, bool paused)
{
    switch (t->state) {
    case RC_INCSNAP_QUEUED: return RC_INCSNAP_STATE_QUEUED;
    case RC_INCSNAP_RUNNING: return paused ? RC_INCSNAP_STATE_PAUSED : RC_INCSNAP_STATE_RUNNING;
    case RC_INCSNAP_DONE: return RC_INCSNAP_STATE_DONE;
    default: return RC_INCSNAP_STATE_STOPPED;
    }
}

static bool active(const rc_incsnap_table *t)
{
    return t->state == RC_INCSNAP_QUEUED || t->state == RC_INCSNAP_RUNNING;
}

/* `name` into out[cap], cut at a character (never inside a UTF-8 sequence). */
static void copy_name(char *out, size_t cap, const char *name)
{
    size_t n = strlen(name);
    if (n >= cap) {
        n = cap - 1;
        while (n && ((unsigned char)name[n] & 0xC0) == 0x80) n--;
    }
    memcpy(out, name, n);
    out[n] = '\0';
}

void rc_incsnap_stats(const rc_incsnap *core, const rc_incsnap_signals *sg, rc_source_stats *out)
{
    out->has_incsnap = true;
    out->incsnap_paused = rc_incsnap_paused(core);
    memset(out->incsnap_tables, 0, sizeof out->incsnap_tables);
    if (sg) memcpy(out->signals, sg->n, sizeof out->signals);
    /* entries: the running and queued tables, then the latest finished ones, as room allows */
    size_t nt = rc_incsnap_ntables(core), nactive = 0;
    for (size_t i = 0; i < nt; i++) {
        const rc_incsnap_table *t = rc_incsnap_table_at(core, i);
        out->incsnap_tables[state_of(t, out->incsnap_paused)]++;
        nactive += active(t);
    }
    size_t room = RC_SOURCE_INCSNAP_TABLES;
    size_t pick_active = nactive < room ? nactive : room, pick_done = room - pick_active;
    size_t skip_done = nt - nactive > pick_done ? nt - nactive - pick_done : 0;
    out->nincsnap = 0;
    for (size_t i = 0, seen_active = 0, seen_done = 0; i < nt; i++) {
        const rc_incsnap_table *t = rc_incsnap_table_at(core, i);
        if (active(t) ? seen_active++ >= pick_active : seen_done++ < skip_done) continue;
        rc_source_incsnap *e = &out->incsnap[out->nincsnap++];
        copy_name(e->name, sizeof e->name, t->name);
        e->state = state_of(t, out->incsnap_paused);
        e->rows_read = t->rows_read, e->rows_emitted = t->rows_emitted;
        e->rows_dropped = t->rows_dropped, e->estimate = t->estimate;
        e->chunks = t->chunks, e->rereads = t->rereads;
    }
}
