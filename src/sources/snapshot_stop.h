/* Exact kill points for the tests of incremental snapshots (docs/development.md). */
#ifndef RC_SOURCES_SNAPSHOT_STOP_H
#define RC_SOURCES_SNAPSHOT_STOP_H

/* Called after each RC_SNAPSHOT_VERBOSE chunk notice ("chunk 17: emitted" passes "emitted").
 * With RC_SNAPSHOT_STOP=WHAT:N[,WHAT:N...] in the environment, the Nth notice WHAT of the
 * process says "rowcast: stopped at RC_SNAPSHOT_STOP point WHAT:N" on stderr and stops the
 * whole process (SIGSTOP), so that a test kills it (SIGKILL) exactly there, or does something
 * and lets it go on (SIGCONT), rather than a few chunks later as a test polling the notices
 * under load does. Without the variable it does nothing. */
void rc_snapshot_stop_point(const char *what);

#endif
