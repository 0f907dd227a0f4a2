/* `rowcast types`: prints the type catalog, as a table or as the Markdown of docs/types.md. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "rowcast/types.h"

static const char *const vclass_names[RC_VC_COUNT] = {"Long", "BigDecimal", "Double", "String", "Bytes",
                                                     "Date", "Time", "DateTime", "Timestamp"};
static const char *const avro_names[] = {"Integer", "Float", "Decimal", "Character", "BinaryObject",
                                         "Timestamp", "DateTime", "TextObject", "TextGeometry"};

int cli_types(int argc, char **argv)
{
    bool md = false;
    int fam = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--markdown")) {
            md = true;
            continue;
        }
        int f = 0;
        for (; f < RC_FAM_COUNT; f++)
            if (!strcmp(argv[i], rc_family_name((rc_family)f))) break;
        if (f == RC_FAM_COUNT) {
            fprintf(stderr, "usage: rowcast types [--markdown] [mysql|oracle|postgresql]\n");
            return EXIT_USAGE;
        }
        fam = f;
    }
    const char *hdr[] = {"family", "type", "class", "value", "jdbc", "drs", "mysql", "canal", "dataworks", "light_type",
                         "connect", "avro", "drs_type"};
    if (md) {
        for (size_t k = 0; k < sizeof hdr / sizeof *hdr; k++) printf("| %s ", hdr[k]);
        printf("|\n");
        for (size_t k = 0; k < sizeof hdr / sizeof *hdr; k++) printf("|---");
        printf("|\n");
    } else {
        printf("%-10s %-30s %-10s %-9s %5s %5s %5s %-12s %-12s %-12s %-8s %s\n", "FAMILY", "TYPE", "CLASS", "VALUE",
               "JDBC", "DRS", "MYSQL", "CANAL", "DATAWORKS", "LIGHT_TYPE", "CONNECT", "AVRO");
    }
    for (const rc_type_info *t = rc_type_catalog; t->name; t++) {
        if (fam >= 0 && t->family != fam) continue;
        const char *f = rc_family_name((rc_family)t->family);
        if (md)
            printf("| %s | %s | %s | %s | %d | %d | %d | %s | %s | %s | %s | %s | %s |\n", f, t->name, vclass_names[t->vclass],
                   rc_vkind_name((rc_vkind)t->vkind), t->jdbc, t->drs_sqltype, t->mysql_code, t->canal_type, t->dataworks,
                   t->light_type, t->connect, avro_names[t->avro], t->drs_type);
        else
            printf("%-10s %-30s %-10s %-9s %5d %5d %5d %-12s %-12s %-12s %-8s %s\n", f, t->name, vclass_names[t->vclass],
                   rc_vkind_name((rc_vkind)t->vkind), t->jdbc, t->drs_sqltype, t->mysql_code, t->canal_type, t->dataworks,
                   t->light_type, t->connect, avro_names[t->avro]);
    }
    return EXIT_OK;
}
