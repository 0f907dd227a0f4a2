/* The checkpoint file of a MySQL/MariaDB capture (my_checkpoint.h). */
#include "sources/mysql/my_checkpoint.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/buf.h"

void rc_my_checkpoint_fini(rc_my_checkpoint *ck)
{
    free(ck->file), free(ck->gtids), free(ck->history), free(ck->sink), free(ck->snapshot);
    memset(ck, 0, sizeof *ck);
}

static rc_status bad(const char *path, unsigned line, size_t byte, const char *what, rc_error *err)
{
    return rc_error_set(err, RC_ERR_USAGE, byte, "checkpoint %s, line %u (byte %zu): %s (remove the file to start afresh)",
                        path, line, byte, what);
}

/* The value of line "KEY VALUE" at text[*at], *at moved past it. */
static char *field(const char *path, const char *text, size_t n, size_t *at, unsigned line, const char *key, rc_error *err)
{
    size_t kl = strlen(key), start = *at;
    const char *nl = memchr(text + start, '\n', n - start);
    if (!nl) {
        bad(path, line, start, "cut short", err);
        return NULL;
    }
    size_t len = (size_t)(nl - (text + start));
    if (len < kl + 1 || memcmp(text + start, key, kl) || text[start + kl] != ' ') {
        char what[80];
        snprintf(what, sizeof what, "expected '%s VALUE'", key);
        bad(path, line, start, what, err);
        return NULL;
    }
    char *v = strndup(text + start + kl + 1, len - kl - 1);
    if (!v) rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    *at = start + len + 1;
    return v;
}

static bool number(const char *s, uint64_t *out)
{
    char *e;
    if (!*s || *s == '-') return false;
    errno = 0;
    *out = strtoull(s, &e, 10);
    return !*e && !errno;
}

/* A section "KEY BYTES\n" and its BYTES bytes (`name` in errors) at text[*at] (line *line), copied into *out
 * ('\0'-ended, *len its size); *at and *line moved past it. `whole`: the section ends the file
 * (its bytes are exactly what is left). */
static rc_status section(const char *path, const char *text, size_t n, size_t *at, unsigned *line, const char *key,
                         const char *name, bool whole, char **out, size_t *len, rc_error *err)
{
    size_t key_at = *at;
    char *v = field(path, text, n, at, *line, key, err);
    if (!v) return err->code;
    uint64_t bytes;
    bool ok = number(v, &bytes);
    free(v);
    char what[120];
    if (!ok || (!whole && bytes > n - *at)) {
        snprintf(what, sizeof what, "the %s's size is not a number%s", name, whole ? "" : ", or past the end");
        return bad(path, *line, key_at, what, err);
    }
    if (whole && bytes != n - *at) {
        snprintf(what, sizeof what, "the %s is not as long as its line says (a torn file?)", name);
        return bad(path, *line + 1, *at, what, err);
    }
    if (!(*out = malloc(bytes + 1))) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    memcpy(*out, text + *at, bytes);
    (*out)[bytes] = '\0';
    *len = bytes;
    for (size_t i = 0; i < bytes; i++) *line += text[*at + i] == '\n';
    *at += bytes, ++*line;
    return RC_OK;
}

/* Version 4's line "history HASH CHUNKS BYTES" at text[*at]: ck->history_at. */
static rc_status history_ref(const char *path, const char *text, size_t n, size_t *at, unsigned line, rc_my_checkpoint *ck, rc_error *err)
{
    size_t key_at = *at;
    char *v = field(path, text, n, at, line, "history", err);
    if (!v) return err->code;
    rc_state_ref *r = &ck->history_at;
    char hash[32], extra;
    unsigned long long chunks, bytes;
    int k = sscanf(v, "%31s %llu %llu %c", hash, &chunks, &bytes, &extra);
    free(v);
    if (k != 3 || strlen(hash) != 16 || strspn(hash, "0123456789abcdef") != 16 || !chunks || chunks > bytes || bytes > (unsigned long long)SIZE_MAX) {
        memset(r, 0, sizeof *r);
        return bad(path, line, key_at, "expected 'history HASH CHUNKS BYTES' (the schema history's chunks)", err);
    }
    memcpy(r->hash, hash, sizeof r->hash);
    r->chunks = (size_t)chunks, r->bytes = (size_t)bytes;
    return RC_OK;
}

rc_status rc_my_checkpoint_parse(const char *path, const char *text, size_t n, rc_my_checkpoint *ck, rc_error *err)
{
    memset(ck, 0, sizeof *ck);
    static const char magic[] = "rowcast-mysql-checkpoint ";
    char version = n > sizeof magic ? text[sizeof magic - 1] : 0;
    if (n < sizeof magic + 1 || memcmp(text, magic, sizeof magic - 1) || version < '1' || version > '4' || text[sizeof magic] != '\n')
        return bad(path, 1, 0, "not a rowcast MySQL checkpoint", err);
    size_t at = sizeof magic + 1;
    char *server = field(path, text, n, &at, 2, "server", err), *off = NULL;
    if (!server) return err->code;
    free(server);
    if (!(ck->file = field(path, text, n, &at, 3, "file", err))) return err->code;
    size_t off_at = at;
    if (!(off = field(path, text, n, &at, 4, "offset", err))) return err->code;
    bool ok = number(off, &ck->offset);
    free(off);
    if (!ok) return bad(path, 4, off_at, "the offset is not a number", err);
    if (!(ck->gtids = field(path, text, n, &at, 5, "gtids", err))) return err->code;
    unsigned line = 6;
    size_t sink_len;
    if (version > '1' && n - at >= 5 && !memcmp(text + at, "sink ", 5) && /* the sink state: its size, then its text */
        section(path, text, n, &at, &line, "sink", "sink state", false, &ck->sink, &sink_len, err) != RC_OK)
        return err->code;
    /* version 3: the incremental snapshot's state after the history, when one ran */
    bool v3 = version >= '3';
    if (version == '4') {
        if (history_ref(path, text, n, &at, line++, ck, err) != RC_OK) return err->code;
    } else if (section(path, text, n, &at, &line, "history", "history", !v3, &ck->history, &ck->history_len, err) != RC_OK) {
        return err->code;
    }
    if (v3 && at < n &&
        section(path, text, n, &at, &line, "snapshot", "snapshot state", true, &ck->snapshot, &ck->snapshot_len, err) != RC_OK)
        return err->code;
    return RC_OK;
}

