/* The PostgreSQL incremental snapshot state file (pg_state.h). */
#define _XOPEN_SOURCE 700
#include "sources/pg/pg_state.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/jsonw.h"
#include "pipeline/state_store.h"

static const char head[] = "rowcast-pg-state 1\nslot ";

static rc_status io_error(const char *path, const char *what, rc_error *err)
{
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "cannot %s %s: %s", what, path, strerror(errno));
}

/* mkdir -p of path's directory (mode 0700: the state is the user's). */
static rc_status make_dirs(const char *path, rc_error *err)
{
    char dir[RC_PG_STATE_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return RC_OK;
    *slash = '\0';
    for (char *p = dir + 1;; p++) {
        bool end = !*p;
        if (*p != '/' && !end) continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) return io_error(dir, "create the directory", err);
        if (end) return RC_OK;
        *p = '/';
    }
}

/* A file-name part: '/' and spaces become '_'. */
static void name_part(char *out, size_t n, const char *s)
{
    snprintf(out, n, "%s", s && *s ? s : "local");
    for (char *p = out; *p; p++)
        if (*p == '/' || *p == ' ') *p = '_';
}

rc_status rc_pg_state_default_path(char *out, size_t n, const char *host, const char *port, const char *db,
                                   const char *slot, rc_error *err)
{
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    char base[RC_PG_STATE_PATH_MAX - 600];
    if (xdg && *xdg) snprintf(base, sizeof base, "%s/rowcast", xdg);
    else if (home && *home) snprintf(base, sizeof base, "%s/.local/state/rowcast", home);
    else return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "no $XDG_STATE_HOME or $HOME for the snapshot state: give --checkpoint PATH");
    char h[200], p[16], d[200];
    name_part(h, sizeof h, host), name_part(p, sizeof p, port), name_part(d, sizeof d, db);
    snprintf(out, n, "%s/pg-%s-%s-%s-%s.state", base, h, p, d, slot);
    return make_dirs(out, err);
}

void rc_pg_state_locate(char *path, size_t n, char *why, size_t whyn, const char *given, const char *host, const char *port,
                        const char *db, const char *slot)
{
    rc_error err;
    rc_error_clear(&err);
    why[0] = '\0';
    if (given) snprintf(path, n, "%s", given);
    else if (rc_pg_state_default_path(path, n, host, port, db, slot, &err) != RC_OK)
        snprintf(why, whyn, "%s; give --checkpoint PATH (a file it can write)", err.message);
}

void rc_pg_state_last_json(rc_buf *b, const rc_isstate_table *t)
{
    rc_buf_putc(b, '[');
    for (size_t i = 0; i < t->nlast; i++) {
        if (i) rc_buf_putc(b, ',');
        if (t->last[i].bytes) rc_buf_puts(b, "{\"hex\":\"…\"}");
        else rc_jw_str(b, t->last[i].p, t->last[i].n);
    }
    rc_buf_putc(b, ']');
    rc_buf_putc(b, '\0');
}

rc_status rc_pg_state_writable(const char *path, rc_error *err)
{
    if (rc_state_store_is_kafka(path)) return RC_OK;
    char tmp[RC_PG_STATE_PATH_MAX + 8];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return io_error(path, "write", err);
    close(fd);
    unlink(tmp);
    return RC_OK;
}

