/* The --checkpoint file of `convert`: which input, and the byte offset and line number up to
 * which every message is acknowledged by the sink. Written to PATH.tmp, then renamed over PATH,
 * so a reader sees the old or the new checkpoint, never a torn one. */
#ifndef RC_CLI_CHECKPOINT_H
#define RC_CLI_CHECKPOINT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct checkpoint {
    char input[4096];
    uint64_t offset, line;
} checkpoint;

/* 1 read, 0 no file, -1 unreadable (message on stderr). */
int checkpoint_read(const char *path, checkpoint *ck);
/* 0 written, -1 failed (message on stderr). `sync`: fsync the file before the rename. */
int checkpoint_write(const char *path, const checkpoint *ck, bool sync);

#endif
