/* Held changes of a streamed transaction, in memory and in an unnamed temporary file
 * (pg_spill.h). */
#define _GNU_SOURCE /* O_TMPFILE */
#include "sources/pg/pg_spill.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A record: this header, then nrels u32 indexes into the relation table, then the message.
 * Fields are copied with memcpy: records follow each other unaligned. */
typedef struct rec_head {
    uint32_t len, subxid;
    uint64_t wal_start;
    uint32_t nrels;
} rec_head;
enum { HEAD = 4 + 4 + 8 + 4, READ_CHUNK = 64 << 10 };

struct rc_pg_spill {
    uint32_t xid;
    const char *dir;
    uint8_t *mem; /* records after those in the file */
    size_t len, cap;
    int fd; /* -1: no file yet */
    uint64_t file_bytes;
    const rc_pg_relation **rels; /* distinct versions, one reference each */
    uint32_t nrels, caprels;
    uint32_t *skip; /* aborted subtransactions, ascending */
    size_t nskip, capskip;
    /* reading back: the position, a window of the file, the relations of the last record */
    uint64_t pos;
    uint8_t *rbuf;
    size_t rcap, rlen;
    uint64_t rbase;
    const rc_pg_relation **rrels;
    uint32_t caprrels;
};

static rc_status nomem(rc_error *err)
{
    return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

/* Room for `need` elements of `size` bytes in the array p of *cap: the array (moved when it
 * grew), or NULL when out of memory (p is then unchanged). */
static void *grow(void *p, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap) return p;
    size_t n = *cap ? *cap : first;
    while (n < need) n *= 2;
    void *q = realloc(p, n * size);
    if (q) *cap = n;
    return q;
}

rc_pg_spill *rc_pg_spill_new(uint32_t xid, const char *dir)
{
    rc_pg_spill *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->xid = xid;
    s->dir = dir;
    s->fd = -1;
    return s;
}

void rc_pg_spill_free(rc_pg_spill *s)
{
    if (!s) return;
    if (s->fd >= 0) close(s->fd);
    for (uint32_t i = 0; i < s->nrels; i++) rc_pg_relation_release(s->rels[i]);
    free(s->rels);
    free(s->mem);
    free(s->skip);
    free(s->rbuf);
    free(s->rrels);
    free(s);
}

uint32_t rc_pg_spill_xid(const rc_pg_spill *s)
{
    return s->xid;
}
size_t rc_pg_spill_mem_bytes(const rc_pg_spill *s)
{
    return s->len;
}
uint64_t rc_pg_spill_file_bytes(const rc_pg_spill *s)
{
    return s->file_bytes;
}
bool rc_pg_spill_has_file(const rc_pg_spill *s)
{
    return s->fd >= 0;
}

size_t rc_pg_spill_record_size(size_t len, uint32_t nrels)
{
    return HEAD + (size_t)nrels * 4 + len;
}

/* The index of rel in the table, added (with a reference) when new; UINT32_MAX: no memory.
 * A transaction's changes name few versions, the last one most often. */
