/* A continuous writer for the incremental-snapshot tests (issue 24): on PostgreSQL or
 * MySQL/MariaDB, a table (id bigint [, k2 bigint], v bigint, pad text) loaded with N rows,
 * then INSERT/UPDATE/DELETE on random keys at a given rate. Every statement takes v from one
 * increasing counter, so each change of a key carries a larger v than the one before it: what
 * tests/tools/dblog_check.awk relies on.
 *
 * usage: bf_writer URL [OPTIONS]      URL: postgres://... (libpq) or mysql://USER[:PASS]@HOST:PORT[/DB]
 *   --table NAME         the table (default t; DB.NAME or SCHEMA.NAME as the server takes it)
 *   --key pk|composite|unique|none
 *                        pk: PRIMARY KEY (id) (default); composite: PRIMARY KEY (id, k2), four
 *                        k2 values per id; unique: no primary key, a UNIQUE index on id NOT NULL
 *                        (PostgreSQL: the replica identity); none: no key (PostgreSQL: replica
 *                        identity FULL)
 *   --rows N             drop and create the table, load N rows (key numbers 1..N); without
 *                        it the table is there and its keys are read first
 *   --keys K             the changes' key numbers are 1..K (default N + N/8, with --rows 0 the
 *                        largest key there + 1/8)
 *   --count C            stop after C changes (0: load only)
 *   --duration SECS      stop after SECS seconds (default: run until SIGTERM or SIGINT)
 *   --rate R             R changes a second (default 0: as fast as the server takes them)
 *   --bias LO:HI[:PCT]   PCT percent (default 50) of the changes on key numbers LO..HI
 *   --bias-file PATH     the same, read from PATH (one line LO:HI[:PCT]) before the first change
 *                        and again every 0.2 s: a test moves the bias as it learns which keys
 *                        are being read (a missing or bad file: no bias until it is good)
 *   --batch B            B changes a transaction (default 1)
 *   --pad BYTES          the pad column's length (default 32, random lowercase letters)
 *   --seed S             the random sequence (default 1)
 *   --v-from V           the counter's start (default: the time in microseconds, so that a
 *                        later run's v are larger than an earlier run's)
 * A key that is there is updated (3 in 4) or deleted; one that is not is inserted. SIGTERM or
 * SIGINT ends the run after the statement in progress, committing the open transaction. On
 * exit one line on stderr: the changes made and the last v. Exit 0, or 1 on a server error
 * (the statement and the server's message on stderr), 2 on bad usage. */
#include <errno.h>
#include <inttypes.h>
#include <libpq-fe.h>
#include <mysql.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define K2_PER_ID 4

typedef struct {
    const char *url, *table, *key, *bias_file;
    long long rows, keys, count, lo, hi;
    double duration, rate;
    int pct, batch, pad;
    uint64_t seed;
    int64_t v_from;
} writer_opts;

typedef struct {
    PGconn *pg;
    MYSQL *my;
} writer_conn;

static volatile sig_atomic_t stopping;

static void on_signal(int sig) { stopping = sig; }

static void no_notice(void *arg, const char *msg) {}

static void usage(const char *msg)
{
    fprintf(stderr, "bf_writer: %s\nusage: bf_writer URL [--table T] [--key pk|composite|unique|none] [--rows N] [--keys K]\n"
                    "  [--count C] [--duration S] [--rate R] [--bias LO:HI[:PCT] | --bias-file PATH] [--batch B] [--pad N] [--seed S] [--v-from V]\n",
            msg);
    exit(2);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* splitmix64: a whole sequence from one seed */
static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* the SQL being built: grows as needed, dies when memory runs out (a test tool) */
typedef struct {
    char *p;
    size_t len, cap;
} sqlbuf;

static void sql_add(sqlbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < b->cap - b->len) {
            b->len += (size_t)n;
            return;
        }
        b->cap = b->cap * 2 + (size_t)n + 64;
        if (!(b->p = realloc(b->p, b->cap))) {
            fprintf(stderr, "bf_writer: out of memory\n");
            exit(1);
        }
    }
}

static void sql_reset(sqlbuf *b)
{
    b->len = 0;
    sql_add(b, "%s", "");
}

/* runs sql; on an error prints it with the statement's head and exits 1 */
static void run(writer_conn *c, const char *sql)
{
    const char *err = NULL;
    if (c->pg) {
        PGresult *r = PQexec(c->pg, sql);
        ExecStatusType st = PQresultStatus(r);
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) err = PQerrorMessage(c->pg);
        PQclear(r);
    } else if (mysql_query(c->my, sql) != 0) {
        err = mysql_error(c->my);
    } else {
        MYSQL_RES *r = mysql_store_result(c->my);
        if (r) mysql_free_result(r);
    }
    if (err) {
        fprintf(stderr, "bf_writer: %.200s: %s\n", sql, err);
        exit(1);
    }
}