rc_status rc_pg_state_parse(const char *text, size_t n, char *slot, size_t slotn, rc_pg_state_pos *at, rc_isstate *st,
                            rc_error *err)
{
    size_t hn = sizeof head - 1;
    if (n < hn || memcmp(text, head, hn))
        return rc_error_set(err, RC_ERR_SYNTAX, 0, "not a rowcast PostgreSQL state file (no \"rowcast-pg-state 1\" header)");
    const char *eol = memchr(text + hn, '\n', n - hn);
    size_t len = eol ? (size_t)(eol - text) - hn : 0;
    if (!eol || !len || len >= slotn || memchr(text + hn, '\0', len))
        return rc_error_set(err, RC_ERR_SYNTAX, hn, "line 2: expected \"slot NAME\"");
    memcpy(slot, text + hn, len);
    slot[len] = '\0';
    size_t off = (size_t)(eol + 1 - text);
    /* at HI/LO K: sscanf stops at the line's end, which must come right after K */
    char line[64];
    const char *eol3 = memchr(text + off, '\n', n - off);
    size_t ln = eol3 ? (size_t)(eol3 - text) - off : 0;
    unsigned hi, lo;
    unsigned long long k;
    int used = 0;
    if (ln) snprintf(line, sizeof line, "%.*s", (int)(ln < sizeof line ? ln : sizeof line - 1), text + off);
    if (!ln || ln >= sizeof line || sscanf(line, "at %X/%X %llu%n", &hi, &lo, &k, &used) != 3 || (size_t)used != ln)
        return rc_error_set(err, RC_ERR_SYNTAX, off, "line 3: expected \"at LSN K\"");
    *at = (rc_pg_state_pos){(uint64_t)hi << 32 | lo, k};
    off += ln + 1;
    rc_status rc = rc_isstate_parse(st, text + off, n - off, err);
    if (rc != RC_OK && err && err->offset != RC_NO_OFFSET) err->offset += off;
    return rc;
}

static rc_status open_at(const char *where, const rc_pg_state_home *home, rc_state_store **out, rc_error *err)
{
    const rc_pg_state_home none = {0};
    if (!home) home = &none;
    return rc_state_store_open(where, "state file", home->server, "state", home->opts, home->stop, out, err);
}

rc_status rc_pg_state_read(const char *where, const rc_pg_state_home *home, const char *slot, rc_pg_state_pos *at,
                           rc_isstate *st, rc_error *err)
{
    rc_state_store *store = NULL;
    rc_buf b;
    rc_buf_init(&b, 1 << 26);
    rc_status rc = open_at(where, home, &store, err);
    if (rc == RC_OK) rc = rc_state_store_load(store, &b, err);
    rc_state_store_close(store);
    if (rc == RC_OK && b.err) rc = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "state file %s: too large", where);
    char owner[128];
    bool io = rc != RC_OK; /* the store's own errors name it already */
    if (rc == RC_OK) rc = rc_pg_state_parse(b.data ? b.data : "", b.len, owner, sizeof owner, at, st, err);
    rc_buf_fini(&b);
    if (rc == RC_OK && strcmp(owner, slot))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "state file %s is slot %s's, not %s's: give --slot %s, another --checkpoint, or delete the file", where,
                            owner, slot, owner);
    if (rc != RC_OK && rc != RC_SKIP && !io && err) {
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        size_t off = err->offset;
        rc_error_clear(err);
        rc_error_set(err, rc, off, "state file %s: %s (delete it to forget the snapshot's progress)", where, why);
    }
    return rc;
}

rc_pg_state_pos rc_pg_state_cut_at(uint64_t slot_lsn, rc_pg_state_pos at)
{
    return at.lsn > slot_lsn ? at : (rc_pg_state_pos){slot_lsn, UINT64_MAX};
}

rc_status rc_pg_state_write(rc_state_store **store, const char *where, const rc_pg_state_home *home, const char *slot,
                            rc_pg_state_pos at, const rc_isstate *st, rc_error *err)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_buf_puts(&b, head);
    rc_buf_puts(&b, slot);
    char line[64];
    snprintf(line, sizeof line, "\nat %X/%X %llu\n", (unsigned)(at.lsn >> 32), (unsigned)at.lsn, (unsigned long long)at.k);
    rc_buf_puts(&b, line);
    rc_status rc = rc_isstate_write(st, &b, err);
    if (rc == RC_OK && b.err != RC_OK) rc = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "state file %s: out of memory", where);
    if (rc == RC_OK && !*store) rc = open_at(where, home, store, err);
    if (rc == RC_OK) rc = rc_state_store_save(*store, b.data, b.len, err);
    rc_buf_fini(&b);
    return rc;
}
