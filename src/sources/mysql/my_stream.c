/* The binlog stream (my_stream.h): a reader thread per connection, a byte-bounded queue. */
#include "sources/mysql/my_stream.h"
#include "sources/mysql/my_event.h"
#include "core/thread.h"
#include <errno.h>
#include <mariadb_rpl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

enum { QUEUE_BYTES = 8 << 20 }; /* events held between the thread and the source, at most (one may be larger) */

typedef struct node {
    struct node *next;
    size_t n;
    bool summed;
    uint32_t sum; /* the CRC32 of data[0..n-4), when summed */
    uint8_t data[];
} node;

struct rc_my_stream {
    MYSQL *m;
    MARIADB_RPL *rpl;
    const rc_my_url *u;
    pthread_t thread;
    bool started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    node *head, *tail;
    size_t bytes;
    bool stop, ended;    /* the source closes; the thread ended (error below) */
    bool full;           /* the thread waits for room: woken once half the queue is free */
    unsigned server_errno;
    rc_status end_code;
    char end_msg[1200];
    node *given;         /* the event handed out last, freed at the next call */
};

/* The event's header starts at `raw` when its length field says the whole buffer; libmariadb
 * versions differ in whether the packet's leading OK byte is kept. */
static const uint8_t *frame(const MARIADB_RPL_EVENT *ev, size_t *n)
{
    const uint8_t *p = ev->raw_data;
    size_t len = ev->raw_data_size;
    for (int skip = 0; skip < 2 && len >= 19; skip++, p++, len--) {
        uint32_t size = (uint32_t)p[9] | (uint32_t)p[10] << 8 | (uint32_t)p[11] << 16 | (uint32_t)p[12] << 24;
        if (size == len) {
            *n = len;
            return p;
        }
    }
    *n = ev->raw_data_size;
    return ev->raw_data;
}

/* The CRC32 of the event without its last four bytes, on the reader's thread: per-event byte
 * work that needs no decoder state, done while the pipeline decodes the events before it.
 * Every event is summed until a FORMAT_DESCRIPTION says the stream has no checksums (the
 * server's first, artificial ROTATE comes before it and carries one). */
static void sum_event(node *nd, bool *sums) { nd->summed = rc_my_event_sum(nd->data, nd->n, sums, &nd->sum); }

static void *reader(void *arg)
{
    rc_my_stream *s = arg;
    MARIADB_RPL_EVENT *ev = NULL;
    bool sums = true;
    for (;;) {
        ev = mariadb_rpl_fetch(s->rpl, ev);
        pthread_mutex_lock(&s->mu);
        if (s->stop) break;
        if (!ev) {
            unsigned e = mysql_errno(s->m);
            s->server_errno = e;
            s->end_code = rc_my_errno_lost(e) || !e ? RC_ERR_RETRY : RC_ERR_IO;
            snprintf(s->end_msg, sizeof s->end_msg, "binlog stream from %s: error %u: %s", s->u->shown, e,
                     e ? mysql_error(s->m) : mariadb_rpl_error(s->rpl));
            break;
        }
        pthread_mutex_unlock(&s->mu);
        size_t n;
        const uint8_t *p = frame(ev, &n);
        node *nd = malloc(sizeof *nd + n);
        if (nd) {
            memcpy(nd->data, p, n);
            nd->n = n, nd->next = NULL;
            sum_event(nd, &sums);
        }
        pthread_mutex_lock(&s->mu);
        if (!nd) {
            s->end_code = RC_ERR_NOMEM;
            snprintf(s->end_msg, sizeof s->end_msg, "out of memory");
            break;
        }
        /* a full queue waits until half of it was taken: woken for every event taken, the thread
         * (which reads faster than events are decoded) slept and woke once an event */
        while (!s->stop && s->bytes && s->bytes + n > QUEUE_BYTES) {
            s->full = true;
            pthread_cond_wait(&s->cv, &s->mu);
        }
        s->full = false;
        if (s->stop) {
            free(nd);
            break;
        }
        if (s->tail) s->tail->next = nd;
        else s->head = nd;
        s->tail = nd;
        s->bytes += n;
        pthread_cond_broadcast(&s->cv);
        pthread_mutex_unlock(&s->mu);
    }
    s->ended = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    if (ev) mariadb_free_rpl_event(ev);
    return NULL;
}

