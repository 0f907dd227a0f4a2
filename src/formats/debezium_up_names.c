/* Upstream Debezium: schema.name.adjustment.mode and field.name.adjustment.mode, as Debezium's
 * SchemaNameAdjuster applies them. Debezium works on Java chars (UTF-16 units), so a name is
 * read as UTF-8 and each unit judged: a letter, a digit, '_' or '.' by the Avro rules, the rest
 * replaced. */
#include "formats/debezium_up_enc.h"
#include "core/jsonw.h"

static bool ascii_letter(uint32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* The UTF-16 units of the code point at s[*i] (advancing *i): 1 or 2; a byte that does not
 * start a valid UTF-8 sequence is one unit of its own value. */
static int next_units(const char *s, size_t n, size_t *i, uint16_t u[2])
{
    const unsigned char *p = (const unsigned char *)s + *i;
    size_t len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc0 ? 2 : 1;
    uint32_t cp = p[0];
    if (len == 1 || len > n - *i || rc_utf8_valid_prefix((const char *)p, len) != len) {
        *i += 1;
        u[0] = (uint16_t)cp;
        return 1;
    }
    cp &= len == 4 ? 0x07u : len == 3 ? 0x0fu : 0x1fu;
    for (size_t k = 1; k < len; k++) cp = cp << 6 | (p[k] & 0x3fu);
    *i += len;
    if (cp < 0x10000) {
        u[0] = (uint16_t)cp;
        return 1;
    }
    cp -= 0x10000;
    u[0] = (uint16_t)(0xd800 + (cp >> 10)), u[1] = (uint16_t)(0xdc00 + (cp & 0x3ff));
    return 2;
}

/* UnicodeReplacementFunction: "_u" and Integer.toHexString, padded with "00" only when it has
 * at most two digits (U+0100 is "_u100", as Debezium writes it). */
static void put_unicode(rc_buf *out, uint16_t c)
{
    static const char hex[] = "0123456789abcdef";
    char t[4];
    int n = 0;
    for (int shift = 12; shift >= 0; shift -= 4)
        if (n || (c >> shift & 0xf) || shift == 0) t[n++] = hex[c >> shift & 0xf];
    RC_BUF_LIT(out, "_u");
    if (n <= 2) RC_BUF_LIT(out, "00");
    rc_buf_put(out, t, (size_t)n);
}

bool rc_dbz_adjust_name(rc_buf *out, const char *s, size_t n, int mode, bool field)
{
    if (mode == DBZ_ADJUST_NONE) {
        rc_buf_put(out, s, n);
        return false;
    }
    bool unicode = mode == DBZ_ADJUST_AVRO_UNICODE, changed = false;
    for (size_t i = 0; i < n;) {
        bool first = i == 0;
        uint16_t u[2];
        int k = next_units(s, n, &i, u);
        for (int j = 0; j < k; j++, first = false) {
            uint16_t c = u[j];
            /* the underscore is unicode mode's escape, so it is replaced there too; field names
             * have no dots */
            bool ok = ascii_letter(c) || (c == '_' && !unicode) || (!first && ((c >= '0' && c <= '9') || (c == '.' && !field)));
            if (ok) {
                rc_buf_putc(out, (char)c);
                continue;
            }
            changed = true;
            if (unicode) {
                put_unicode(out, c);
            } else {
                rc_buf_putc(out, '_');
                if (first && c >= '0' && c <= '9') rc_buf_putc(out, (char)c); /* "1st" is "_1st" */
            }
        }
    }
    return changed;
}

/* AbstractTopicNamingStrategy.sanitizedTopicName: each UTF-16 unit that is not an ASCII letter,
 * digit, '.', '-' or (but in the Unicode strategies, where it is the escape) '_' becomes "_" or,
 * in the Unicode strategies, "_uXXXX"; a name "." or ".." is escaped whole. The cut past 249
 * characters is not made: Kafka refuses such a topic, which rowcast then says. */
static void put_replaced(rc_buf *out, uint16_t c, bool unicode)
{
    if (unicode) put_unicode(out, c);
    else rc_buf_putc(out, '_');
}

void rc_dbz_topic_sanitize(rc_buf *out, const char *s, size_t n, bool unicode)
{
    if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.')) {
        for (size_t i = 0; i < n; i++) put_replaced(out, '.', unicode);
        return;
    }
    for (size_t i = 0; i < n;) {
        uint16_t u[2];
        int k = next_units(s, n, &i, u);
        for (int j = 0; j < k; j++) {
            uint16_t c = u[j];
            if (ascii_letter(c) || (c >= '0' && c <= '9') || c == '.' || c == '-' || (c == '_' && !unicode)) rc_buf_putc(out, (char)c);
            else put_replaced(out, c, unicode);
        }
    }
}
