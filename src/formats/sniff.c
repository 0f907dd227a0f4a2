/* Hints for refused messages (see sniff.h): three tables, tried in order. */
#include <stdio.h>
#include <string.h>
#include "core/json.h"
#include "formats/sniff.h"

/* Bytes a line of JSON never starts with, but files people pass by mistake do. */
static const struct {
    const char *magic;
    size_t n;
    const char *hint;
} magics[] = {
    {"\xEF\xBB\xBF", 3, "the line starts with a UTF-8 byte-order mark: strip the byte-order mark (sed '1s/^\\xEF\\xBB\\xBF//')"},
    {"\xFF\xFE", 2, "the input is UTF-16 (byte-order mark FF FE): convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)"},
    {"\xFE\xFF", 2, "the input is UTF-16 (byte-order mark FE FF): convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)"},
    {"\x1F\x8B", 2, "the input is gzip-compressed: decompress first (zcat FILE | rowcast convert ...)"},
    {"\x28\xB5\x2F\xFD", 4, "the input is zstd-compressed: decompress first (zstdcat FILE | rowcast convert ...)"},
    {"\xFD" "7zXZ", 5, "the input is xz-compressed: decompress first (xzcat FILE | rowcast convert ...)"},
    {"BZh", 3, "the input is bzip2-compressed: decompress first (bzcat FILE | rowcast convert ...)"},
    {"PK\x03\x04", 4, "the input is a zip archive: extract it first (unzip -p FILE | rowcast convert ...)"},
    {"Obj\x01", 4, "the input is an Avro object container file, which rowcast writes but does not read"},
};

enum test { HAS, LOWER, UPPER }; /* present; a string with letters, all lower / upper case */

/* How each format's messages are recognised: conditions on members of the root object (a
 * {"schema", "payload"} envelope is looked into), "a.b" meaning member b of object a. The first
 * row whose conditions all hold is the message's shape; more specific rows come first. */
typedef struct shape {
    const char *what;    /* as the hint names it */
    const char *readers; /* the formats that read it, '|'-separated; the first is suggested, by
                          * its name that reads it right (rc_format_name_of) */
    const char *option;  /* "key=value" the readers need to read it right; NULL: none */
    struct {
        const char *path;
        enum test test;
    } conds[4]; /* up to the first with path NULL */
} shape;

static const shape shapes[] = {
    /* upstream writes connector names in lower case, OMS its dbType in upper case (and only OMS
     * writes debeziumflatten, whose reader is OMS's) */
    {"upstream Debezium", "debezium", "debezium.flavor=upstream",
     {{"op", HAS}, {"source.connector", LOWER}}},
    {"Debezium (as OMS writes it)", "debezium|debeziumflatten", "debezium.flavor=oms",
     {{"op", HAS}, {"source.connector", UPPER}}},
    {"rowcast's native format", "native", NULL, {{"op", HAS}, {"source.kind", HAS}}},
    {"Debezium", "debezium|debeziumflatten", NULL, {{"op", HAS}, {"source", HAS}}},
    /* Canal and DRS messages have the same members; their values tell them apart, not this */
    {"Canal", "canal|drs-json|drs-json-c", NULL, {{"database", HAS}, {"table", HAS}, {"isDdl", HAS}}},
    {"Maxwell", "maxwell", NULL, {{"database", HAS}, {"table", HAS}, {"type", LOWER}, {"ts", HAS}}},
    {"DataWorks \"aliyun\" JSON", "dataworks-aliyun", NULL, {{"version", HAS}, {"schema.dataColumn", HAS}, {"payload.op", HAS}}},
    {"DataWorks", "dataworks", NULL, {{"version", HAS}, {"schema.source", HAS}, {"payload.op", HAS}}},
    {"OMS default JSON", "default|defaultextendcolumntype", NULL, {{"recordType", HAS}, {"allMetaData", HAS}}},
    {"SharePlex", "shareplex", NULL, {{"meta.op", HAS}, {"data", HAS}}},
    {"DTS Avro as JSON", "avro-json", NULL, {{"objectName", HAS}, {"operation", HAS}, {"sourcePosition", HAS}}},
    {"CloudEvents", "cloudevents", NULL, {{"specversion", HAS}, {"source", HAS}, {"type", HAS}}},
    {"Oracle GoldenGate JSON", "ogg-json", NULL, {{"table", HAS}, {"op_type", UPPER}}},
};

/* The member at `path` ("a" or "a.b") of object node `obj`, 0 when absent. */
static uint32_t member_at(const rc_json *j, uint32_t obj, const char *path)
{
    char first[32];
    const char *dot = strchr(path, '.');
    if (!dot) return rc_json_get(j, obj, path);
    snprintf(first, sizeof first, "%.*s", (int)(dot - path), path);
    uint32_t v = rc_json_get(j, obj, first);
    return v && rc_json_node(j, v)->type == RC_J_OBJECT ? rc_json_get(j, v, dot + 1) : 0;
}

