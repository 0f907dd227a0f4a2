/* libFuzzer target: the texts the MySQL/MariaDB source parses itself: a checkpoint file
 * (src/sources/mysql/my_checkpoint.c, versions 1-4, its snapshot section through the state's parser as the
 * source reads it at open) and, when the first byte is odd, a mysql:// URL
 * (my_url.c; without password-file=, which would read a file). No input may crash; an
 * error has a message; the authority of a URL's shown form never holds its ":PASSWORD@". */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_checkpoint.h"
#include "sources/incsnap_state.h"
#include "sources/mysql/my_conn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) return 0;
    const char *text = (const char *)data + 1;
    size_t n = size - 1;
    rc_error err;
    rc_error_clear(&err);
    if (data[0] & 1) {
        char *url = malloc(n + 9);
        if (!url) return 0;
        memcpy(url, "mysql://", 8);
        memcpy(url + 8, text, n);
        url[n + 8] = '\0';
        if (strstr(url, "password-file")) {
            free(url);
            return 0;
        }
        rc_my_url u;
        if (rc_my_url_parse(url, &u, &err) == RC_OK) {
            /* the userinfo's ":PASSWORD@" never appears in the shown form */
            const char *at = strchr(url + 8, '@'), *colon = at ? memchr(url + 8, ':', (size_t)(at - url - 8)) : NULL;
            if (colon && at > colon + 1) {
                char needle[600];
                size_t k = (size_t)(at - colon + 1);
                if (k < sizeof needle) {
                    memcpy(needle, colon, k);
                    needle[k] = '\0';
                    /* in the shown form's authority (the query may quote anything) */
                    char auth[sizeof u.shown];
                    const char *p = u.shown + 8;
                    size_t an = strcspn(p, "/?");
                    memcpy(auth, p, an);
                    auth[an] = '\0';
                    if (strstr(auth, needle)) abort();
                }
            }
            rc_my_url_fini(&u);
        } else if (!err.message[0]) {
            abort();
        }
        free(url);
        return 0;
    }
    rc_my_checkpoint ck;
    rc_status st = rc_my_checkpoint_parse("fuzz", text, n, &ck, &err);
    /* version 4 names the history's chunks instead of holding it */
    if (st == RC_OK && (!ck.file || !ck.gtids || (!ck.history && !ck.history_at.hash[0]) || ck.history_len > n || ck.snapshot_len > n)) abort();
    if (st != RC_OK && !err.message[0]) abort();
    if (st == RC_OK && ck.snapshot) {
        rc_isstate is;
        rc_isstate_init(&is);
        rc_error_clear(&err);
        if (rc_isstate_parse(&is, ck.snapshot, ck.snapshot_len, &err) != RC_OK && !err.message[0]) abort();
        rc_isstate_fini(&is);
    }
    rc_my_checkpoint_fini(&ck);
    return 0;
}
