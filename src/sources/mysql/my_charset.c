/* Character sets of MySQL/MariaDB text columns -> UTF-8.
 *
 * A collation id (TABLE_MAP charset metadata, or the schema history) names the character set.
 * Converted: utf8mb4 and utf8mb3 (validated), latin1 (MySQL's latin1 is Windows-1252, with the
 * five bytes 1252 leaves undefined as the C1 controls U+0081 U+008D U+008F U+0090 U+009D, as
 * MySQL converts them), ascii, ucs2, utf16, utf16le, utf32; binary is not text (BYTES).
 * Other character sets the servers have (gbk, big5, cp1251, ...) are refused by name; an id
 * no server has is refused as unknown.
 *
 * Bytes that are not valid in their character set are never dropped or replaced: such a value
 * is RC_V_INVALID, whose text is the value with every valid character in UTF-8, every byte of
 * an invalid sequence written as \xHH (upper-case hex) and every backslash doubled, so that
 * the stored bytes can be told from the text (docs/sources/mysql-types.md). */
#include <mysql.h>
#include <string.h>
#include <strings.h>
#include "rowcast/jsonw.h"
#include "my_value_int.h"

/* Ids below 1024, from MySQL 8.4's and MariaDB 10.11's SHOW COLLATION. */
static rc_my_cs base_cs(uint16_t id)
{
    if ((id >= 192 && id <= 215) || (id >= 576 && id <= 578)) return RC_MY_CS_UTF8; /* utf8mb3 */
    if ((id >= 224 && id <= 247) || (id >= 255 && id <= 323) || (id >= 608 && id <= 610)) return RC_MY_CS_UTF8; /* utf8mb4 */
    if ((id >= 128 && id <= 151) || (id >= 640 && id <= 642)) return RC_MY_CS_UCS2;
    if ((id >= 101 && id <= 124 && id != 119) || (id >= 672 && id <= 674)) return RC_MY_CS_UTF16;
    if ((id >= 160 && id <= 183) || (id >= 736 && id <= 738)) return RC_MY_CS_UTF32;
    switch (id) {
    case 33: case 76: case 83: case 119: case 223: case 254: /* utf8mb3 */
    case 45: case 46:                                       /* utf8mb4 */
        return RC_MY_CS_UTF8;
    case 5: case 8: case 15: case 31: case 47: case 48: case 49: case 94:
        return RC_MY_CS_LATIN1;
    case 11: case 65:
        return RC_MY_CS_ASCII;
    case 35: case 90: case 159:
        return RC_MY_CS_UCS2;
    case 54: case 55:
        return RC_MY_CS_UTF16;
    case 56: case 62:
        return RC_MY_CS_UTF16LE;
    case 60: case 61:
        return RC_MY_CS_UTF32;
    case RC_MY_COLLATION_BINARY:
        return RC_MY_CS_BINARY;
    default:
        /* the client library knows every other character set the servers have */
        return id && mariadb_get_charset_by_nr(id) ? RC_MY_CS_UNSUPPORTED : RC_MY_CS_UNKNOWN;
    }
}

rc_my_cs rc_my_collation_cs(uint16_t id)
{
    /* MariaDB 10.10+: the UCA 14.0 collations, 256 ids per character set from 2048 */
    static const rc_my_cs uca1400[] = {RC_MY_CS_UTF8, RC_MY_CS_UTF8, RC_MY_CS_UCS2, RC_MY_CS_UTF16, RC_MY_CS_UTF32};
    if (id >= 2048) return id < 2048 + 256 * 5 ? uca1400[(id - 2048) / 256] : RC_MY_CS_UNKNOWN;
    /* MariaDB's NO PAD collations are their PAD SPACE collation's id + 1024 */
    if (id >= 1024) {
        rc_my_cs cs = base_cs((uint16_t)(id - 1024));
        if (cs != RC_MY_CS_UNKNOWN || !mariadb_get_charset_by_nr(id)) return cs;
        return RC_MY_CS_UNSUPPORTED;
    }
    return base_cs(id);
}

const char *rc_my_charset_name(uint16_t id)
{
    MARIADB_CHARSET_INFO *ci = mariadb_get_charset_by_nr(id);
    return ci && ci->csname ? ci->csname : "?";
}

const char *rc_my_collation_name(uint16_t id)
{
    MARIADB_CHARSET_INFO *ci = mariadb_get_charset_by_nr(id);
    return ci && ci->name ? ci->name : "?";
}

rc_my_cs rc_my_charset_by_name(const char *s, size_t n)
{
    static const struct {
        const char *name;
        rc_my_cs cs;
    } names[] = {{"utf8mb4", RC_MY_CS_UTF8}, {"utf8mb3", RC_MY_CS_UTF8},   {"utf8", RC_MY_CS_UTF8},      {"latin1", RC_MY_CS_LATIN1},
                 {"ascii", RC_MY_CS_ASCII},  {"binary", RC_MY_CS_BINARY}, {"ucs2", RC_MY_CS_UCS2},      {"utf16", RC_MY_CS_UTF16},
                 {"utf16le", RC_MY_CS_UTF16LE}, {"utf32", RC_MY_CS_UTF32}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == n && !strncasecmp(names[i].name, s, n)) return names[i].cs;
    return RC_MY_CS_UNSUPPORTED;
}

