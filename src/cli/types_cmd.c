/* `rowcast types`: prints the type catalog, as tables that fit 100 columns (per family: how
 * values are carried, then the type names the formats write; a legend at the end) or as the
 * Markdown of docs/types.md; and the BSON kinds of a document, each with a value as every
 * document format writes it (`rowcast types bson`). */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "rowcast/types.h"
#include "core/bson.h"
#include "core/ejson.h"

static const char *const vclass_names[RC_VC_COUNT] = {"Long", "BigDecimal", "Double", "String", "Bytes",
                                                     "Date", "Time", "DateTime", "Timestamp"};
static const char *const avro_names[] = {"Integer", "Float", "Decimal", "Character", "BinaryObject",
                                         "Timestamp", "DateTime", "TextObject", "TextGeometry"};

/* The columns of the plain tables, with their legend lines. */
enum col { C_TYPE, C_CLASS, C_VALUE, C_JDBC, C_DRS, C_MYSQL, C_CONNECT, C_AVRO, C_CANAL, C_DATAWORKS, C_LIGHT, C_DRS_TYPE, C_COUNT };
static const struct {
    const char *head, *legend;
    bool number;
} cols[C_COUNT] = {
    {"TYPE", "canonical type name; declarations are parsed to it (docs/types.md)", false},
    {"CLASS", "value class: how the OMS formats render a value", false},
    {"VALUE", "kind of canonical value a non-null value has (docs/native-format.md)", false},
    {"JDBC", "java.sql.Types code (OMS canal sqlType)", true},
    {"DRS", "sqlType code Huawei DRS writes", true},
    {"MYSQL", "MySQL column type code (DTS Avro dataTypeNumber)", true},
    {"CONNECT", "Kafka Connect schema type in the OMS debezium flavour", false},
    {"AVRO", "DTS Avro value record", false},
    {"CANAL", "OMS canal mysqlType", false},
    {"DATAWORKS", "DataWorks schema.column[].type", false},
    {"LIGHT_TYPE", "defaultextendcolumntype __light_type", false},
    {"DRS_TYPE", "type name Huawei DRS writes (mysqlType; columnType for other sources)", false},
};
static const enum col carried[] = {C_TYPE, C_CLASS, C_VALUE, C_JDBC, C_DRS, C_MYSQL, C_CONNECT, C_AVRO};
static const enum col named[] = {C_TYPE, C_CANAL, C_DATAWORKS, C_LIGHT, C_DRS_TYPE};

/* The text of one cell; a type name a format writes as TYPE itself is "=". */
static const char *cell(const rc_type_info *t, enum col k, char num[8])
{
    const char *s = NULL;
    int n = 0;
    switch (k) {
    case C_TYPE: return t->name;
    case C_CLASS: return vclass_names[t->vclass];
    case C_VALUE: return rc_vkind_name((rc_vkind)t->vkind);
    case C_JDBC: n = t->jdbc; break;
    case C_DRS: n = t->drs_sqltype; break;
    case C_MYSQL: n = t->mysql_code; break;
    case C_CONNECT: return t->connect;
    case C_AVRO: return avro_names[t->avro];
    case C_CANAL: s = t->canal_type; break;
    case C_DATAWORKS: s = t->dataworks; break;
    case C_LIGHT: s = t->light_type; break;
    case C_DRS_TYPE: s = t->drs_type; break;
    case C_COUNT: break;
    }
    if (s) return strcmp(s, t->name) ? s : "=";
    snprintf(num, 8, "%d", n);
    return num;
}

/* One table of family `fam`, its columns as wide as their widest cell. */
static void table(int fam, const char *title, const enum col *which, size_t ncols)
{
    size_t w[C_COUNT] = {0};
    char num[8];
    for (size_t k = 0; k < ncols; k++) w[k] = strlen(cols[which[k]].head);
    for (const rc_type_info *t = rc_type_catalog; t->name; t++)
        for (size_t k = 0; t->family == fam && k < ncols; k++) {
            size_t l = strlen(cell(t, which[k], num));
            if (l > w[k]) w[k] = l;
        }
    printf("%s: %s\n", rc_family_name((rc_family)fam), title);
    for (size_t k = 0; k < ncols; k++) {
        const char *h = cols[which[k]].head;
        if (k + 1 == ncols) printf("%s\n", h);
        else printf(cols[which[k]].number ? "%*s " : "%-*s ", (int)w[k], h);
    }
    for (const rc_type_info *t = rc_type_catalog; t->name; t++) {
        if (t->family != fam) continue;
        for (size_t k = 0; k < ncols; k++) {
            const char *s = cell(t, which[k], num);
            if (k + 1 == ncols) printf("%s\n", s);
            else printf(cols[which[k]].number ? "%*s " : "%-*s ", (int)w[k], s);
        }
    }
    putchar('\n');
}

static void markdown(int fam)
{
    const char *hdr[] = {"family", "type", "class", "value", "jdbc", "drs", "mysql", "canal", "dataworks", "light_type",
                         "connect", "avro", "drs_type"};
    for (size_t k = 0; k < sizeof hdr / sizeof *hdr; k++) printf("| %s ", hdr[k]);
    printf("|\n");
    for (size_t k = 0; k < sizeof hdr / sizeof *hdr; k++) printf("|---");
    printf("|\n");
    for (const rc_type_info *t = rc_type_catalog; t->name; t++) {
        if (fam >= 0 && t->family != fam) continue;
        printf("| %s | %s | %s | %s | %d | %d | %d | %s | %s | %s | %s | %s | %s |\n", rc_family_name((rc_family)t->family),
               t->name, vclass_names[t->vclass], rc_vkind_name((rc_vkind)t->vkind), t->jdbc, t->drs_sqltype, t->mysql_code,
               t->canal_type, t->dataworks, t->light_type, t->connect, avro_names[t->avro], t->drs_type);
    }
}

