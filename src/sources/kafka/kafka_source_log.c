/* librdkafka's log lines of the Kafka source's consumer through rc_logf (served on the
 * pipeline's thread: log.queue), each said once: the same facility and text again (a broker
 * reconnecting every second, a commit refused at every rebalance) adds nothing. What varies
 * within a line, its "(after 1234ms in state ...)" tail, is left out of what is compared. */
#include <string.h>
#include "core/hash.h"
#include "core/log.h"
#include "sources/kafka/kafka_source_int.h"

void rc_ksrc_on_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
    kafka_source *k = rd_kafka_opaque(rk);
    const char *thread_end = !strncmp(buf, "[thrd:", 6) ? strstr(buf, "]: ") : NULL;
    const char *text = thread_end ? thread_end + 3 : buf; /* librdkafka's thread: not for users */
    const char *tail = strstr(text, " (after ");
    size_t n = tail ? (size_t)(tail - text) : strlen(text);
    if (!k) return;
    uint64_t h = rc_hash64(text, n, rc_hash64(fac, strlen(fac), 0));
    size_t i = 0;
    while (i < k->nlogged && k->logged[i] != h) i++;
    if (level < 7 && i < k->nlogged) return; /* debug lines (-o kafka.debug=...) are asked for: all shown */
    if (i == k->nlogged && k->nlogged < KAFKA_LOGGED) k->logged[k->nlogged++] = h;
    else if (level < 7 && i == KAFKA_LOGGED) return; /* past that many distinct lines, nothing new is worth more */
    rc_logf("rowcast: %s: librdkafka %s: %.*s\n", k->shown, fac, (int)n, text);
}
