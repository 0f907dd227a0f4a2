/* The state file of a capture from a PostgreSQL slot to a file (docs/sinks.md, "After a
 * crash"): the slot is the checkpoint, and the server keeps it, so the output file's sizes at
 * the slot's positions are kept beside the file, in OUT.rowcast-state:
 *
 *   rowcast-slot-state 1
 *   slot rowcast
 *   output /real/path/of/OUT              (the files tracked: the sink state's paths)
 *   dead-letter /real/path/of/DEAD
 *   at 0/0 0 120 0                        (LSN, snapshot rows, output size, dead-letter size)
 *   at 0/16B3748 0 4711 0
 *
 * A position is stored (written, fsync'ed, renamed, the directory fsync'ed) before the slot
 * is told it, so the slot is never past the last one stored; the server may lose some of its
 * acknowledgements in a crash or a restart of its own (see KEEP), so the last KEEP positions
 * are kept, and a run resumed at the slot's LSN cuts the file to the size of the last position
 * at or before it (one older than the oldest kept is refused: its size is not known). Snapshot
 * rows have LSN 0 and their number; the first line of a snapshot's run (0/0 0) is the size
 * before it, kept until the slot exists: a run that dies during the snapshot leaves no slot,
 * and the next takes the snapshot again into a file cut back to that size. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline_impl.h"
#include "pipeline/state_store.h"
#include "core/log.h"

/* The server writes a slot's confirmed_flush_lsn to disk at its own checkpoints (and when the
 * slot's restart_lsn moves): after a crash or a restart of the server (15 does not write it at
 * shutdown: a test saw the slot go back by 40 MB of WAL) the slot can be back by up to a
 * checkpoint_timeout (5 min by default). Positions are stored about once a second while they
 * move: ten minutes of them (30 KB; at most 128 KiB). */
enum { KEEP = 600, MAX_FILE = 1 << 17 };

typedef struct slot_at {
    uint64_t lsn, rows, output, dead;
} slot_at;

typedef struct rc_slot_state {
    char path[RC_PATH_MAX + 16];
    char slot[128];
    rc_sink_state files; /* the paths (sizes: at[]) */
    slot_at at[KEEP];
    size_t n;
} rc_slot_state;

static const char SUFFIX[] = ".rowcast-state";

static bool at_before(const slot_at *a, uint64_t lsn, uint64_t rows) { return a->lsn < lsn || (a->lsn == lsn && a->rows <= rows); }

static bool parse_lsn(const char *s, uint64_t *out)
{
    unsigned hi, lo;
    int used = 0;
    if (sscanf(s, "%X/%X%n", &hi, &lo, &used) != 2 || s[used] != '\0') return false;
    *out = (uint64_t)hi << 32 | lo;
    return true;
}

/* Reads ss->path into ss: RC_OK, RC_SKIP when there is none, or an error naming the line. */
static rc_status slot_read(rc_slot_state *ss, rc_error *err)
{
    FILE *f = fopen(ss->path, "rb");
    if (!f) return errno == ENOENT ? RC_SKIP : rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "cannot read %s: %s", ss->path, strerror(errno));
    char *text = malloc(MAX_FILE + 1);
    size_t n = text ? fread(text, 1, MAX_FILE, f) : 0;
    fclose(f);
    if (!text) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    text[n] = '\0';
    unsigned line = 0;
    rc_status st = RC_OK;
    ss->n = 0;
    for (char *l = text, *nl; st == RC_OK && *l; l = nl + 1) {
        if (!(nl = strchr(l, '\n'))) {
            st = rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "state file %s, line %u: cut short", ss->path, line + 1);
            break;
        }
        *nl = '\0';
        line++;
        char lsn[40];
        unsigned long long rows, out, dead;
        bool ok = true;
        if (line == 1) ok = !strcmp(l, "rowcast-slot-state 1");
        else if (!strncmp(l, "slot ", 5)) ok = snprintf(ss->slot, sizeof ss->slot, "%s", l + 5) < (int)sizeof ss->slot;
        else if (!strncmp(l, "output ", 7)) ok = snprintf(ss->files.output.path, RC_PATH_MAX, "%s", l + 7) < RC_PATH_MAX, ss->files.output.set = true;
        else if (!strncmp(l, "dead-letter ", 12))
            ok = snprintf(ss->files.dead_letter.path, RC_PATH_MAX, "%s", l + 12) < RC_PATH_MAX, ss->files.dead_letter.set = true;
        else if (!strncmp(l, "at ", 3) && ss->n < KEEP && sscanf(l + 3, "%39s %llu %llu %llu", lsn, &rows, &out, &dead) == 4 &&
                 parse_lsn(lsn, &ss->at[ss->n].lsn))
            ss->at[ss->n].rows = rows, ss->at[ss->n].output = out, ss->at[ss->n].dead = dead, ss->n++;
        else ok = false;
        if (!ok)
            st = rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "state file %s, line %u: not a line of a rowcast slot state "
                              "(delete the file to start over)", ss->path, line);
    }
    if (st == RC_OK && (!line || !ss->slot[0] || !ss->n))
        st = rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "state file %s: no slot or no position in it (delete the file to "
                          "start over)", ss->path);
    free(text);
    return st;
}

