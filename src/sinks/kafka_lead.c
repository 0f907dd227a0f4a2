/* The lead of a --server through Kafka's group membership (kafka_lead.h). */
#include "sinks/kafka_lead.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <librdkafka/rdkafka.h>
#include "core/log.h"
#include "core/run_state.h"
#include "sinks/kafka_state.h"

struct rc_kafka_lead {
    rd_kafka_t *rk;
    char *topic, *server;
    long long session_us, renew_us, began_us, led_us;
    _Atomic int assigned; /* partition 0 of the topic is this member's */
    _Atomic int leading;  /* acquired: a revoke of partition 0 now loses the lead */
    _Atomic int quit;
    bool debug;           /* -o kafka.debug=...: librdkafka's debug lines are said too */
    _Atomic int steady;   /* librdkafka's last statistics: the group's join state is steady (no rebalance) */
    bool thread_on;
    pthread_t thread;
    char failed[512]; /* an error the group reported while waiting (a missing topic) */
};

static bool cooperative(rd_kafka_t *rk)
{
    const char *p = rd_kafka_rebalance_protocol(rk);
    return p && !strcmp(p, "COOPERATIVE");
}

/* On the thread that polls: takes what the group gives, and notes when partition 0 comes or goes. */
static void on_rebalance(rd_kafka_t *rk, rd_kafka_resp_err_t e, rd_kafka_topic_partition_list_t *parts, void *opaque)
{
    rc_kafka_lead *l = opaque;
    bool has0 = rd_kafka_topic_partition_list_find(parts, l->topic, 0) != NULL;
    if (e == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
        for (int i = 0; i < parts->cnt; i++) parts->elems[i].offset = RD_KAFKA_OFFSET_END; /* its records are not read */
        if (cooperative(rk)) {
            rd_kafka_error_t *x = rd_kafka_incremental_assign(rk, parts);
            if (x) rd_kafka_error_destroy(x);
        } else {
            rd_kafka_assign(rk, parts);
        }
        if (has0) atomic_store(&l->assigned, 1);
        return;
    }
    /* a leader that loses partition 0 never leads again in this run: what it read and wrote is
     * in memory, and a new lead must start from the state and the tail reads (a restart) */
    if (has0) {
        atomic_store(&l->assigned, 0);
        if (atomic_load(&l->leading))
            rc_run_lead_lose(rd_kafka_assignment_lost(rk) ? "the group coordinator expired this member: no heartbeat within its session"
                                                          : "the group gave the lead to another member");
    }
    if (cooperative(rk)) {
        rd_kafka_error_t *x = rd_kafka_incremental_unassign(rk, parts);
        if (x) rd_kafka_error_destroy(x);
    } else {
        rd_kafka_assign(rk, NULL);
    }
}

/* librdkafka's statistics (on the thread that polls): whether the member is in a rebalance. An
 * offset commit then carries the old generation, and the coordinator's refusal makes librdkafka
 * drop the assignment: commits wait for the steady state. */
static int on_stats(rd_kafka_t *rk, char *json, size_t len, void *opaque)
{
    (void)rk, (void)len;
    rc_kafka_lead *l = opaque;
    const char *g = strstr(json, "\"cgrp\"");
    const char *j = g ? strstr(g, "\"join_state\":") : NULL;
    if (j) j += strspn(j + 13, " ") + 13;
    atomic_store(&l->steady, j && !strncmp(j, "\"steady\"", 8));
    return 0; /* librdkafka frees json */
}

/* One offset commit of this member, awaited: accepted, the lease runs until half a session after
 * it was sent. A coordinator that no longer knows the member (or its generation) ends the lead. */
static bool renew(rc_kafka_lead *l)
{
    if (!atomic_load(&l->steady)) return false;
    long long sent = rc_run_now_us();
    rd_kafka_topic_partition_list_t *o = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(o, l->topic, 0)->offset = 0;
    rd_kafka_resp_err_t e = rd_kafka_commit(l->rk, o, 0);
    if (!e && o->elems[0].err) e = o->elems[0].err;
    rd_kafka_topic_partition_list_destroy(o);
    if (!e && atomic_load(&l->assigned)) {
        rc_run_lead_renew(sent + l->session_us / 2);
        return true;
    }
    /* ILLEGAL_GENERATION and REBALANCE_IN_PROGRESS come while a member joins: not renewed, no loss */
    if (atomic_load(&l->leading) && (e == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID || e == RD_KAFKA_RESP_ERR_FENCED_INSTANCE_ID)) {
        char why[256];
        snprintf(why, sizeof why, "the group coordinator no longer knows this member (%s)", rd_kafka_err2name(e));
        rc_run_lead_lose(why);
    }
    return false;
}

/* Serves the group for a while: rebalances, errors (kept in l->failed while waiting). */
static void serve(rc_kafka_lead *l, int ms)
{
    rd_kafka_message_t *m = rd_kafka_consumer_poll(l->rk, ms);
    if (!m) return;
    if (m->err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART || m->err == RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC)
        snprintf(l->failed, sizeof l->failed,
                 "--standby: the state topic %s does not exist; create it (one partition, cleanup.policy=compact)", l->topic);
    rd_kafka_message_destroy(m);
}

/* librdkafka's warnings and errors (the session that timed out, a broker gone) in rowcast's log;
 * everything with -o kafka.debug */
