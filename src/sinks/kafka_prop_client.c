/* The client of each librdkafka property (kafka_prop_client.h), read once from librdkafka's
 * own table: rd_kafka_conf_properties_show prints CONFIGURATION.md, whose rows are
 * "name | C/P | range | default | importance | description" and whose C/P column is C
 * (consumer), P (producer) or * (both). */
#include "sinks/kafka_prop_client.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct prop {
    char name[64];
    char client; /* 'C', 'P' or '*' */
} prop;

static prop *props;
static size_t nprops;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* One row of the table: its name and client, or false for a heading, a rule or a legend. */
static bool row(const char *line, prop *out)
{
    const char *bar = strchr(line, '|');
    if (!bar) return false;
    size_t n = strcspn(line, " |");
    if (!n || n >= sizeof out->name || line[0] == '-' || !strncmp(line, "Property ", 9)) return false;
    const char *c = bar + 1;
    while (*c == ' ') c++;
    if ((*c != 'C' && *c != 'P' && *c != '*') || (c[1] != ' ' && c[1] != '|')) return false;
    memcpy(out->name, line, n);
    out->name[n] = '\0';
    out->client = *c;
    return true;
}

static void load(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return;
    rd_kafka_conf_properties_show(f);
    if (fclose(f) != 0) {
        free(text);
        return;
    }
    size_t cap = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        prop p;
        if (!row(line, &p)) continue;
        if (nprops == cap) {
            size_t nc = cap ? 2 * cap : 256;
            prop *np = realloc(props, nc * sizeof *np);
            if (!np) break;
            props = np, cap = nc;
        }
        props[nprops++] = p;
    }
    free(text);
}

bool rc_kafka_prop_for(const char *name, rd_kafka_type_t type)
{
    pthread_once(&once, load);
    /* a property in both tables (global and topic: compression.codec) is for a client when
     * either row says so */
    bool found = false;
    for (size_t i = 0; i < nprops; i++) {
        if (strcmp(props[i].name, name)) continue;
        found = true;
        if (props[i].client == '*' || props[i].client == (type == RD_KAFKA_CONSUMER ? 'C' : 'P')) return true;
    }
    return !found;
}