static rc_status slot_write(const rc_slot_state *ss, rc_error *err)
{
    rc_buf b;
    rc_buf_init(&b, MAX_FILE);
    char line[128];
    RC_BUF_LIT(&b, "rowcast-slot-state 1\nslot ");
    rc_buf_puts(&b, ss->slot);
    rc_buf_putc(&b, '\n');
    const rc_sink_file *fl[2] = {&ss->files.output, &ss->files.dead_letter};
    for (int i = 0; i < 2; i++) {
        if (!fl[i]->set) continue;
        rc_buf_puts(&b, i ? "dead-letter " : "output ");
        rc_buf_puts(&b, fl[i]->path);
        rc_buf_putc(&b, '\n');
    }
    for (size_t i = 0; i < ss->n; i++) {
        const slot_at *a = &ss->at[i];
        int k = snprintf(line, sizeof line, "at %X/%X %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", (unsigned)(a->lsn >> 32),
                         (unsigned)a->lsn, a->rows, a->output, a->dead);
        rc_buf_put(&b, line, (size_t)k);
    }
    rc_status st = b.err ? rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "state file %s: out of memory", ss->path)
                         : rc_file_replace("state file", ss->path, b.data, b.len, err);
    rc_buf_fini(&b);
    return st;
}

static void slot_add(rc_slot_state *ss, uint64_t lsn, uint64_t rows, const rc_sink_state *st)
{
    if (ss->n == KEEP) { /* the oldest goes; during a snapshot, the size before it stays */
        size_t drop = ss->at[0].lsn == 0 && ss->at[0].rows == 0 && lsn == 0 ? 1 : 0;
        memmove(&ss->at[drop], &ss->at[drop + 1], (KEEP - drop - 1) * sizeof *ss->at);
        ss->n--;
    }
    ss->at[ss->n++] = (slot_at){lsn, rows, st->output.size, st->dead_letter.size};
}