/* Windows-1252's 0x80..0x9F as MySQL's latin1 maps them. */
static const uint16_t cp1252_hi[32] = {0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
                                       0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
                                       0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

enum { BAD = 0xFFFFFFFFu };

/* The next character at p (n > 0 bytes left): its code point (BAD when the bytes are not a
 * character of cs) and the bytes it takes. */
static size_t next_cp(rc_my_cs cs, const uint8_t *p, size_t n, uint32_t *cp)
{
    switch (cs) {
    case RC_MY_CS_LATIN1:
        *cp = p[0] >= 0x80 && p[0] < 0xA0 ? cp1252_hi[p[0] - 0x80] : p[0];
        return 1;
    case RC_MY_CS_ASCII:
        *cp = p[0] < 0x80 ? p[0] : BAD;
        return 1;
    case RC_MY_CS_UCS2:
    case RC_MY_CS_UTF16:
    case RC_MY_CS_UTF16LE: {
        bool le = cs == RC_MY_CS_UTF16LE;
        if (n < 2) return *cp = BAD, n;
        uint32_t u = le ? (uint32_t)(p[0] | p[1] << 8) : (uint32_t)(p[0] << 8 | p[1]);
        if (u < 0xD800 || u > 0xDFFF) return *cp = u, 2;
        if (cs == RC_MY_CS_UCS2 || u > 0xDBFF || n < 4) return *cp = BAD, 2;
        uint32_t l = le ? (uint32_t)(p[2] | p[3] << 8) : (uint32_t)(p[2] << 8 | p[3]);
        if (l < 0xDC00 || l > 0xDFFF) return *cp = BAD, 2;
        *cp = 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00);
        return 4;
    }
    case RC_MY_CS_UTF32: {
        if (n < 4) return *cp = BAD, n;
        uint32_t u = (uint32_t)rc_my_be(p, 4);
        *cp = u > 0x10FFFF || (u >= 0xD800 && u <= 0xDFFF) ? BAD : u;
        return 4;
    }
    default: { /* UTF-8: the sequence the lead byte announces, checked by the project's validator */
        size_t k = p[0] < 0x80 ? 1 : p[0] >= 0xC2 && p[0] <= 0xDF ? 2 : p[0] >= 0xE0 && p[0] <= 0xEF ? 3 : p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : 0;
        if (!k || k > n || rc_utf8_valid_prefix((const char *)p, k) != k) return *cp = BAD, 1;
        uint32_t u = k == 1 ? p[0] : (uint32_t)(p[0] & (0x7F >> k));
        for (size_t i = 1; i < k; i++) u = u << 6 | (p[i] & 0x3F);
        *cp = u;
        return k;
    }
    }
}

static size_t put_utf8(char *w, uint32_t u)
{
    if (u < 0x80) return w[0] = (char)u, 1;
    if (u < 0x800) return w[0] = (char)(0xC0 | u >> 6), w[1] = (char)(0x80 | (u & 0x3F)), 2;
    if (u < 0x10000)
        return w[0] = (char)(0xE0 | u >> 12), w[1] = (char)(0x80 | (u >> 6 & 0x3F)), w[2] = (char)(0x80 | (u & 0x3F)), 3;
    w[0] = (char)(0xF0 | u >> 18), w[1] = (char)(0x80 | (u >> 12 & 0x3F)), w[2] = (char)(0x80 | (u >> 6 & 0x3F));
    w[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* Converts into w (room for 4 bytes per input byte: \xHH); escaping: the invalid form. Returns
 * the length, or (size_t)-1 when !escaping and a byte is invalid. */
static size_t convert(rc_my_cs cs, const uint8_t *p, size_t n, char *w, bool escaping)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = next_cp(cs, p + i, n - i, &cp);
        if (cp == BAD) {
            if (!escaping) return (size_t)-1;
            for (size_t j = 0; j < k; j++) w[o++] = '\\', w[o++] = 'x', w[o++] = hex[p[i + j] >> 4], w[o++] = hex[p[i + j] & 15];
        } else if (cp == '\\' && escaping) {
            w[o++] = '\\', w[o++] = '\\';
        } else {
            o += put_utf8(w + o, cp);
        }
        i += k;
    }
    return o;
}

rc_status rc_my_text(rc_my_cs cs, const uint8_t *p, size_t n, rc_value *out, rc_arena *a)
{
    if (cs == RC_MY_CS_UTF8 && rc_utf8_valid_prefix((const char *)p, n) == n) { /* the common case: a copy */
        char *s = rc_arena_memdup(a, p, n);
        if (!s) return RC_ERR_NOMEM;
        *out = (rc_value){.kind = RC_V_TEXT, .s = {s, n}};
        return RC_OK;
    }
    char *w = rc_arena_alloc(a, 4 * n + 1);
    if (!w) return RC_ERR_NOMEM;
    size_t len = convert(cs, p, n, w, false);
    rc_vkind kind = RC_V_TEXT;
    if (len == (size_t)-1) len = convert(cs, p, n, w, true), kind = RC_V_INVALID;
    w[len] = '\0';
    *out = (rc_value){.kind = kind, .s = {w, len}};
    return RC_OK;
}
