/* rowcast-kafka-mock: librdkafka's mock Kafka cluster (rdkafka_mock.h) as its own process on
 * loopback ports, so that rowcast and kcat talk to it over TCP exactly as to a real cluster.
 *
 * usage: rowcast-kafka-mock [--brokers N] [--bootstrap-file PATH]
 * Prints the bootstrap string ("127.0.0.1:PORT,...") on stdout and, atomically, into PATH.
 * Then reads commands on stdin, one per line, and answers each with "ok" or "error: ..." on
 * stdout (flushed), so a test knows the fault is in place before it goes on:
 *   topic NAME PARTITIONS          create a topic (replication factor min(3, brokers))
 *   err APIKEY COUNT CODE...       the next COUNT requests of APIKEY (Produce 0, Fetch 1,
 *                                  Metadata 3, InitProducerId 22) fail with the CODEs in
 *                                  turn (COUNT codes; a single CODE repeats)
 *   clear APIKEY                   drop the pending errors of APIKEY
 *   topic-error NAME CODE          topic-level error in Metadata answers (0 clears)
 *   down ID | up ID                take broker ID (1..N) down or bring it back
 *   leader NAME PARTITION ID       move the partition's leader to broker ID
 *   rtt ID MS                      add MS of round-trip time on broker ID
 *   coordinator TYPE KEY ID        broker ID coordinates KEY (TYPE transaction: a
 *                                  transactional.id; group: a consumer group)
 *   hold ID APIKEY MS [CODE]       the next APIKEY request broker ID gets is answered after
 *                                  MS (with CODE, default 0: success); e.g. EndTxn 26, a
 *                                  commit held at the coordinator
 *   held ID APIKEY                 answers "ok N": N of broker ID's held APIKEY requests not
 *                                  arrived yet (0: the request came and is being held)
 * EOF on stdin keeps the cluster running; SIGINT or SIGTERM stops it. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

enum { MAX_CODES = 64 };

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig, stop = 1; }

static int write_file(const char *path, const char *text)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) return -1;
    fprintf(f, "%s\n", text);
    if (fclose(f) != 0) return -1;
    return rename(tmp, path);
}

/* Runs one command line; returns NULL or an error text; `answer` may be set to what follows
 * "ok". */
