/* libFuzzer target: the PostgreSQL incremental snapshot state file (src/sources/pg/pg_state.c:
 * header, slot, position, then the state text of incsnap_state.c). No input may crash; an error
 * has a message; a file that parses is written back (the same header lines and
 * rc_isstate_write, which refuses what is not UTF-8: such a state was never written) and parses
 * again to the same text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/pg/pg_state.h"

/* The file's text for slot, at and st, as rc_pg_state_write writes it. */
static rc_status file_text(rc_buf *b, const char *slot, rc_pg_state_pos at, const rc_isstate *st)
{
    char line[160];
    snprintf(line, sizeof line, "rowcast-pg-state 1\nslot %s\nat %X/%X %llu\n", slot, (unsigned)(at.lsn >> 32),
             (unsigned)at.lsn, (unsigned long long)at.k);
    rc_buf_puts(b, line);
    return rc_isstate_write(st, b, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rc_isstate st;
    rc_isstate_init(&st);
    rc_error err;
    rc_error_clear(&err);
    char slot[64];
    rc_pg_state_pos at;
    if (rc_pg_state_parse((const char *)data, size, slot, sizeof slot, &at, &st, &err) != RC_OK) {
        if (!err.message[0]) abort();
        rc_isstate_fini(&st);
        return 0;
    }
    rc_buf a, b;
    rc_buf_init(&a, 0), rc_buf_init(&b, 0);
    if (file_text(&a, slot, at, &st) != RC_OK) {
        rc_buf_fini(&a), rc_buf_fini(&b);
        rc_isstate_fini(&st);
        return 0;
    }
    rc_isstate again;
    rc_isstate_init(&again);
    char slot2[64];
    rc_pg_state_pos at2;
    if (rc_pg_state_parse(a.data, a.len, slot2, sizeof slot2, &at2, &again, &err) != RC_OK) abort();
    if (file_text(&b, slot2, at2, &again) != RC_OK) abort();
    if (a.len != b.len || memcmp(a.data, b.data, a.len)) abort();
    rc_buf_fini(&a), rc_buf_fini(&b);
    rc_isstate_fini(&again);
    rc_isstate_fini(&st);
    return 0;
}
