/* A run's state text in a file or a Kafka record (state_store.h). */
#include "pipeline/state_store.h"
#include "core/run_state.h"
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/log.h"
#include "sinks/kafka_state.h"

#define CHUNK_BYTES (512u * 1024u) /* below the default message.max.bytes (1 MB) with room for the key */

struct rc_state_store {
    char *where, *label, *server;
    rc_kafka_state *kafka; /* NULL: a file */
    volatile sig_atomic_t *stop;
    rc_state_ref cur;      /* the part whose chunks are all acknowledged or read back (hash "": none) */
    rc_state_ref *known;   /* parts whose chunks may be in the topic (read back, or written) */
    size_t nknown;
    unsigned puts, drops;  /* for RC_TEST_STATE_HOLD */
};

bool rc_state_store_is_kafka(const char *where) { return where && !strncmp(where, "kafka://", 8); }

rc_status rc_state_store_open(const char *where, const char *label, const char *server, const char *kind,
                              const rc_options *opts, volatile sig_atomic_t *stop, rc_state_store **out, rc_error *err)
{
    rc_state_store *s = calloc(1, sizeof *s);
    if (!s || !(s->where = strdup(where)) || !(s->label = strdup(label)) || !(s->server = strdup(server ? server : ""))) {
        rc_state_store_close(s);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    s->stop = stop;
    if (rc_state_store_is_kafka(where)) {
        rc_status st = rc_kafka_state_open(where + 8, label, server, kind, opts, stop, &s->kafka, err);
        if (st != RC_OK) {
            rc_state_store_close(s);
            return st;
        }
    }
    *out = s;
    return RC_OK;
}

static rc_status file_load(const rc_state_store *s, rc_buf *text, rc_error *err)
{
    FILE *f = fopen(s->where, "rb");
    if (!f) {
        if (errno == ENOENT) return RC_SKIP;
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: %s", s->label, s->where, strerror(errno));
    }
    char chunk[65536];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) rc_buf_put(text, chunk, k);
    bool failed = ferror(f);
    fclose(f);
    if (failed) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: read error", s->label, s->where);
    if (text->err) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "%s %s: too large", s->label, s->where);
    return RC_OK;
}

/* --standby: a state written by an instance that lost the lead could move the new leader's
 * position; nothing is written then (core/run_state.h). */
static rc_status lead_held(const rc_state_store *s, rc_error *err)
{
    char why[256];
    if (rc_run_lead_held(why, sizeof why)) return RC_OK;
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: not written: lost the lead (%s)", s->label, s->where, why);
}

static rc_status nomem(rc_error *err) { return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"); }

/* `ref`'s chunks may be in the topic (chunks: at least). */
static bool know(rc_state_store *s, const rc_state_ref *ref)
{
    for (size_t i = 0; i < s->nknown; i++)
        if (!strcmp(s->known[i].hash, ref->hash)) {
            if (s->known[i].chunks < ref->chunks) s->known[i].chunks = ref->chunks;
            return true;
        }
    rc_state_ref *k = realloc(s->known, (s->nknown + 1) * sizeof *k);
    if (!k) return false;
    s->known = k, k[s->nknown++] = *ref;
    return true;
}

/* The chunks the load met, history/HASH/N: known (N + 1 of them at least), to be deleted once a
 * state that does not name them is stored. */
static rc_status know_found(rc_state_store *s, rc_error *err)
{
    size_t n = rc_kafka_state_found_count(s->kafka);
    for (size_t i = 0; i < n; i++) {
        const char *key = rc_kafka_state_found_key(s->kafka, i), *slash;
        rc_state_ref ref = {0};
        char *end;
        if (!key || strncmp(key, "history/", 8) || !(slash = strchr(key + 8, '/')) || (size_t)(slash - key - 8) >= sizeof ref.hash)
            continue; /* another kind of key: not rowcast's (yet) */
        memcpy(ref.hash, key + 8, (size_t)(slash - key - 8));
        unsigned long long k = strtoull(slash + 1, &end, 10);
        if (*end || !slash[1] || k >= 1u << 20) continue; /* not a chunk rowcast writes (512 GiB) */
        ref.chunks = (size_t)k + 1;
        if (!know(s, &ref)) return nomem(err);
    }
    return RC_OK;
}

rc_status rc_state_store_load(rc_state_store *s, rc_buf *text, rc_error *err)
{
    if (!s->kafka) return file_load(s, text, err);
    rc_status st = rc_kafka_state_load(s->kafka, text, err);
    if ((st == RC_OK || st == RC_SKIP) && know_found(s, err) != RC_OK) return err->code;
    return st;
}

bool rc_state_store_chunked(const rc_state_store *s) { return s->kafka != NULL; }

void rc_state_ref_of(const char *data, size_t n, rc_state_ref *ref)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a, 64 bits: names a content, no secret */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)data[i]) * 1099511628211ull;
    snprintf(ref->hash, sizeof ref->hash, "%016llx", (unsigned long long)h);
    ref->bytes = n, ref->chunks = (n + CHUNK_BYTES - 1) / CHUNK_BYTES;
}