/* mysql://USER[:PASS]@HOST[:PORT][/DB] */
static MYSQL *my_connect(const char *url)
{
    char buf[512], *user, *pass = NULL, *host, *db = NULL, *p;
    unsigned port = 3306;
    const char *rest = strstr(url, "://");
    if (!rest || strlen(rest + 3) >= sizeof buf) usage("a mysql:// URL: mysql://USER[:PASS]@HOST:PORT[/DB]");
    strcpy(buf, rest + 3);
    user = buf;
    if (!(host = strchr(buf, '@'))) usage("a mysql:// URL names its user: mysql://USER@HOST:PORT");
    *host++ = 0;
    if ((p = strchr(user, ':'))) *p = 0, pass = p + 1;
    if ((p = strchr(host, '/'))) *p = 0, db = *(p + 1) ? p + 1 : NULL;
    if ((p = strchr(host, '?'))) *p = 0;
    if ((p = strchr(host, ':'))) *p = 0, port = (unsigned)atoi(p + 1);
    MYSQL *my = mysql_init(NULL);
    if (!my || !mysql_real_connect(my, host, user, pass, db, port, NULL, 0)) {
        fprintf(stderr, "bf_writer: %s: %s\n", host, my ? mysql_error(my) : "out of memory");
        exit(1);
    }
    return my;
}

static void db_connect(writer_conn *c, const char *url)
{
    memset(c, 0, sizeof *c);
    if (!strncmp(url, "mysql://", 8) || !strncmp(url, "mariadb://", 10)) {
        c->my = my_connect(url);
        return;
    }
    c->pg = PQconnectdb(url);
    if (PQstatus(c->pg) != CONNECTION_OK) {
        fprintf(stderr, "bf_writer: %s", PQerrorMessage(c->pg));
        exit(1);
    }
    PQsetNoticeProcessor(c->pg, no_notice, NULL); /* DROP TABLE IF EXISTS: "does not exist, skipping" */
    run(c, "SET synchronous_commit = off");
}

static int composite(const writer_opts *o) { return !strcmp(o->key, "composite"); }

/* key number i (1..K) as its columns' values and as a WHERE condition */
static void key_values(const writer_opts *o, sqlbuf *b, long long i)
{
    if (composite(o))
        sql_add(b, "%lld, %lld", (i - 1) / K2_PER_ID + 1, (i - 1) % K2_PER_ID);
    else
        sql_add(b, "%lld", i);
}

static void key_where(const writer_opts *o, sqlbuf *b, long long i)
{
    if (composite(o))
        sql_add(b, " WHERE id = %lld AND k2 = %lld", (i - 1) / K2_PER_ID + 1, (i - 1) % K2_PER_ID);
    else
        sql_add(b, " WHERE id = %lld", i);
}

static void pad_value(const writer_opts *o, sqlbuf *b, uint64_t *seed)
{
    char part[257];
    sql_add(b, "'");
    for (int j = 0; j < o->pad;) {
        int m = 0;
        for (; m < 256 && j < o->pad; m++, j++) part[m] = (char)('a' + (int)(rnd(seed) % 26));
        part[m] = 0;
        sql_add(b, "%s", part);
    }
    sql_add(b, "'");
}

static void create_table(const writer_opts *o, writer_conn *c, sqlbuf *b)
{
    const char *t = o->table;
    sql_reset(b);
    sql_add(b, "DROP TABLE IF EXISTS %s", t);
    run(c, b->p);
    sql_reset(b);
    sql_add(b, "CREATE TABLE %s (id bigint NOT NULL%s, v bigint NOT NULL, pad text NOT NULL%s)", t,
            composite(o) ? ", k2 bigint NOT NULL" : "",
            !strcmp(o->key, "pk")     ? ", PRIMARY KEY (id)"
            : composite(o)            ? ", PRIMARY KEY (id, k2)"
            : !strcmp(o->key, "unique") ? ", UNIQUE (id)"
                                      : "");
    run(c, b->p);
    if (!c->pg || !strcmp(o->key, "pk") || composite(o)) return;
    sql_reset(b);
    if (!strcmp(o->key, "unique")) {
        const char *dot = strrchr(t, '.');
        sql_add(b, "ALTER TABLE %s REPLICA IDENTITY USING INDEX %s_id_key", t, dot ? dot + 1 : t);
    } else {
        sql_add(b, "ALTER TABLE %s REPLICA IDENTITY FULL", t);
    }
    run(c, b->p);
}