static uint32_t rel_index(rc_pg_spill *s, const rc_pg_relation *rel)
{
    for (uint32_t i = s->nrels; i-- > 0;)
        if (s->rels[i] == rel) return i;
    size_t cap = s->caprels;
    const rc_pg_relation **t = grow(s->rels, &cap, (size_t)s->nrels + 1, sizeof *t, 8);
    if (!t) return UINT32_MAX;
    s->rels = t, s->caprels = (uint32_t)cap;
    rc_pg_relation_retain(rel);
    s->rels[s->nrels] = rel;
    return s->nrels++;
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

rc_status rc_pg_spill_add(rc_pg_spill *s, const uint8_t *msg, size_t len, uint64_t wal_start,
                          uint32_t subxid, const rc_pg_relation *const *rels, uint32_t nrels,
                          rc_error *err)
{
    size_t size = rc_pg_spill_record_size(len, nrels);
    uint8_t *mem = len <= UINT32_MAX ? grow(s->mem, &s->cap, s->len + size, 1, 4096) : NULL;
    if (!mem) return nomem(err);
    s->mem = mem;
    uint8_t *p = s->mem + s->len;
    /* the table may gain versions that no record names if this fails half-way: harmless */
    for (uint32_t i = 0; i < nrels; i++) {
        uint32_t k = rel_index(s, rels[i]);
        if (k == UINT32_MAX) return nomem(err);
        put32(p + HEAD + 4 * (size_t)i, k);
    }
    rec_head h = {(uint32_t)len, subxid, wal_start, nrels};
    put32(p, h.len);
    put32(p + 4, h.subxid);
    memcpy(p + 8, &h.wal_start, 8);
    put32(p + 16, h.nrels);
    if (len) memcpy(p + HEAD + 4 * (size_t)nrels, msg, len);
    s->len += size;
    return RC_OK;
}

static rc_status open_file(rc_pg_spill *s, rc_error *err)
{
    int fd = -1;
#ifdef O_TMPFILE
    fd = open(s->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    /* file systems and kernels without O_TMPFILE say so in one of these ways */
    if (fd < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) goto fail;
#endif
    if (fd < 0) {
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s/rowcast-spill-XXXXXX", s->dir) >= sizeof path) {
            errno = ENAMETOOLONG;
            goto fail;
        }
        if ((fd = mkstemp(path)) < 0) goto fail;
        unlink(path);
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    s->fd = fd;
    return RC_OK;
fail:
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                        "streamed transaction %u: cannot create its spill file in %s: %s; set "
                        "postgres.stream.spill_dir to a writable directory",
                        s->xid, s->dir, strerror(errno));
}

rc_status rc_pg_spill_flush(rc_pg_spill *s, rc_error *err)
{
    if (!s->len) return RC_OK;
    if (s->fd < 0 && open_file(s, err) != RC_OK) return RC_ERR_IO;
    /* pwrite at the file's logical end: a failed write leaves nothing counted, and the next
     * flush writes over what it left */
    size_t done = 0;
    while (done < s->len) {
        ssize_t n = pwrite(s->fd, s->mem + done, s->len - done, (off_t)(s->file_bytes + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = ENOSPC;
            return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                                "streamed transaction %u: writing its spill file in %s failed "
                                "at byte %llu: %s; free space there or set "
                                "postgres.stream.spill_dir to a larger disk",
                                s->xid, s->dir, (unsigned long long)(s->file_bytes + done),
                                strerror(errno));
        }
        done += (size_t)n;
    }
    s->file_bytes += s->len;
    s->len = 0;
    /* a transaction that spilled keeps writing in chunks: a large buffer is given back */
    if (s->cap > 2 * READ_CHUNK) {
        free(s->mem);
        s->mem = NULL;
        s->cap = 0;
    }
    return RC_OK;
}

static bool skipped(const rc_pg_spill *s, uint32_t subxid)
{
    size_t lo = 0, hi = s->nskip;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (s->skip[mid] < subxid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->nskip && s->skip[lo] == subxid;
}

rc_status rc_pg_spill_skip_sub(rc_pg_spill *s, uint32_t subxid, rc_error *err)
{
    if (skipped(s, subxid)) return RC_OK;
    uint32_t *skip = grow(s->skip, &s->capskip, s->nskip + 1, sizeof *skip, 8);
    if (!skip) return nomem(err);
    s->skip = skip;
    size_t at = s->nskip; /* subtransactions mostly abort in xid order: usually the end */
    while (at > 0 && s->skip[at - 1] > subxid) at--;
    memmove(s->skip + at + 1, s->skip + at, (s->nskip - at) * sizeof *s->skip);
    s->skip[at] = subxid;
    s->nskip++;
    return RC_OK;
}

uint64_t rc_pg_spill_tell(const rc_pg_spill *s)
{
    return s->pos;
}
void rc_pg_spill_seek(rc_pg_spill *s, uint64_t pos)
{
    s->pos = pos;
}

/* Bytes [pos, pos + n) of the file in the read window, read when they are not. */
static rc_status file_bytes_at(rc_pg_spill *s, uint64_t pos, size_t n, const uint8_t **out,
                               rc_error *err)
{
    if (pos >= s->rbase && pos + n <= s->rbase + s->rlen) {
        *out = s->rbuf + (pos - s->rbase);
        return RC_OK;
    }
    size_t want = n > READ_CHUNK ? n : READ_CHUNK;
    if (pos + want > s->file_bytes) want = (size_t)(s->file_bytes - pos);
    if (want < n) {
        errno = 0;
        goto fail;
    }
    uint8_t *buf = grow(s->rbuf, &s->rcap, want, 1, READ_CHUNK);
    if (!buf) return nomem(err);
    s->rbuf = buf;
    s->rbase = pos, s->rlen = 0;
    while (s->rlen < want) {
        ssize_t k = pread(s->fd, s->rbuf + s->rlen, want - s->rlen, (off_t)(pos + s->rlen));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) goto fail;
        s->rlen += (size_t)k;
    }
    *out = s->rbuf;
    return RC_OK;
fail:
    s->rlen = 0;
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                        "streamed transaction %u: reading its spill file in %s back failed at "
                        "byte %llu: %s",
                        s->xid, s->dir, (unsigned long long)pos,
                        errno ? strerror(errno) : "the file is shorter than what was written");
}

