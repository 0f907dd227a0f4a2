/* DDL classification from the event's kind or the statement's leading keywords. */
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "core/ddl.h"

static const char *const class_names[RC_DDL_CLASS_COUNT] = {
    "OTHER",      "CREATE_TABLE", "ALTER_TABLE",  "DROP_TABLE",      "TRUNCATE",
    "RENAME_TABLE", "CREATE_INDEX", "DROP_INDEX", "CREATE_DATABASE", "DROP_DATABASE",
};

const char *rc_ddl_class_name(rc_ddl_class c) { return (unsigned)c < RC_DDL_CLASS_COUNT ? class_names[c] : "OTHER"; }

/* Copies up to `max` words of the statement, upper-cased, skipping comments and options such
 * as TEMPORARY / UNIQUE / IF EXISTS that do not change the class. */
static size_t lead_words(rc_str s, char words[][16], size_t max)
{
    static const char *const skip[] = {"TEMPORARY", "UNIQUE", "FULLTEXT", "SPATIAL", "ONLINE", "OFFLINE", "IGNORE", "OR", "REPLACE", NULL};
    size_t i = 0, k = 0;
    while (i < s.n && k < max) {
        while (i < s.n && (isspace((unsigned char)s.p[i]) || s.p[i] == '(')) i++;
        if (i + 1 < s.n && s.p[i] == '/' && s.p[i + 1] == '*') {
            i += 2;
            while (i + 1 < s.n && !(s.p[i] == '*' && s.p[i + 1] == '/')) i++;
            i = i + 2 < s.n ? i + 2 : s.n;
            continue;
        }
        size_t st = i;
        while (i < s.n && (isalnum((unsigned char)s.p[i]) || s.p[i] == '_')) i++;
        if (i == st) break;
        size_t l = i - st < 15 ? i - st : 15;
        for (size_t j = 0; j < l; j++) words[k][j] = (char)toupper((unsigned char)s.p[st + j]);
        words[k][l] = '\0';
        bool skipped = false;
        for (int q = 0; skip[q]; q++)
            if (!strcmp(words[k], skip[q])) skipped = true;
        if (!skipped) k++;
    }
    return k;
}

rc_ddl_class rc_ddl_classify(const rc_event *ev)
{
    if (ev->op == RC_OP_TRUNCATE) return RC_DDL_TRUNCATE;
    for (int c = 1; c < RC_DDL_CLASS_COUNT; c++)
        if (ev->ddl_kind.n == strlen(class_names[c]) && !strncasecmp(ev->ddl_kind.p, class_names[c], ev->ddl_kind.n))
            return (rc_ddl_class)c;
    char w[2][16];
    size_t n = lead_words(ev->ddl, w, 2);
    if (n < 1) return RC_DDL_OTHER;
    if (!strcmp(w[0], "TRUNCATE")) return RC_DDL_TRUNCATE;
    if (!strcmp(w[0], "RENAME")) return RC_DDL_RENAME_TABLE;
    if (n < 2) return RC_DDL_OTHER;
    bool table = !strcmp(w[1], "TABLE"), index = !strcmp(w[1], "INDEX"),
         db = !strcmp(w[1], "DATABASE") || !strcmp(w[1], "SCHEMA");
    if (!strcmp(w[0], "CREATE")) return table ? RC_DDL_CREATE_TABLE : index ? RC_DDL_CREATE_INDEX : db ? RC_DDL_CREATE_DATABASE : RC_DDL_OTHER;
    if (!strcmp(w[0], "ALTER")) return table ? RC_DDL_ALTER_TABLE : RC_DDL_OTHER;
    if (!strcmp(w[0], "DROP")) return table ? RC_DDL_DROP_TABLE : index ? RC_DDL_DROP_INDEX : db ? RC_DDL_DROP_DATABASE : RC_DDL_OTHER;
    return RC_DDL_OTHER;
}
