/* The writing thread of a file or stdout sink. The sink copies each record's bytes into four
 * 256 KiB buffers (1 MiB in all, as the stdio buffer before); the thread
 * writes full buffers and a second one fsyncs a file when asked, so that the copy into the page
 * cache and the write-back run beside the encoder, and the writing beside the write-back,
 * instead of one after the other (for a 4 KB upstream Debezium
 * message with its schema they cost half as much CPU as encoding it). Memory is bounded: when
 * every buffer is waiting to be written, the sink waits for one.
 *
 * Acknowledgement: the sink says after each record how many records are wholly put; a buffer
 * handed over carries that count, and the thread reports the count durable once the fsync that
 * followed the write of its buffer returned (stdout, which is not synchronized: once written).
 * Nothing is reported durable before its fsync; an error (of write or fsync) stops all later
 * reports, and the sink sees it at its next hand-over (the first buffer's at once: it is
 * written before the sink goes on). */
#ifndef ROWCAST_SINKS_FILE_WRITER_H
#define ROWCAST_SINKS_FILE_WRITER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "rowcast/error.h"

enum { RC_FW_BUF = 1 << 18, RC_FW_NBUF = 8 };

typedef struct rc_fw_buf {
    char *data;
    size_t len, cap; /* cap: RC_FW_BUF, or a given buffer's (rc_fw_give) */
    uint64_t records; /* records wholly in this buffer or earlier ones */
} rc_fw_buf;

typedef struct rc_file_writer {
    int fd;
    bool durable;                 /* fsync before a record counts as durable */
    pthread_t thread, syncer;     /* the writing thread; the syncing one (durable only) */
    pthread_mutex_t mu;
    pthread_cond_t work, done;    /* the writer has work; a buffer or a sync is done */
    pthread_cond_t sync_work;     /* the syncer may have work */
    rc_fw_buf bufs[RC_FW_NBUF];   /* a ring: [written, filled) wait for the thread, filled is the sink's */
    uint64_t written, filled;     /* buffer numbers; the thread owns written until it is written */
    /* the sink's side, without the lock */
    char *cur;                    /* bufs[filled % RC_FW_NBUF].data */
    size_t len, cap;              /* bytes in cur, and its size */
    uint64_t records;             /* records wholly put */
    uint64_t handed;              /* records wholly in the buffers handed over */
    int seen_err;                 /* the thread's error, as of the last hand-over */
    /* under mu */
    uint64_t rec_written, sync_want, synced;
    int err;                      /* errno of the first failed write or fsync; 0 */
    bool err_in_sync;             /* that failure was the fsync's; set with err, never changed
                                   * after, so the sink may read it unlocked once it saw err */
    bool quit;
} rc_file_writer;

/* Starts the thread for `fd` (a file open for appending: `durable`), which errors name as
 * `what` (the file's path, or "stdout"). */
rc_status rc_fw_start(rc_file_writer *w, int fd, bool durable, const char *what, rc_error *err);
/* Hands the current buffer over, then waits for a free one; the slow path of rc_fw_put. */
void rc_fw_next(rc_file_writer *w);

static inline void rc_fw_put(rc_file_writer *w, const void *p, size_t n)
{
    while (n > w->cap - w->len) {
        size_t k = w->cap - w->len;
        memcpy(w->cur + w->len, p, k);
        w->len += k, p = (const char *)p + k, n -= k;
        rc_fw_next(w);
    }
    memcpy(w->cur + w->len, p, n);
    w->len += n;
}

/* Hands the caller's buffer (*data, len bytes of *cap, malloc'd) to the thread as it is, after
 * what was put before, and gives the caller a free buffer in exchange (*data, *cap): a large
 * block of records is written without being copied. `records`: the records wholly put once it
 * is in. */
void rc_fw_give(rc_file_writer *w, char **data, size_t *cap, size_t len, uint64_t records);
/* Hands the current buffer over when the thread has nothing else to write (the input is idle:
 * what was put shows in the file soon), and asks for an fsync of every record put when `sync`;
 * does not wait. Returns the records made durable so far, and sets *err to the thread's error. */
uint64_t rc_fw_push(rc_file_writer *w, bool sync, int *err);
/* Writes and fsyncs every record put and waits for it; 0 or the errno of the failure. */
int rc_fw_wait(rc_file_writer *w);
/* Writes what is left (no fsync) and stops the thread; 0 or an errno. */
int rc_fw_stop(rc_file_writer *w);

#endif