int rc_pipeline_slot_start(rc_pipeline *c)
{
    rc_slot_state *ss = calloc(1, sizeof *ss);
    if (!ss) {
        rc_logf("rowcast %s: out of memory\n", c->command);
        return RC_EXIT_IO;
    }
    rc_sink_state now;
    rc_sink_state_now(c->sink, &now);
    snprintf(ss->path, sizeof ss->path, "%s%s", now.output.path, SUFFIX);
    rc_error err;
    rc_error_clear(&err);
    rc_status got = slot_read(ss, &err);
    if (got != RC_OK && got != RC_SKIP) {
        rc_logf("rowcast %s: %s\n", c->command, err.message);
        free(ss);
        return got == RC_ERR_IO ? RC_EXIT_IO : RC_EXIT_USAGE;
    }
    const char *slot = c->capture->slot, *out = now.output.path;
    rc_pos at;
    bool resumes = c->src->ops->resumes_at(c->src, &at);
    uint64_t lsn = resumes ? rc_pos_pg_lsn(&at) : 0;
    int rc = RC_EXIT_OK;
    if (got == RC_OK && strcmp(ss->slot, slot) != 0) {
        rc_logf("rowcast %s: state file %s is slot %s's, and this run's slot is %s: give --slot %s, or delete the "
                "state file to start over (%s is then appended to as it is)\n", c->command, ss->path, ss->slot, slot,
                ss->slot, out);
        rc = RC_EXIT_USAGE;
    } else if (got == RC_OK) {
        /* the position to cut back to: the last one at or before the slot's; a fresh start
         * (no slot) follows a snapshot that was cut short, whose first line is the size before it */
        size_t k = ss->n;
        if (resumes) {
            while (k > 0 && !at_before(&ss->at[k - 1], lsn, rc_pos_pg_snapshot_rows(&at))) k--;
        } else {
            k = 1;
            for (size_t i = 0; i < ss->n && k; i++)
                if (ss->at[i].lsn) k = 0;
        }
        if (!k && resumes)
            rc_logf("rowcast %s: state file %s: slot %s is at LSN %X/%X, before every position the file records (the "
                    "oldest is %X/%X): the server lost acknowledged positions, and where %s stood there is not known; delete "
                    "the state file to append to %s as it is (what came after LSN %X/%X may then be there twice)\n", c->command,
                    ss->path, slot, (unsigned)(lsn >> 32), (unsigned)lsn, (unsigned)(ss->at[0].lsn >> 32),
                    (unsigned)ss->at[0].lsn, out, out, (unsigned)(lsn >> 32), (unsigned)lsn);
        else if (!k)
            rc_logf("rowcast %s: state file %s records positions of slot %s, which does not exist any more: %s holds "
                    "what was captured from it; delete the state file to capture again into %s as it is (appended to), or "
                    "give another --sink\n", c->command, ss->path, slot, out, out);
        if (!k) {
            rc = RC_EXIT_USAGE;
        } else {
            rc_sink_state want = ss->files;
            want.output.size = ss->at[k - 1].output, want.dead_letter.size = ss->at[k - 1].dead;
            rc = rc_pipeline_cut_back(c, "state file", ss->path, &want);
            ss->n = resumes ? k : 0; /* what came after is cut off; a snapshot starts afresh */
        }
    }
    if (rc != RC_EXIT_OK) {
        free(ss);
        return rc;
    }
    snprintf(ss->slot, sizeof ss->slot, "%s", slot);
    rc_sink_state_now(c->sink, &ss->files);
    slot_add(ss, lsn, 0, &ss->files);
    if (slot_write(ss, &err) != RC_OK) {
        rc_logf("rowcast %s: %s\n", c->command, err.message);
        free(ss);
        return RC_EXIT_IO;
    }
    c->slot_state = ss;
    return RC_EXIT_OK;
}

int rc_pipeline_slot_store(rc_pipeline *c, const rc_pos *pos, const rc_sink_state *st)
{
    rc_slot_state *ss = c->slot_state;
    if (pos->kind != RC_POS_PG_LSN) return 0;
    slot_add(ss, rc_pos_pg_lsn(pos), rc_pos_pg_snapshot_rows(pos), st);
    rc_error err;
    rc_error_clear(&err);
    if (slot_write(ss, &err) == RC_OK) return 0;
    ss->n--; /* not stored: the slot is not told either */
    rc_pipeline_progress_clear(c);
    rc_logf("rowcast: %s\n", err.message);
    return -1;
}

void rc_pipeline_slot_end(rc_pipeline *c, int rc)
{
    /* --snapshot initial_only delivered whole: no slot, and nothing to cut back to */
    if (c->slot_state && rc == RC_EXIT_OK && c->capture->snapshot == RC_SNAPSHOT_INITIAL_ONLY) remove(c->slot_state->path);
}

void rc_pipeline_slot_free(rc_pipeline *c)
{
    free(c->slot_state);
    c->slot_state = NULL;
}