static const char *columns(const writer_opts *o) { return composite(o) ? "id, k2, v, pad" : "id, v, pad"; }

static void load(const writer_opts *o, writer_conn *c, sqlbuf *b, unsigned char *there, int64_t *v, uint64_t *seed)
{
    for (long long i = 1; i <= o->rows;) {
        sql_reset(b);
        sql_add(b, "INSERT INTO %s (%s) VALUES ", o->table, columns(o));
        for (int n = 0; n < 500 && i <= o->rows; n++, i++) {
            sql_add(b, "%s(", n ? ", " : "");
            key_values(o, b, i);
            sql_add(b, ", %" PRId64 ", ", ++*v);
            pad_value(o, b, seed);
            sql_add(b, ")");
            there[i] = 1;
        }
        run(c, b->p);
    }
}

/* the keys there (a run on a table loaded before); returns the largest key number */
static long long read_keys(const writer_opts *o, writer_conn *c, sqlbuf *b, unsigned char **there, long long *cap)
{
    long long max = 0;
    sql_reset(b);
    sql_add(b, "SELECT %s FROM %s", composite(o) ? "(id - 1) * 4 + k2 + 1" : "id", o->table);
    PGresult *pr = NULL;
    MYSQL_RES *mr = NULL;
    long long n;
    if (c->pg) {
        pr = PQexec(c->pg, b->p);
        if (PQresultStatus(pr) != PGRES_TUPLES_OK) {
            fprintf(stderr, "bf_writer: %s: %s", b->p, PQerrorMessage(c->pg));
            exit(1);
        }
        n = PQntuples(pr);
    } else {
        if (mysql_query(c->my, b->p) || !(mr = mysql_store_result(c->my))) {
            fprintf(stderr, "bf_writer: %s: %s\n", b->p, mysql_error(c->my));
            exit(1);
        }
        n = (long long)mysql_num_rows(mr);
    }
    for (long long r = 0; r < n; r++) {
        long long i = atoll(pr ? PQgetvalue(pr, (int)r, 0) : mysql_fetch_row(mr)[0]);
        if (i >= *cap) {
            long long ncap = i * 2 + 16;
            if (!(*there = realloc(*there, (size_t)ncap))) exit(1);
            memset(*there + *cap, 0, (size_t)(ncap - *cap));
            *cap = ncap;
        }
        (*there)[i] = 1;
        if (i > max) max = i;
    }
    PQclear(pr);
    if (mr) mysql_free_result(mr);
    return max;
}

static long long pick_key(const writer_opts *o, uint64_t *seed)
{
    if (o->hi >= o->lo && o->hi > 0 && (int)(rnd(seed) % 100) < o->pct)
        return o->lo + (long long)(rnd(seed) % (uint64_t)(o->hi - o->lo + 1));
    return 1 + (long long)(rnd(seed) % (uint64_t)o->keys);
}

/* LO:HI[:PCT] into o; 0, or -1 (o unchanged) when s is not that */
static int parse_bias(const char *s, writer_opts *o)
{
    long long lo, hi;
    int pct = 50;
    if (sscanf(s, "%lld:%lld:%d", &lo, &hi, &pct) < 2 || lo < 1 || hi < lo || pct < 0 || pct > 100) return -1;
    o->lo = lo, o->hi = hi, o->pct = pct;
    return 0;
}

/* --bias-file: read again when its time has come (a bad or missing file: no bias; keys past
   the last one are not there) */
static void reread_bias(writer_opts *o, double *next)
{
    if (!o->bias_file || now_s() < *next) return;
    *next = now_s() + 0.2;
    char line[128] = "";
    FILE *f = fopen(o->bias_file, "r");
    if (f) {
        if (!fgets(line, sizeof line, f)) line[0] = 0;
        fclose(f);
    }
    if (parse_bias(line, o)) o->lo = o->hi = 0;
    if (o->hi > o->keys) o->hi = o->keys;
    if (o->lo > o->hi) o->lo = o->hi = 0;
}