static bool holds(const rc_json *j, uint32_t root, const char *path, enum test t)
{
    uint32_t v = member_at(j, root, path);
    if (!v) return false;
    if (t == HAS) return true;
    const rc_jnode *s = rc_json_node(j, v);
    if (s->type != RC_J_STRING) return false;
    bool letters = false;
    for (size_t i = 0; i < s->n; i++) {
        char c = s->s[i];
        if ((t == LOWER && c >= 'A' && c <= 'Z') || (t == UPPER && c >= 'a' && c <= 'z')) return false;
        letters |= (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }
    return letters;
}

/* The root to match shapes against: a {"schema", "payload"} envelope's payload, else the root. */
static uint32_t unwrap(const rc_json *j)
{
    uint32_t payload = rc_json_get(j, 0, "payload");
    if (!payload || rc_json_node(j, payload)->type != RC_J_OBJECT) return 0;
    for (uint32_t k = rc_json_node(j, 0)->first; k; k = rc_json_node(j, rc_json_node(j, k)->next)->next) {
        const rc_jnode *key = rc_json_node(j, k);
        if (!(key->n == 6 && !memcmp(key->s, "schema", 6)) && !(key->n == 7 && !memcmp(key->s, "payload", 7))) return 0;
    }
    return payload;
}

/* The shape of the message's object; *array: it is an array of objects instead (messages
 * gathered into one JSON array). */
static const shape *shape_of(const char *msg, size_t n, bool *array)
{
    rc_arena a;
    rc_arena_init(&a);
    rc_json j;
    rc_json_init(&j, &a);
    rc_error err;
    rc_error_clear(&err);
    const shape *found = NULL;
    *array = false;
    if (rc_json_parse(&j, msg, n, &err) == RC_OK) {
        const rc_jnode *r = rc_json_node(&j, 0);
        if (r->type == RC_J_ARRAY) *array = r->first && rc_json_node(&j, r->first)->type == RC_J_OBJECT;
        uint32_t root = r->type == RC_J_OBJECT ? unwrap(&j) : 0;
        for (size_t i = 0; r->type == RC_J_OBJECT && i < sizeof shapes / sizeof *shapes && !found; i++) {
            bool all = true;
            for (size_t k = 0; k < 4 && shapes[i].conds[k].path && all; k++)
                all = holds(&j, root, shapes[i].conds[k].path, shapes[i].conds[k].test);
            if (all) found = &shapes[i];
        }
    }
    rc_json_fini(&j);
    rc_arena_fini(&a);
    return found;
}

/* True when `name` is one of the '|'-separated `list`. */
static bool listed(const char *list, const char *name)
{
    size_t l = strlen(name);
    for (const char *p = list;; p++) {
        size_t k = strcspn(p, "|");
        if (k == l && !strncmp(p, name, l)) return true;
        p += k;
        if (!*p) return false;
    }
}

/* The default of option `key` of format f, NULL when it has none. */
static const char *option_default(const rc_format *f, const char *key)
{
    for (const rc_option_desc *d = f ? f->options : NULL; d && d->key; d++)
        if (!strcmp(d->key, key)) return d->def;
    return NULL;
}

static bool shape_hint(const shape *s, const rc_format *from, const rc_options *o, char *out, size_t cap)
{
    size_t fl = strcspn(s->readers, "|");
    char first[32];
    snprintf(first, sizeof first, "%.*s", (int)fl, s->readers);
    const rc_format *reader = rc_format_find(first);
    size_t kl = s->option ? strcspn(s->option, "=") : 0;
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)kl, s->option ? s->option : "");
    const char *want = s->option ? s->option + kl + 1 : NULL;
    /* the name that reads it right: one that fixes the option, else the format's own, by the
     * option's default or with the option */
    const rc_format_name *nm = reader ? rc_format_name_of(reader, s->option ? key : NULL, want) : NULL;
    const char *name = nm ? nm->name : first, *def = s->option ? option_default(reader, key) : NULL;
    bool by_name = !s->option || (nm && nm->fixed_key) || (def && !strcmp(def, want));
    if (!listed(s->readers, from->name)) {
        if (reader && !reader->decode)
            snprintf(out, cap, "this looks like %s (%s), which rowcast writes but does not read", s->what, name);
        else
            snprintf(out, cap, "this looks like %s: use --from %s%s%s", s->what, name, by_name ? "" : " -o ", by_name ? "" : s->option);
        return true;
    }
    if (!s->option) return false; /* read by the right format: the error is the news */
    const char *given = rc_options_get(o, key);
    if (!given) given = option_default(from, key);
    if (!given || !strcmp(given, want)) return false; /* without the option, `from` reads its own kind */
    if (nm && nm->fixed_key) snprintf(out, cap, "this looks like %s: use --from %s", s->what, name);
    else if (by_name) snprintf(out, cap, "this looks like %s: use --from %s (%s)", s->what, name, s->option);
    else snprintf(out, cap, "this looks like %s: use --from %s -o %s", s->what, name, s->option);
    return true;
}

bool rc_sniff_hint(const rc_format *from, const rc_options *o, const char *msg, size_t n, const rc_error *err, char *out,
                   size_t cap)
{
    if (!cap) return false;
    for (size_t i = 0; i < sizeof magics / sizeof *magics; i++)
        if (n >= magics[i].n && !memcmp(msg, magics[i].magic, magics[i].n)) {
            snprintf(out, cap, "%s", magics[i].hint);
            return true;
        }
    size_t b = 0, e = n;
    while (b < n && (msg[b] == ' ' || msg[b] == '\t')) b++;
    while (e > b && (msg[e - 1] == ' ' || msg[e - 1] == '\t')) e--;
    /* the lines source reads a pretty-printed message over its lines (src/sources/lines.c), up
     * to where its brackets close: one that ends open was cut short by the end of the input or
     * by the next message, which starts at the first byte of a line */
    if (err->code == RC_ERR_SYNTAX && err->offset != RC_NO_OFFSET && err->offset >= e && e > b && (msg[b] == '{' || msg[b] == '[') &&
        memchr("{[,:", msg[e - 1], 4)) {
        snprintf(out, cap, "the message ends before its brackets close: cut short by the end of the input or by the next "
                           "message (a line that starts with '%c')", msg[b]);
        return true;
    }
    bool array;
    const shape *s = shape_of(msg, n, &array);
    if (array) {
        snprintf(out, cap, "the line is a JSON array of messages: one message per line: pipe through jq -c '.[]'");
        return true;
    }
    return s && shape_hint(s, from, o, out, cap);
}