/* The BSON kinds (docs/design/documents.md): $type name and number, and one value of the kind
 * as native (canonical), drs-dds (shell), debezium (strict) and mongo-change-stream (canonical,
 * the Java driver's spacing) write it, by the writers themselves. */
static void bson_kinds(void)
{
    static const rc_bson_member scope_m = {{"y", 1}, {.kind = RC_B_INT32, .i32 = 1}};
    static const rc_bson scope = {.kind = RC_B_DOCUMENT, .doc = {&scope_m, 1}};
    static const rc_bson_member elems[] = {{{"", 0}, {.kind = RC_B_INT32, .i32 = 1}}, {{"", 0}, {.kind = RC_B_STRING, .s = {"a", 1}}}};
    static const struct {
        int number;
        rc_bson v;
    } kinds[] = {
        {1, {.kind = RC_B_DOUBLE, .f64 = 1.5}},
        {2, {.kind = RC_B_STRING, .s = {"text", 4}}},
        {3, {.kind = RC_B_DOCUMENT, .doc = {&scope_m, 1}}},
        {4, {.kind = RC_B_ARRAY, .doc = {elems, 2}}},
        {5, {.kind = RC_B_BINARY, .bin = {{"\x01\x02", 2}, 4}}},
        {6, {.kind = RC_B_UNDEFINED}},
        {7, {.kind = RC_B_OBJECTID, .oid = {0x64, 0x65, 0x0c, 0xf6, 0x7d, 0xc3, 0x6a, 0x46, 0x4e, 0x76, 0xe5, 0x83}}},
        {8, {.kind = RC_B_BOOL, .b = true}},
        {9, {.kind = RC_B_DATE, .i64 = 1684315111439}},
        {10, {.kind = RC_B_NULL}},
        {11, {.kind = RC_B_REGEX, .re = {{"^a.*", 4}, {"i", 1}}}},
        {13, {.kind = RC_B_CODE, .s = {"f()", 3}}},
        {14, {.kind = RC_B_SYMBOL, .s = {"s", 1}}},
        {15, {.kind = RC_B_CODE_SCOPE, .cws = {{"y+1", 3}, &scope}}},
        {16, {.kind = RC_B_INT32, .i32 = 5}},
        {17, {.kind = RC_B_TIMESTAMP, .ts = {1684344064, 1}}},
        {18, {.kind = RC_B_INT64, .i64 = 5}},
        {19, {.kind = RC_B_DECIMAL128, .s = {"1.10", 4}}},
        {-1, {.kind = RC_B_MINKEY}},
        {127, {.kind = RC_B_MAXKEY}},
    };
    static const struct {
        const char *format;
        rc_ejson_mode mode;
    } writers[] = {{"native", RC_EJSON_CANONICAL}, {"drs-dds", RC_EJSON_SHELL}, {"debezium", RC_EJSON_STRICT}, {"change-stream", RC_EJSON_JAVA_CANONICAL}};
    printf("bson: the value kinds of a document (docs/design/documents.md), each kept apart, and a value\n"
           "of each as the document formats write it\n");
    printf("%-20s %4s  %-13s %s\n", "KIND", "NO", "FORMAT", "VALUE");
    rc_buf b;
    rc_buf_init(&b, 0);
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        for (size_t w = 0; w < sizeof writers / sizeof *writers; w++) {
            rc_buf_reset(&b);
            rc_ejson_write(&b, &kinds[k].v, writers[w].mode);
            if (w) printf("%-20s %4s  %-13s %.*s\n", "", "", writers[w].format, (int)b.len, b.data ? b.data : "");
            else printf("%-20s %4d  %-13s %.*s\n", rc_bson_kind_name(kinds[k].v.kind), kinds[k].number, writers[w].format, (int)b.len, b.data ? b.data : "");
        }
    rc_buf_fini(&b);
}

int cli_types(int argc, char **argv)
{
    bool md = false, bson = false;
    int fam = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--markdown")) {
            md = true;
            continue;
        }
        int f = 0;
        for (; f < RC_FAM_COUNT; f++)
            if (!strcmp(argv[i], rc_family_name((rc_family)f))) break;
        if (f == RC_FAM_COUNT && !strcmp(argv[i], "bson")) {
            bson = true;
            continue;
        }
        if (f == RC_FAM_COUNT) {
            fprintf(stderr, "usage: rowcast types [--markdown] [mysql|oracle|postgresql|bson]\n");
            return EXIT_USAGE;
        }
        fam = f;
    }
    if (md) {
        markdown(fam);
        return EXIT_OK;
    }
    if (bson) {
        bson_kinds();
        return EXIT_OK;
    }
    for (int f = 0; f < RC_FAM_COUNT; f++) {
        if (fam >= 0 && f != fam) continue;
        table(f, "how values are carried", carried, sizeof carried / sizeof *carried);
        table(f, "type names the formats write (=: the same as TYPE)", named, sizeof named / sizeof *named);
    }
    printf("Columns:\n");
    for (size_t k = 0; k < C_COUNT; k++) printf("  %-11s %s\n", cols[k].head, cols[k].legend);
    printf("  %-11s the format writes the TYPE's own name\n", "=");
    return EXIT_OK;
}