static void on_log(const rd_kafka_t *rk, int level, const char *fac, const char *text)
{
    if (!strcmp(fac, "CONFWARN")) return; /* the run's producer properties, which this consumer ignores */
    if (level <= 4 || rd_kafka_opaque(rk) == NULL || ((rc_kafka_lead *)rd_kafka_opaque(rk))->debug) rc_logf("rowcast: --standby: kafka: %s: %s\n", fac, text);
}

static void *keep(void *arg)
{
    rc_kafka_lead *l = arg;
    long long next = rc_run_now_us() + l->renew_us;
    while (!atomic_load(&l->quit)) {
        serve(l, 50);
        if (rc_run_now_us() >= next) {
            renew(l);
            next = rc_run_now_us() + l->renew_us;
        }
    }
    return NULL;
}

rc_status rc_kafka_lead_open(const char *rest, const char *server, int takeover_s, const rc_options *opts, rc_kafka_lead **out,
                             rc_error *err)
{
    const char *slash = strchr(rest, '/');
    if (!slash || slash == rest || !slash[1])
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--standby: kafka://%s is no kafka://HOST:PORT/TOPIC", rest);
    rc_kafka_lead *l = calloc(1, sizeof *l);
    char *hosts = strndup(rest, (size_t)(slash - rest));
    if (!l || !hosts || !(l->topic = strdup(slash + 1)) || !(l->server = strdup(server))) {
        free(hosts);
        rc_kafka_lead_close(l);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    l->session_us = 300000LL * takeover_s;
    l->debug = opts && rc_options_get(opts, "kafka.debug");
    l->renew_us = l->session_us / 10;
    char group[600], session[24], heartbeat[24], stats[24], where[600];
    snprintf(group, sizeof group, "rowcast.standby.%s", server);
    snprintf(session, sizeof session, "%lld", l->session_us / 1000);
    snprintf(heartbeat, sizeof heartbeat, "%lld", l->session_us / 10000 > 0 ? l->session_us / 10000 : 1);
    snprintf(stats, sizeof stats, "%lld", l->renew_us / 1000 > 100 ? l->renew_us / 1000 : 100);
    snprintf(where, sizeof where, "kafka://%s", rest);
    const char *const fixed[] = {"group.id", group, "session.timeout.ms", session, "heartbeat.interval.ms", heartbeat,
                                 "partition.assignment.strategy", "cooperative-sticky", "enable.auto.commit", "false",
                                 "enable.auto.offset.store", "false", "auto.offset.reset", "latest", "statistics.interval.ms", stats,
                                 NULL};
    rd_kafka_conf_t *conf;
    rc_status st = rc_kafka_conf_new(hosts, opts, RD_KAFKA_CONSUMER, fixed, "--standby", where, &conf, err);
    free(hosts);
    if (st == RC_OK) {
        rd_kafka_conf_set_rebalance_cb(conf, on_rebalance);
        rd_kafka_conf_set_log_cb(conf, on_log);
        rd_kafka_conf_set_stats_cb(conf, on_stats);
        rd_kafka_conf_set_opaque(conf, l);
        char errstr[512];
        if (!(l->rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr))) {
            rd_kafka_conf_destroy(conf);
            st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--standby %s: %s", where, errstr);
        }
    }
    if (st != RC_OK) {
        rc_kafka_lead_close(l);
        return st;
    }
    rd_kafka_poll_set_consumer(l->rk);
    *out = l;
    return RC_OK;
}

rc_status rc_kafka_lead_acquire(rc_kafka_lead *l, volatile sig_atomic_t *stop, rc_error *err)
{
    l->began_us = rc_run_now_us();
    rd_kafka_topic_partition_list_t *sub = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(sub, l->topic, RD_KAFKA_PARTITION_UA);
    rd_kafka_resp_err_t e = rd_kafka_subscribe(l->rk, sub);
    rd_kafka_topic_partition_list_destroy(sub);
    if (e) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "--standby: joining the group: %s", rd_kafka_err2str(e));
    rc_run_lead_begin(2 * l->session_us, stop);
    /* assigned and renewed once, then again half a session later: by then a previous leader's
     * lease (half a session from its last renewal, which came before this assignment) lapsed */
    long long wait_until = 0;
    for (;;) {
        if (stop && *stop) return RC_SKIP;
        serve(l, 100);
        if (l->failed[0]) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s", l->failed);
        if (!atomic_load(&l->assigned)) wait_until = 0;
        else if (!wait_until) wait_until = renew(l) ? rc_run_now_us() + l->session_us / 2 : 0;
        else if (rc_run_now_us() >= wait_until && renew(l)) break;
    }
    l->led_us = rc_run_now_us();
    atomic_store(&l->leading, 1);
    if (pthread_create(&l->thread, NULL, keep, l) != 0)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "--standby: cannot start the thread that keeps the lead");
    l->thread_on = true;
    return RC_OK;
}

double rc_kafka_lead_waited(const rc_kafka_lead *l)
{
    return (double)(l->led_us - l->began_us) / 1e6;
}

void rc_kafka_lead_close(rc_kafka_lead *l)
{
    if (!l) return;
    atomic_store(&l->quit, 1);
    if (l->thread_on) pthread_join(l->thread, NULL);
    if (l->rk) {
        atomic_store(&l->leading, 0); /* leaving is no loss */
        rd_kafka_consumer_close(l->rk);
        rd_kafka_destroy(l->rk);
    }
    free(l->topic), free(l->server), free(l);
}
