/* rowcast: command dispatch, --help, --version, `formats`. */
#include <stdio.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/config_file.h"
#include "rowcast/format.h"
#include "core/names.h"

static void usage(FILE *f)
{
    fputs("rowcast " RC_VERSION " - change data capture and CDC format conversion\n"
          "\n"
          "usage:\n"
          "  rowcast formats [--options]      list the formats by vendor, each named after the\n"
          "                                   tool whose output it is, whether each encodes and\n"
          "                                   decodes, and (with --options) the -o options of each\n"
          "  rowcast convert [OPTIONS] [FILE...]\n"
          "                                   read messages (one per line) in one format, write them\n"
          "                                   in another, one message per line on stdout\n"
          "  rowcast capture postgres://USER@HOST:PORT/DB [OPTIONS]\n"
          "                                   capture a PostgreSQL database's changes (snapshot,\n"
          "                                   then logical replication) in any output format\n"
          "  rowcast capture mysql://USER@HOST:PORT[/DB] [OPTIONS]\n"
          "                                   capture a MySQL or MariaDB server's changes\n"
          "                                   (snapshot, then the binlog; mariadb:// too)\n"
          "  rowcast snapshot URL TABLE... [--stop|--pause|--resume] [OPTIONS]\n"
          "                                   ask a running capture for an incremental snapshot of\n"
          "                                   tables (or stop, pause, resume it): a signal row\n"
          "  rowcast config check FILE        check a config file (--config FILE of capture, when\n"
          "                                   it has a url key, else of convert) without running it\n"
          "  rowcast types [--markdown] [mysql|oracle|postgresql|bson]\n"
          "                                   the type catalog: value class, java.sql.Types, MySQL\n"
          "                                   type code and per-format type names of every type\n"
          "  rowcast help convert|capture|snapshot\n"
          "                                   options of convert, capture or snapshot\n"
          "  rowcast --version\n"
          "\n"
          "Exit status: 0 success, 1 usage error, 2 bad input (with --on-error=stop, or every line\n"
          "bad), 3 I/O error or undelivered messages, 128+N stopped by signal N (after flushing).\n",
          f);
}

int cli_formats(int argc, char **argv)
{
    bool opts = argc > 1 && strcmp(argv[1], "--options") == 0;
    if (argc > 1 && !opts) {
        rc_suggest sg;
        rc_suggest_init(&sg, argv[1]);
        rc_suggest_offer(&sg, "--options");
        if (sg.best) fprintf(stderr, "rowcast formats: unknown argument '%s': did you mean '%s'?\n", argv[1], sg.best);
        else fprintf(stderr, "rowcast formats: unknown argument '%s'\n", argv[1]);
        return EXIT_USAGE;
    }
    /* by vendor (rc_format_names' order): each under a line "Vendor:" */
    printf("%-28s %-6s %-6s %s\n", "FORMAT", "ENCODE", "DECODE", "DESCRIPTION");
    const char *vendor = NULL;
    for (const rc_format_name *n = rc_format_names; n->name && !n->now; n++) {
        const rc_format *f = n->format;
        if (!vendor || strcmp(vendor, n->vendor)) printf("\n%s:\n", vendor = n->vendor);
        printf("%-28s %-6s %-6s %s\n", n->name, f && f->encode_value ? "yes" : "no", !f || f->decode ? "yes" : "no",
               n->summary ? n->summary : f->summary);
        if (!opts) continue;
        if (n->fixed_key) { /* a flavour: its format's options, one of them fixed */
            const rc_format_name *plain = rc_format_name_of(f, NULL, NULL);
            printf("    (the options of %s; %s is %s)\n", plain ? plain->name : f->name, n->fixed_key, n->fixed_value);
            continue;
        }
        const rc_option_desc *d = f ? f->options : NULL;
        if (!f) printf("    (no -o options of its own)\n");
        else if (!d || !d->key) printf("    (no options)\n");
        for (; d && d->key; d++) {
            char type[64];
            const char *def = d->def ? d->def : "";
            int dn = (int)strlen(def);
            if (def[0] == '(' && def[dn - 1] == ')') def++, dn -= 2; /* what decides it, not a value */
            printf("    -o %s=%s\n        %s; %s%.*s\n        %s\n", d->key, rc_option_values(d), rc_option_type_name(d, type, sizeof type),
                   d->def ? "default: " : "no default", dn, def, d->help);
        }
    }
    return EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        if (argc > 2 && !strcmp(argv[2], "convert")) cli_usage_convert();
        else if (argc > 2 && !strcmp(argv[2], "capture")) cli_usage_capture();
        else if (argc > 2 && !strcmp(argv[2], "snapshot")) cli_usage_snapshot();
        else usage(stdout);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("rowcast %s\n", RC_VERSION);
        return EXIT_OK;
    }
    if (!strcmp(cmd, "formats")) return cli_formats(argc - 1, argv + 1);
    if (!strcmp(cmd, "types")) return cli_types(argc - 1, argv + 1);
    if (!strcmp(cmd, "convert")) return cli_convert(argc - 1, argv + 1);
    if (!strcmp(cmd, "capture")) return cli_capture(argc - 1, argv + 1);
    if (!strcmp(cmd, "snapshot")) return cli_snapshot(argc - 1, argv + 1);
    if (!strcmp(cmd, "config")) return cli_config_cmd(argc - 1, argv + 1);
    static const char *const commands[] = {"formats", "types", "convert", "capture", "snapshot", "config", "help", "version", NULL};
    rc_suggest sg;
    rc_suggest_init(&sg, cmd);
    for (const char *const *k = commands; *k; k++) rc_suggest_offer(&sg, *k);
    if (sg.best) fprintf(stderr, "rowcast: unknown command '%s': did you mean '%s'?\n\n", cmd, sg.best);
    else fprintf(stderr, "rowcast: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