/* The session variables of a replica, before the dump request. */
static rc_status replica_session(rc_my_stream *s, const rc_my_stream_start *st, rc_error *err)
{
    char sql[1400];
    unsigned long long hb_ns = (unsigned long long)(st->heartbeat_s * 1e9);
    snprintf(sql, sizeof sql,
             "SET @master_binlog_checksum = @@global.binlog_checksum, @source_binlog_checksum = @@global.binlog_checksum, "
             "@mariadb_slave_capability = 4, @master_heartbeat_period = %llu",
             hb_ns);
    if (rc_my_exec(s->m, s->u, sql, err) != RC_OK) return err->code;
    if (st->gtids && st->gtids[0]) {
        char esc[1000];
        size_t n = strlen(st->gtids);
        if (2 * n + 1 > sizeof esc) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "GTID position too long: %.40s...", st->gtids);
        mysql_real_escape_string(s->m, esc, st->gtids, (unsigned long)n);
        snprintf(sql, sizeof sql, "SET @slave_connect_state = '%s', @slave_gtid_strict_mode = 0, @slave_gtid_ignore_duplicates = 0", esc);
        if (rc_my_exec(s->m, s->u, sql, err) != RC_OK) return err->code;
    }
    return RC_OK;
}

rc_status rc_my_stream_open(const rc_my_url *u, const rc_my_stream_start *st, rc_my_stream **out, rc_error *err)
{
    *out = NULL;
    rc_my_stream *s = calloc(1, sizeof *s);
    if (!s) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    s->u = u;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    rc_status r = rc_my_connect(u, &s->m, err);
    if (r == RC_OK) r = replica_session(s, st, err);
    if (r == RC_OK && !(s->rpl = mariadb_rpl_init(s->m))) r = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (r == RC_OK) {
        const char *file = st->gtids && st->gtids[0] ? "" : st->file;
        unsigned long pos = (unsigned long)(st->gtids && st->gtids[0] ? 4 : st->offset);
        mariadb_rpl_optionsv(s->rpl, MARIADB_RPL_SERVER_ID, st->server_id);
        mariadb_rpl_optionsv(s->rpl, MARIADB_RPL_FILENAME, file, strlen(file));
        mariadb_rpl_optionsv(s->rpl, MARIADB_RPL_START, pos);
        mariadb_rpl_optionsv(s->rpl, MARIADB_RPL_FLAGS, (unsigned)MARIADB_RPL_BINLOG_SEND_ANNOTATE_ROWS);
        if (mariadb_rpl_open(s->rpl)) r = rc_my_fail(s->m, u, "the binlog dump request", err);
    }
    /* signals go to the pipeline's thread; close stops the reader by shutting its socket */
    if (r == RC_OK) r = rc_thread_start(&s->thread, reader, s, 0, err, "cannot start the binlog reader thread");
    if (r != RC_OK) {
        rc_my_stream_close(s);
        return r;
    }
    s->started = true;
    *out = s;
    return RC_OK;
}

rc_status rc_my_stream_next(rc_my_stream *s, int timeout_ms, rc_my_raw_event *ev, bool *got, unsigned *server_errno,
                            rc_error *err)
{
    *got = false;
    *server_errno = 0;
    pthread_mutex_lock(&s->mu);
    free(s->given);
    s->given = NULL;
    if (!s->head && !s->ended && timeout_ms > 0) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += timeout_ms / 1000;
        until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        while (!s->head && !s->ended)
            if (pthread_cond_timedwait(&s->cv, &s->mu, &until) == ETIMEDOUT) break;
    }
    node *nd = s->head;
    if (nd) {
        s->head = nd->next;
        if (!s->head) s->tail = NULL;
        s->bytes -= nd->n;
        if (s->full && s->bytes <= QUEUE_BYTES / 2) pthread_cond_broadcast(&s->cv);
    }
    bool ended = s->ended;
    pthread_mutex_unlock(&s->mu);
    if (nd) {
        s->given = nd;
        const uint8_t *p = nd->data;
        *ev = (rc_my_raw_event){.data = p, .n = nd->n, .type = nd->n >= 19 ? p[4] : 0, .summed = nd->summed, .sum = nd->sum,
                                .log_pos = nd->n >= 19 ? ((uint64_t)p[13] | (uint64_t)p[14] << 8 | (uint64_t)p[15] << 16 | (uint64_t)p[16] << 24) : 0};
        *got = true;
        return RC_OK;
    }
    if (!ended) return RC_OK;
    *server_errno = s->server_errno;
    return rc_error_set(err, s->end_code ? s->end_code : RC_ERR_RETRY, RC_NO_OFFSET, "%s", s->end_msg);
}

void rc_my_stream_close(rc_my_stream *s)
{
    if (!s) return;
    if (s->started) {
        rc_thread_tell_stop(&s->mu, &s->cv, &s->stop);
        /* wakes a fetch blocked on the socket */
        my_socket fd = mysql_get_socket(s->m);
        if (fd >= 0) shutdown(fd, SHUT_RDWR);
        pthread_join(s->thread, NULL);
    }
    if (s->rpl) mariadb_rpl_close(s->rpl);
    if (s->m) mysql_close(s->m);
    for (node *n = s->head, *next; n; n = next) next = n->next, free(n);
    free(s->given);
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
}