static void parse_args(int argc, char **argv, writer_opts *o)
{
    memset(o, 0, sizeof *o);
    o->table = "t", o->key = "pk", o->rows = -1, o->count = -1, o->duration = -1, o->pct = 50;
    o->batch = 1, o->pad = 32, o->seed = 1, o->v_from = -1;
    if (argc < 2 || argv[1][0] == '-') usage("a URL first");
    o->url = argv[1];
    for (int i = 2; i < argc; i += 2) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!val) usage("an option without its value");
        if (!strcmp(a, "--table")) o->table = val;
        else if (!strcmp(a, "--key")) o->key = val;
        else if (!strcmp(a, "--rows")) o->rows = atoll(val);
        else if (!strcmp(a, "--keys")) o->keys = atoll(val);
        else if (!strcmp(a, "--count")) o->count = atoll(val);
        else if (!strcmp(a, "--duration")) o->duration = atof(val);
        else if (!strcmp(a, "--rate")) o->rate = atof(val);
        else if (!strcmp(a, "--batch")) o->batch = atoi(val);
        else if (!strcmp(a, "--pad")) o->pad = atoi(val);
        else if (!strcmp(a, "--seed")) o->seed = strtoull(val, NULL, 10);
        else if (!strcmp(a, "--v-from")) o->v_from = strtoll(val, NULL, 10);
        else if (!strcmp(a, "--bias-file")) o->bias_file = val;
        else if (!strcmp(a, "--bias")) {
            if (parse_bias(val, o)) usage("--bias LO:HI[:PCT] with 1 <= LO <= HI");
        } else
            usage("unknown option");
    }
    if (strcmp(o->key, "pk") && strcmp(o->key, "composite") && strcmp(o->key, "unique") && strcmp(o->key, "none"))
        usage("--key pk, composite, unique or none");
    if (o->batch < 1 || o->pad < 0) usage("--batch at least 1, --pad at least 0");
}

int main(int argc, char **argv)
{
    writer_opts o;
    parse_args(argc, argv, &o);
    writer_conn c;
    db_connect(&c, o.url);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    if (o.v_from < 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        o.v_from = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    }
    int64_t v = o.v_from;
    uint64_t seed = o.seed;
    sqlbuf b = {0};
    long long cap = (o.rows > 0 ? o.rows : 0) + 16;
    unsigned char *there = calloc((size_t)cap, 1);
    long long top = o.rows;
    if (o.rows >= 0) {
        create_table(&o, &c, &b);
        load(&o, &c, &b, there, &v, &seed);
    } else {
        top = read_keys(&o, &c, &b, &there, &cap);
    }
    if (!o.keys) o.keys = top + top / 8 + (top < 8);
    if (o.hi > o.keys) usage("--bias past the last key number (--keys)");
    if (o.keys >= cap) {
        if (!(there = realloc(there, (size_t)o.keys + 1))) return 1;
        memset(there + cap, 0, (size_t)(o.keys + 1 - cap));
    }

    long long n = 0, ins = 0, upd = 0, del = 0;
    double start = now_s();
    int in_tx = 0;
    double next_bias = 0;
    while (!stopping && (o.count < 0 || n < o.count) && (o.duration < 0 || now_s() - start < o.duration)) {
        if (o.batch > 1 && !in_tx) run(&c, "BEGIN"), in_tx = 1;
        reread_bias(&o, &next_bias);
        long long i = pick_key(&o, &seed);
        sql_reset(&b);
        if (!there[i]) {
            sql_add(&b, "INSERT INTO %s (%s) VALUES (", o.table, columns(&o));
            key_values(&o, &b, i);
            sql_add(&b, ", %" PRId64 ", ", ++v);
            pad_value(&o, &b, &seed);
            sql_add(&b, ")");
            there[i] = 1, ins++;
        } else if (rnd(&seed) % 4) {
            sql_add(&b, "UPDATE %s SET v = %" PRId64 ", pad = ", o.table, ++v);
            pad_value(&o, &b, &seed);
            key_where(&o, &b, i);
            upd++;
        } else {
            sql_add(&b, "DELETE FROM %s", o.table);
            key_where(&o, &b, i);
            there[i] = 0, del++;
        }
        run(&c, b.p);
        if (++n % o.batch == 0 && in_tx) run(&c, "COMMIT"), in_tx = 0;
        if (o.rate > 0) {
            double ahead = start + (double)n / o.rate - now_s();
            if (ahead > 0) {
                struct timespec ts = {(time_t)ahead, (long)((ahead - (double)(time_t)ahead) * 1e9)};
                while (nanosleep(&ts, &ts) && errno == EINTR && !stopping) {}
            }
        }
    }
    if (in_tx) run(&c, "COMMIT");
    double secs = now_s() - start;
    fprintf(stderr, "bf_writer: %s: %lld changes (%lld inserts, %lld updates, %lld deletes) in %.1f s%s, v up to %" PRId64 "\n",
            o.table, n, ins, upd, del, secs, stopping ? " (stopped by a signal)" : "", v);
    if (c.pg) PQfinish(c.pg);
    if (c.my) mysql_close(c.my);
    free(b.p);
    free(there);
    return 0;
}
