/* --standby (pipeline_impl.h; docs/operations.md, "A standby that takes over"): the run waits as
 * a standby, its /ready and rowcast_role saying so, until Kafka's group gives it the lead of its
 * --server (sinks/kafka_lead.h); only then are the sink (whose init_transactions fences the old
 * leader's producer) and the state opened. */
#include "pipeline_impl.h"
#include "core/log.h"
#include "core/run_state.h"
#include "sinks/kafka_lead.h"

int rc_pipeline_standby(rc_pipeline *c, const rc_options *opts)
{
    rc_run_role_set(RC_ROLE_STANDBY);
    int rc = c->metrics_addr && !c->metrics ? rc_pipeline_metrics_start(c) : RC_EXIT_OK;
    if (rc != RC_EXIT_OK) return rc;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_kafka_lead_open(c->standby, c->server, c->takeover_s, opts, &c->lead, &err);
    if (st == RC_OK) {
        rc_logf("rowcast %s: standby for --server %s: waiting for the lead (group rowcast.standby.%s; a takeover within about "
                "%d s of the active instance's end)\n", c->command, c->server, c->server, c->takeover_s);
        st = rc_kafka_lead_acquire(c->lead, c->stop, &err);
    }
    if (st == RC_SKIP) return 128 + *c->stop; /* stopped while waiting: nothing was read or written */
    if (st != RC_OK) {
        rc_run_state_set(RC_RUN_FAILING);
        rc_pipeline_say(c, "checkpoint", err.message);
        return err.code == RC_ERR_USAGE ? RC_EXIT_USAGE : RC_EXIT_IO;
    }
    rc_logf("rowcast %s: active for --server %s (after %.1f s as a standby)\n", c->command, c->server, rc_kafka_lead_waited(c->lead));
    rc_run_role_set(RC_ROLE_ACTIVE);
    return RC_EXIT_OK;
}