/* RC_TEST_STATE_HOLD=WHAT[:N] (tests' kill points, tests/integration/my_state_history_test.sh):
 * the Nth time (1 by default) WHAT is done, say so and wait for a stop. */
static void hold(const rc_state_store *s, const char *what, unsigned nth, const char *ref)
{
    const char *h = getenv("RC_TEST_STATE_HOLD");
    size_t wn = strlen(what);
    if (!h || strncmp(h, what, wn) || (h[wn] && h[wn] != ':') || (unsigned)(h[wn] ? atoi(h + wn + 1) : 1) != nth) return;
    rc_logf("%s %s: held after the %s of schema history %s (RC_TEST_STATE_HOLD)\n", s->label, s->where, what, ref);
    while (!(s->stop && *s->stop)) nanosleep(&(struct timespec){0, 20000000}, NULL);
}

/* The suffixes history/HASH/N of ref's chunks (malloc'd, each too). */
static char **chunk_keys(const rc_state_ref *ref)
{
    char **keys = calloc(ref->chunks ? ref->chunks : 1, sizeof *keys);
    for (size_t i = 0; keys && i < ref->chunks; i++)
        if (!(keys[i] = malloc(sizeof ref->hash + 40))) {
            while (i--) free(keys[i]);
            free(keys);
            return NULL;
        } else {
            sprintf(keys[i], "history/%s/%zu", ref->hash, i);
        }
    return keys;
}

static void keys_free(char **keys, size_t n)
{
    for (size_t i = 0; keys && i < n; i++) free(keys[i]);
    free(keys);
}

/* ref's chunks all read back at the load, whole (a run killed between its chunks and the state
 * naming them, restarted with the same history): not written again. */
static bool found_whole(rc_state_store *s, const rc_state_ref *ref)
{
    bool known = false;
    for (size_t i = 0; i < s->nknown && !known; i++) known = !strcmp(s->known[i].hash, ref->hash);
    if (!known) return false;
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    rc_error err;
    rc_error_clear(&err);
    bool whole = rc_state_store_get_part(s, ref, &b, &err) == RC_OK; /* sets cur */
    rc_buf_fini(&b);
    return whole;
}

rc_status rc_state_store_put_part(rc_state_store *s, const rc_state_ref *ref, const char *data, rc_error *err)
{
    if (!s->kafka || !strcmp(ref->hash, s->cur.hash) || found_whole(s, ref)) return RC_OK;
    rc_status st = lead_held(s, err);
    if (st != RC_OK) return st;
    char **keys = chunk_keys(ref);
    const char **values = calloc(ref->chunks ? ref->chunks : 1, sizeof *values);
    size_t *lens = calloc(ref->chunks ? ref->chunks : 1, sizeof *lens);
    if (!keys || !values || !lens || !know(s, ref)) st = nomem(err);
    for (size_t i = 0; st == RC_OK && i < ref->chunks; i++) {
        values[i] = data + i * CHUNK_BYTES;
        lens[i] = i + 1 < ref->chunks ? CHUNK_BYTES : ref->bytes - i * CHUNK_BYTES;
    }
    if (st == RC_OK) st = rc_kafka_state_put(s->kafka, ref->chunks, (const char *const *)keys, values, lens, err);
    keys_free(keys, ref->chunks), free(values), free(lens);
    if (st != RC_OK) return st;
    s->cur = *ref;
    hold(s, "chunks", ++s->puts, ref->hash);
    return RC_OK;
}

rc_status rc_state_store_get_part(rc_state_store *s, const rc_state_ref *ref, rc_buf *out, rc_error *err)
{
    size_t at = out->len;
    for (size_t i = 0; s->kafka && i < ref->chunks; i++) {
        char key[sizeof ref->hash + 40];
        const char *v;
        size_t n;
        snprintf(key, sizeof key, "history/%s/%zu", ref->hash, i);
        if (!rc_kafka_state_found(s->kafka, key, &v, &n))
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                                "%s %s: chunk %zu of the schema history %s (%zu chunks, %zu bytes; key rowcast/%s/%s) that the state "
                                "names is missing: the topic is not compacted, was cut, or its records were deleted; rowcast does not "
                                "guess a history: restore the topic, or start a new capture under another --server",
                                s->label, s->where, i, ref->hash, ref->chunks, ref->bytes, s->server, key);
        rc_buf_put(out, v, n);
    }
    if (out->err) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "%s %s: too large", s->label, s->where);
    rc_state_ref got;
    rc_state_ref_of(out->data ? out->data + at : "", out->len - at, &got);
    if (got.bytes != ref->bytes || strcmp(got.hash, ref->hash))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "%s %s: the %zu chunks of the schema history %s hold %zu bytes of hash %s, not the %zu the state names: "
                            "another writer under --server %s?", s->label, s->where, ref->chunks, ref->hash, got.bytes, got.hash,
                            ref->bytes, s->server);
    s->cur = *ref;
    return RC_OK;
}

