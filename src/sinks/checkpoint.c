/* The checkpoint file of `convert --checkpoint` (see sink.h and docs/sinks.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rowcast/fmt.h"
#include "rowcast/sink.h"

enum { MAX_FILE = 8192 };

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
        if (kl == 18 && !memcmp(l, "rowcast-checkpoint", 18)) bit = 1, ok = ok && vl == 1 && v[0] == '1';
        else if (kl == 5 && !memcmp(l, "input", 5)) bit = 2, ok = ok && vl && vl < sizeof ck->input && !memchr(v, '\0', vl);
        else if (kl == 6 && !memcmp(l, "offset", 6)) bit = 4, ok = ok && rc_parse_u64(v, vl, &ck->offset) == RC_OK;
        else if (kl == 4 && !memcmp(l, "line", 4)) bit = 8, ok = ok && rc_parse_u64(v, vl, &ck->line) == RC_OK;
        if (!bit || !ok || (have & bit))
            return rc_error_set(err, RC_ERR_SCHEMA, at, "checkpoint line %u: expected \"rowcast-checkpoint 1\", \"input PATH\", "
                                "\"offset N\" or \"line N\", each once", lineno);
        if (bit == 2) memcpy(ck->input, v, vl), ck->input[vl] = '\0';
        have |= bit;
        at += len + (nl != NULL);
    }
    if (have != 15) return rc_error_set(err, RC_ERR_SCHEMA, n, "checkpoint: version 1, input, offset and line are all required");
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

void rc_checkpoint_format(const rc_checkpoint *ck, rc_buf *b)
{
    RC_BUF_LIT(b, "rowcast-checkpoint 1\ninput ");
    rc_buf_puts(b, ck->input);
    RC_BUF_LIT(b, "\noffset ");
    rc_fmt_u64(b, ck->offset);
    RC_BUF_LIT(b, "\nline ");
    rc_fmt_u64(b, ck->line);
    rc_buf_putc(b, '\n');
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