/* The record at s->pos: the file first, then memory (a record is never split between them). */
static rc_status record_at(rc_pg_spill *s, const uint8_t **p, rc_error *err)
{
    if (s->pos >= s->file_bytes) {
        *p = s->mem + (s->pos - s->file_bytes);
        return RC_OK;
    }
    rc_status st = file_bytes_at(s, s->pos, HEAD, p, err);
    if (st != RC_OK) return st;
    uint32_t len, nrels;
    memcpy(&len, *p, 4);
    memcpy(&nrels, *p + 16, 4);
    return file_bytes_at(s, s->pos, rc_pg_spill_record_size(len, nrels), p, err);
}

rc_status rc_pg_spill_next(rc_pg_spill *s, rc_pg_spill_rec *r, rc_error *err)
{
    for (;;) {
        memset(r, 0, sizeof *r);
        if (s->pos >= s->file_bytes + s->len) return RC_OK;
        const uint8_t *p;
        rc_status st = record_at(s, &p, err);
        if (st != RC_OK) return st;
        rec_head h;
        memcpy(&h.len, p, 4);
        memcpy(&h.subxid, p + 4, 4);
        memcpy(&h.wal_start, p + 8, 8);
        memcpy(&h.nrels, p + 16, 4);
        s->pos += rc_pg_spill_record_size(h.len, h.nrels);
        if (skipped(s, h.subxid)) continue;
        size_t cap = s->caprrels;
        const rc_pg_relation **rr = grow(s->rrels, &cap, h.nrels ? h.nrels : 1, sizeof *rr, 8);
        if (!rr) return nomem(err);
        s->rrels = rr, s->caprrels = (uint32_t)cap;
        for (uint32_t i = 0; i < h.nrels; i++) {
            uint32_t k;
            memcpy(&k, p + HEAD + 4 * (size_t)i, 4);
            s->rrels[i] = k < s->nrels ? s->rels[k] : NULL;
            if (!s->rrels[i])
                return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                                    "streamed transaction %u: its spill file in %s names "
                                    "relation %u of %u it never held (the file was changed)",
                                    s->xid, s->dir, k, s->nrels);
        }
        *r = (rc_pg_spill_rec){
            p + HEAD + 4 * (size_t)h.nrels, h.len, h.wal_start, h.subxid, s->rrels, h.nrels};
        return RC_OK;
    }
}
