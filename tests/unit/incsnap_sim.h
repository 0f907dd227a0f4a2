/* A simulated database for the incremental snapshot core's tests (src/sources/incsnap.h): one
 * table, a commit log that the simulated stream reads in order, and the ops a source gives
 * the core (watermarks written into the log, chunks read from the table as it is at that
 * moment, read rows and edges appended to the consumer's output after the stream's events).
 *
 * Rows are (k1 INT, k2 TEXT of one letter, v INT): the key is k1, or (k1, k2) when
 * `composite`; a keyless table is chunked by pages of `page_rows` physical slots (ctid) and
 * its rows are keyed by their full image. Every change takes v from one clock, so every row
 * version is distinct and orders the changes of a key. */
#ifndef RC_TEST_INCSNAP_SIM_H
#define RC_TEST_INCSNAP_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include "randev.h"
#include "sources/incsnap.h"

#define SIM_TABLE "public.t"

typedef struct sim_row {
    int64_t k1, k2, v;
    bool present;
} sim_row;

/* An entry of the commit log (one transaction) or of the consumer's output. op: 'c' insert,
 * 'u' update, 'd' delete (v: the delete's clock), 't' truncate, 'w' watermark (log only),
 * 'r' read, 'S' / 'E' / 'X' start / end / stopped edge (output only). */
typedef struct sim_ev {
    char op;
    sim_row before, after;
    rc_incsnap_mark mark;
    uint64_t chunk;
} sim_ev;

typedef struct sim {
    bool keyless, composite;
    size_t nslot, page_rows, k2n;
    sim_row *slot; /* keyed: index k1 * k2n + k2; keyless: physical slots */
    sim_ev *log;
    size_t nlog, caplog, rd; /* rd: the stream's next log entry */
    sim_ev *out;
    size_t nout, capout;
    int64_t clock;
    randev_rng rng;
    unsigned inject; /* percent: chance of a change at each point inside a chunk cycle */
    unsigned near;   /* percent of injected changes aimed at the chunk being read */
    rc_incsnap *is;
    rc_error err;
    /* reading later (rc_incsnap_read_later): the chunk's rows are read by sim_read_end */
    bool later;
    const rc_incsnap_table *later_t;
    size_t later_limit;
    bool lazy; /* rows added without their keys (rc_incsnap_add_raw, ops->row_key): sim_lazy */
    bool ordered;       /* each chunk says its images order as its rows (rc_incsnap_set_ordered) */
    uint64_t row_keys;  /* ops->row_key calls */
} sim;

/* A table of nslot keys (keyed: nslot / k2n values of k1) or physical slots (keyless), about
 * `fill` percent present; limits as for rc_incsnap_new. */
void sim_init(sim *s, bool keyless, bool composite, size_t nslot, unsigned fill, uint64_t seed,
              const rc_incsnap_limits *lim);
void sim_fini(sim *s);
/* Right after sim_init, before anything is queued: a keyed table's rows go to the core without
 * their keys (rc_incsnap_add_raw), which asks for them (ops->row_key) only when it needs them. */
void sim_lazy(sim *s, const rc_incsnap_limits *lim);

/* Writer: changes committed to the table and appended to the log. */
void sim_insert(sim *s, size_t i);
void sim_update(sim *s, size_t i, size_t to); /* keyless: the row moves to slot `to` (or stays) */
void sim_delete(sim *s, size_t i);
void sim_truncate(sim *s);
/* A random insert, update or delete, aimed near the chunk cursor `near` percent of the time. */
void sim_random_change(sim *s);

/* With s->later, the read the core's step left for later: the chunk's rows (the table as it is
 * now), then rc_incsnap_read_end. */
void sim_read_end(sim *s);

/* The stream reads one log entry (false when at the end): the change goes to the consumer
 * and to the core, then the core's emit at the transaction's end. */
bool sim_pump(sim *s);
void sim_drain(sim *s);

/* The key (or keyless row) values of a row: k1, [k2,] [v]. */
size_t sim_values(const sim *s, const sim_row *r, rc_value *v, char *k2buf);

/* Replays the output (for a keyless table: from its start edge, as a multiset) and compares it with
 * the table; false with a message on the first difference. */
bool sim_rebuilt(const sim *s, char *why, size_t whyn);
/* Keyless: the copies of row version v the consumer's replay holds. */
int sim_copies(const sim *s, int64_t v);
/* The DBLog property over the output: no read of a key older than (or equal to a delete of)
 * a change emitted before it. */
bool sim_dblog(const sim *s, char *why, size_t whyn);

#endif