rc_status rc_my_checkpoint_load(rc_state_store *store, rc_my_checkpoint *ck, rc_error *err)
{
    memset(ck, 0, sizeof *ck);
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    rc_status st = rc_state_store_load(store, &b, err);
    if (st == RC_OK) st = rc_my_checkpoint_parse(rc_state_store_where(store), b.data ? b.data : "", b.len, ck, err);
    if (st == RC_OK && ck->history_at.hash[0]) { /* version 4: the history from its chunks */
        rc_buf_reset(&b);
        st = rc_state_store_get_part(store, &ck->history_at, &b, err);
        if (st == RC_OK && !(ck->history = malloc(b.len + 1))) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        if (st == RC_OK) memcpy(ck->history, b.data ? b.data : "", b.len), ck->history[b.len] = '\0', ck->history_len = b.len;
    }
    rc_buf_fini(&b);
    if (st != RC_OK) rc_my_checkpoint_fini(ck);
    return st;
}

rc_status rc_my_checkpoint_read(const char *path, rc_my_checkpoint *ck, rc_error *err)
{
    rc_state_store *store;
    rc_status st = rc_state_store_open(path, "checkpoint", NULL, NULL, NULL, NULL, &store, err);
    if (st != RC_OK) return st;
    st = rc_my_checkpoint_load(store, ck, err);
    rc_state_store_close(store);
    return st;
}

bool rc_my_checkpoint_format(const char *server, const rc_my_checkpoint *ck, rc_buf *b)
{
    char head[1400];
    bool sink = ck->sink && ck->sink[0]; /* no file tracked (Kafka): version 1, as older rowcast wrote */
    bool snap = ck->snapshot_len > 0;    /* no incremental snapshot: version 1 or 2, as before */
    bool chunked = ck->history_at.hash[0]; /* version 4: the history in chunks */
    int hn = snprintf(head, sizeof head, "rowcast-mysql-checkpoint %d\nserver %s\nfile %s\noffset %llu\ngtids %s\n",
                      chunked ? 4 : snap ? 3 : sink ? 2 : 1,
                      server, ck->file ? ck->file : "", (unsigned long long)ck->offset, ck->gtids ? ck->gtids : "");
    rc_buf_put(b, head, (size_t)hn);
    bool cut = (size_t)hn >= sizeof head;
    if (sink) {
        hn = snprintf(head, sizeof head, "sink %zu\n", strlen(ck->sink));
        rc_buf_put(b, head, (size_t)hn);
        rc_buf_puts(b, ck->sink);
    }
    if (chunked) {
        hn = snprintf(head, sizeof head, "history %s %zu %zu\n", ck->history_at.hash, ck->history_at.chunks, ck->history_at.bytes);
        rc_buf_put(b, head, (size_t)hn);
    } else {
        hn = snprintf(head, sizeof head, "history %zu\n", ck->history_len);
        rc_buf_put(b, head, (size_t)hn);
        rc_buf_put(b, ck->history ? ck->history : "", ck->history_len);
    }
    if (snap) {
        hn = snprintf(head, sizeof head, "snapshot %zu\n", ck->snapshot_len);
        rc_buf_put(b, head, (size_t)hn);
        rc_buf_put(b, ck->snapshot, ck->snapshot_len);
    }
    return !b->err && !cut;
}

void rc_my_checkpoint_chunk(const rc_state_store *store, rc_my_checkpoint *ck)
{
    memset(&ck->history_at, 0, sizeof ck->history_at);
    if (rc_state_store_chunked(store) && ck->history_len) rc_state_ref_of(ck->history, ck->history_len, &ck->history_at);
}

rc_status rc_my_checkpoint_store(rc_state_store *store, const char *text, size_t n, const rc_my_checkpoint *ck, rc_error *err)
{
    const rc_state_ref *ref = ck->history_at.hash[0] ? &ck->history_at : NULL;
    if (ref && rc_state_store_put_part(store, ref, ck->history, err) != RC_OK) return err->code;
    return rc_state_store_save_naming(store, text, n, ref, err);
}

rc_status rc_my_checkpoint_save(rc_state_store *store, const char *server, const rc_my_checkpoint *ck, rc_error *err)
{
    rc_my_checkpoint c = *ck;
    rc_my_checkpoint_chunk(store, &c);
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    rc_status st = rc_my_checkpoint_format(server, &c, &b) ? rc_my_checkpoint_store(store, b.data, b.len, &c, err)
                                          : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "checkpoint %s: too large", rc_state_store_where(store));
    rc_buf_fini(&b);
    return st;
}

rc_status rc_my_checkpoint_write(const char *path, const char *server, const rc_my_checkpoint *ck, rc_error *err)
{
    rc_state_store *store;
    rc_status st = rc_state_store_open(path, "checkpoint", NULL, NULL, NULL, NULL, &store, err);
    if (st != RC_OK) return st;
    st = rc_my_checkpoint_save(store, server, ck, err);
    rc_state_store_close(store);
    return st;
}
