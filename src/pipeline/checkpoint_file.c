/* The checkpoint file of `convert --checkpoint` (see pipeline.h and docs/sinks.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/fmt.h"
#include "pipeline/pipeline.h"

enum { MAX_FILE = 16384 }; /* three paths of RC_PATH_MAX and the numbers */

/* "SIZE PATH" of an output or dead-letter line. */
static bool parse_file(const char *v, size_t vl, rc_sink_file *f)
{
    const char *sp = memchr(v, ' ', vl);
    if (!sp || rc_parse_u64(v, (size_t)(sp - v), &f->size) != RC_OK) return false;
    size_t pl = vl - (size_t)(sp - v) - 1;
    if (!pl || pl >= sizeof f->path || memchr(sp + 1, '\0', pl)) return false;
    memcpy(f->path, sp + 1, pl);
    f->path[pl] = '\0';
    f->set = true;
    return true;
}

static bool key_is(const char *l, size_t kl, const char *key) { return kl == strlen(key) && !memcmp(l, key, kl); }

rc_status rc_checkpoint_parse(const char *text, size_t n, rc_checkpoint *ck, rc_error *err)
{
    memset(ck, 0, sizeof *ck);
    unsigned have = 0, lineno = 0;
    for (size_t at = 0; at < n;) {
        const char *l = text + at, *nl = memchr(l, '\n', n - at);
        size_t len = nl ? (size_t)(nl - l) : n - at;
        lineno++;
        const char *sp = memchr(l, ' ', len);
        size_t kl = sp ? (size_t)(sp - l) : len, vl = sp ? len - kl - 1 : 0;
        const char *v = sp ? sp + 1 : l + len;
        unsigned bit = 0;
        bool ok = sp != NULL;
        int field;
        if (key_is(l, kl, "rowcast-checkpoint")) {
            bit = 1, ok = ok && vl == 1 && (v[0] == '1' || v[0] == '2');
            if (ok) ck->version = v[0] - '0';
        } else if (key_is(l, kl, "input")) bit = 2, ok = ok && vl && vl < sizeof ck->input && !memchr(v, '\0', vl);
        else if ((field = rc_pos_parse_field(&ck->pos, RC_POS_LINES, l, kl, v, vl)) != -1)
            bit = field >= 0 ? 4u << field : 4, ok = ok && field >= 0; /* the lines source's position: offset, line */
        else if (key_is(l, kl, "output")) bit = 16, ok = ok && parse_file(v, vl, &ck->sink.output);
        else if (key_is(l, kl, "dead-letter")) bit = 32, ok = ok && parse_file(v, vl, &ck->sink.dead_letter);
        if (!bit || !ok || (have & bit))
            return rc_error_set(err, RC_ERR_SCHEMA, at, "checkpoint line %u: expected \"rowcast-checkpoint 2\" (or 1), "
                                "\"input PATH\", \"offset N\", \"line N\", \"output SIZE PATH\" or \"dead-letter SIZE PATH\", each once",
                                lineno);
        if (bit == 2) memcpy(ck->input, v, vl), ck->input[vl] = '\0';
        have |= bit;
        at += len + (nl != NULL);
    }
    if ((have & 15) != 15) return rc_error_set(err, RC_ERR_SCHEMA, n, "checkpoint: version, input, offset and line are all required");
    if (ck->version == 1 && (have & 48))
        return rc_error_set(err, RC_ERR_SCHEMA, n, "checkpoint: output and dead-letter sizes need version 2");
    return RC_OK;
}

rc_status rc_checkpoint_read(const char *path, rc_checkpoint *ck, rc_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return RC_SKIP;
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "cannot read checkpoint %s: %s", path, strerror(errno));
    }
    char buf[MAX_FILE];
    size_t n = fread(buf, 1, sizeof buf, f);
    bool big = n == sizeof buf, bad = ferror(f);
    fclose(f);
    if (bad) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "cannot read checkpoint %s", path);
    if (big) return rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET, "checkpoint %s: larger than %d bytes", path, MAX_FILE);
    rc_error e;
    rc_error_clear(&e);
    if (rc_checkpoint_parse(buf, n, ck, &e) != RC_OK)
        return rc_error_set(err, e.code, e.offset, "%s (byte %zu of %s)", e.message, e.offset, path);
    return RC_OK;
}

static void format_file(rc_buf *b, const char *key, const rc_sink_file *f)
{
    if (!f->set) return;
    rc_buf_puts(b, key);
    rc_fmt_u64(b, f->size);
    rc_buf_putc(b, ' ');
    rc_buf_puts(b, f->path);
    rc_buf_putc(b, '\n');
}

void rc_sink_state_format(const rc_sink_state *st, rc_buf *b)
{
    format_file(b, "output ", &st->output);
    format_file(b, "dead-letter ", &st->dead_letter);
}

rc_status rc_sink_state_parse(const char *text, size_t n, rc_sink_state *st, rc_error *err)
{
    memset(st, 0, sizeof *st);
    for (size_t at = 0; at < n;) {
        const char *l = text + at, *nl = memchr(l, '\n', n - at);
        size_t len = nl ? (size_t)(nl - l) : n - at;
        const char *sp = memchr(l, ' ', len);
        size_t kl = sp ? (size_t)(sp - l) : len;
        rc_sink_file *f = key_is(l, kl, "output") ? &st->output : key_is(l, kl, "dead-letter") ? &st->dead_letter : NULL;
        if (!f || !sp || f->set || !parse_file(sp + 1, len - kl - 1, f))
            return rc_error_set(err, RC_ERR_SCHEMA, at, "sink state, byte %zu: expected \"output SIZE PATH\" or \"dead-letter SIZE "
                                "PATH\", each once", at);
        at += len + (nl != NULL);
    }
    return RC_OK;
}

void rc_checkpoint_format(const rc_checkpoint *ck, rc_buf *b)
{
    RC_BUF_LIT(b, "rowcast-checkpoint 2\ninput ");
    rc_buf_puts(b, ck->input);
    rc_buf_putc(b, '\n');
    rc_pos_format(&ck->pos, b);
    rc_sink_state_format(&ck->sink, b);
}

rc_status rc_checkpoint_write(const char *path, const rc_checkpoint *ck, bool sync, rc_error *err)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    rc_buf text;
    rc_buf_init(&text, 0);
    rc_checkpoint_format(ck, &text);
    FILE *f = text.err == RC_OK ? fopen(tmp, "w") : NULL;
    if (!f) {
        rc_buf_fini(&text);
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "cannot write checkpoint %s: %s", tmp, strerror(errno));
    }
    int bad = fwrite(text.data, 1, text.len, f) != text.len || fflush(f) != 0 || (sync && fsync(fileno(f)) != 0);
    bad |= fclose(f) != 0;
    rc_buf_fini(&text);
    if (bad || rename(tmp, path) != 0)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "cannot write checkpoint %s: %s", path, strerror(errno));
    return RC_OK;
}