/* Tombstones for the chunks of every part known but `keep` (NULL: all), once a state that does
 * not name them was acknowledged; a failure leaves them known, for the next state. */
static void drop_parts(rc_state_store *s, const rc_state_ref *keep)
{
    size_t total = 0, j = 0;
    for (size_t i = 0; i < s->nknown; i++)
        if (!keep || strcmp(s->known[i].hash, keep->hash)) total += s->known[i].chunks;
    if (!keep) s->cur.hash[0] = '\0'; /* deleted too */
    if (!total) return;
    hold(s, "tombstones", ++s->drops, keep ? keep->hash : "(none)");
    char why[256];
    if (!rc_run_lead_held(why, sizeof why)) return; /* --standby: the new leader's state may name them */
    char **keys = calloc(total, sizeof *keys);
    const char **values = calloc(total, sizeof *values);
    size_t *lens = calloc(total, sizeof *lens);
    bool ok = keys && values && lens;
    for (size_t i = 0; ok && i < s->nknown; i++) {
        if (keep && !strcmp(s->known[i].hash, keep->hash)) continue;
        for (size_t c = 0; ok && c < s->known[i].chunks; c++)
            if ((ok = (keys[j] = malloc(sizeof s->known[i].hash + 40)) != NULL)) sprintf(keys[j++], "history/%s/%zu", s->known[i].hash, c);
    }
    rc_error err;
    rc_error_clear(&err);
    if (ok && rc_kafka_state_put(s->kafka, total, (const char *const *)keys, values, lens, &err) == RC_OK) {
        size_t kept = 0;
        for (size_t i = 0; i < s->nknown; i++)
            if (keep && !strcmp(s->known[i].hash, keep->hash)) s->known[kept++] = s->known[i];
        s->nknown = kept;
    } else {
        rc_logf("%s %s: warning: the schema history's old chunks were not deleted (%s); tried again after the next state\n",
                s->label, s->where, ok ? err.message : "out of memory");
    }
    keys_free(keys, j), free(values), free(lens);
}

rc_status rc_state_store_save(rc_state_store *s, const char *text, size_t n, rc_error *err)
{
    return rc_state_store_save_naming(s, text, n, NULL, err);
}

rc_status rc_state_store_save_naming(rc_state_store *s, const char *text, size_t n, const rc_state_ref *ref, rc_error *err)
{
    rc_status st = lead_held(s, err);
    if (st != RC_OK) return st;
    if (!s->kafka) return rc_file_replace(s->label, s->where, text, n, err);
    if (ref && strcmp(ref->hash, s->cur.hash)) /* its chunks first, acknowledged (docs/design/exactly-once.md §3.2) */
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s %s: a state naming schema history %s whose chunks were not written",
                            s->label, s->where, ref->hash);
    if ((st = rc_kafka_state_save(s->kafka, text, n, err)) == RC_OK) {
        drop_parts(s, ref);
        rc_kafka_state_forget(s->kafka); /* what the load read: no longer needed once a state is stored */
    }
    return st;
}

rc_status rc_state_store_clear(rc_state_store *s, rc_error *err)
{
    rc_status st = lead_held(s, err);
    if (st != RC_OK) return st;
    if (s->kafka) {
        if ((st = rc_kafka_state_save(s->kafka, NULL, 0, err)) == RC_OK) drop_parts(s, NULL);
        return st;
    }
    if (remove(s->where) && errno != ENOENT) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: remove: %s", s->label, s->where, strerror(errno));
    return RC_OK;
}

const char *rc_state_store_where(const rc_state_store *s) { return s->where; }

void rc_state_store_close(rc_state_store *s)
{
    if (!s) return;
    rc_kafka_state_close(s->kafka);
    free(s->where), free(s->label), free(s->server), free(s->known), free(s);
}

static rc_status io_fail(const char *label, const char *path, const char *what, rc_error *err)
{
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: %s: %s", label, path, what, strerror(errno));
}

rc_status rc_file_replace(const char *label, const char *path, const char *data, size_t n, rc_error *err)
{
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s %s: the path is too long", label, path);
    rc_status st = RC_OK;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) st = io_fail(label, tmp, "cannot create its temporary file", err);
    for (size_t done = 0; st == RC_OK && done < n;) {
        ssize_t w = write(fd, data + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) st = io_fail(label, tmp, "write", err);
        else done += (size_t)w;
    }
    if (st == RC_OK && fsync(fd)) st = io_fail(label, tmp, "fsync", err);
    if (fd >= 0 && close(fd) && st == RC_OK) st = io_fail(label, tmp, "close", err);
    if (st == RC_OK && rename(tmp, path)) st = io_fail(label, path, "rename", err);
    if (st == RC_OK) { /* the rename itself is durable once the directory is */
        char dir[4200];
        snprintf(dir, sizeof dir, "%s", path);
        int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0 || fsync(dfd)) st = io_fail(label, path, "fsync of its directory", err);
        if (dfd >= 0) close(dfd);
    }
    return st;
}