static const char *run(rd_kafka_mock_cluster_t *mc, int brokers, char *line, char *answer, size_t answer_size)
{
    char *argv[MAX_CODES + 4];
    int argc = 0;
    for (char *t = strtok(line, " \t\r\n"); t && argc < MAX_CODES + 4; t = strtok(NULL, " \t\r\n")) argv[argc++] = t;
    if (argc == 0) return NULL;
    const char *cmd = argv[0];
    if (!strcmp(cmd, "topic") && argc == 3) {
        rd_kafka_resp_err_t e = rd_kafka_mock_topic_create(mc, argv[1], atoi(argv[2]), brokers < 3 ? brokers : 3);
        return e ? rd_kafka_err2str(e) : NULL;
    }
    if (!strcmp(cmd, "err") && argc >= 4) {
        int n = atoi(argv[2]);
        if (n <= 0 || n > 1000000) return "COUNT must be 1..1000000";
        rd_kafka_resp_err_t *codes = calloc((size_t)n, sizeof *codes);
        if (!codes) return "out of memory";
        for (int k = 0; k < n; k++) codes[k] = (rd_kafka_resp_err_t)atoi(argv[3 + (argc - 3 == 1 ? 0 : k % (argc - 3))]);
        rd_kafka_mock_push_request_errors_array(mc, (int16_t)atoi(argv[1]), (size_t)n, codes);
        free(codes);
        return NULL;
    }
    if (!strcmp(cmd, "clear") && argc == 2) {
        rd_kafka_mock_clear_request_errors(mc, (int16_t)atoi(argv[1]));
        return NULL;
    }
    if (!strcmp(cmd, "topic-error") && argc == 3) {
        rd_kafka_mock_topic_set_error(mc, argv[1], (rd_kafka_resp_err_t)atoi(argv[2]));
        return NULL;
    }
    if ((!strcmp(cmd, "down") || !strcmp(cmd, "up")) && argc == 2) {
        rd_kafka_resp_err_t e = cmd[0] == 'd' ? rd_kafka_mock_broker_set_down(mc, atoi(argv[1]))
                                              : rd_kafka_mock_broker_set_up(mc, atoi(argv[1]));
        return e ? rd_kafka_err2str(e) : NULL;
    }
    if (!strcmp(cmd, "leader") && argc == 4) {
        rd_kafka_resp_err_t e = rd_kafka_mock_partition_set_leader(mc, argv[1], atoi(argv[2]), atoi(argv[3]));
        return e ? rd_kafka_err2str(e) : NULL;
    }
    if (!strcmp(cmd, "rtt") && argc == 3) {
        rd_kafka_resp_err_t e = rd_kafka_mock_broker_set_rtt(mc, atoi(argv[1]), atoi(argv[2]));
        return e ? rd_kafka_err2str(e) : NULL;
    }
    if (!strcmp(cmd, "coordinator") && argc == 4) {
        rd_kafka_resp_err_t e = rd_kafka_mock_coordinator_set(mc, argv[1], argv[2], atoi(argv[3]));
        return e ? rd_kafka_err2str(e) : NULL;
    }
    if (!strcmp(cmd, "hold") && (argc == 4 || argc == 5)) {
        rd_kafka_resp_err_t e = rd_kafka_mock_broker_push_request_error_rtts(
            mc, atoi(argv[1]), (int16_t)atoi(argv[2]), 1, (rd_kafka_resp_err_t)(argc == 5 ? atoi(argv[4]) : 0), atoi(argv[3]));
        return e ? rd_kafka_err2str(e) : NULL;
    }
    if (!strcmp(cmd, "held") && argc == 3) {
        size_t cnt = 0;
        rd_kafka_resp_err_t e = rd_kafka_mock_broker_error_stack_cnt(mc, atoi(argv[1]), (int16_t)atoi(argv[2]), &cnt);
        if (e) return rd_kafka_err2str(e);
        snprintf(answer, answer_size, " %zu", cnt);
        return NULL;
    }
    return "unknown command or wrong number of arguments (see the comment at the top of tools/kafka_mock.c)";
}

int main(int argc, char **argv)
{
    int brokers = 3;
    const char *bootstrap_file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--brokers") && i + 1 < argc) brokers = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bootstrap-file") && i + 1 < argc) bootstrap_file = argv[++i];
        else {
            fprintf(stderr, "usage: rowcast-kafka-mock [--brokers N] [--bootstrap-file PATH]\n");
            return 64;
        }
    }
    if (brokers < 1 || brokers > 16) {
        fprintf(stderr, "rowcast-kafka-mock: --brokers must be 1..16\n");
        return 64;
    }
    char errstr[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof errstr);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
    if (!rk) {
        fprintf(stderr, "rowcast-kafka-mock: %s\n", errstr);
        return 1;
    }
    rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(rk, brokers);
    if (!mc) {
        fprintf(stderr, "rowcast-kafka-mock: cannot create the mock cluster\n");
        rd_kafka_destroy(rk);
        return 1;
    }
    const char *bs = rd_kafka_mock_cluster_bootstraps(mc);
    if (bootstrap_file && write_file(bootstrap_file, bs) != 0) {
        fprintf(stderr, "rowcast-kafka-mock: writing %s: %s\n", bootstrap_file, strerror(errno));
        rd_kafka_mock_cluster_destroy(mc);
        rd_kafka_destroy(rk);
        return 1;
    }
    printf("%s\n", bs);
    fflush(stdout);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: a signal interrupts the blocking read */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    char line[8192];
    while (!stop && fgets(line, sizeof line, stdin)) {
        char answer[64] = "";
        const char *e = run(mc, brokers, line, answer, sizeof answer);
        if (e) printf("error: %s\n", e);
        else printf("ok%s\n", answer);
        fflush(stdout);
    }
    while (!stop) { /* not pause(): a signal between the test and the call would be lost */
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    rd_kafka_mock_cluster_destroy(mc);
    rd_kafka_destroy(rk);
    return 0;
}
