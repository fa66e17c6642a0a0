/* The topology reader's command line, shared by `fwdtopo` (its own binary, what the lab
 * calls) and `fwdstat topology` (the older spelling, kept). */
#ifndef FWDSTAT_TOPO_CMD_H
#define FWDSTAT_TOPO_CMD_H

/* topo_cmd PROG ARGC ARGV: ARGV[0] is the verb (check, get or dump); PROG names the command
 * in the usage line. Returns the exit status: 0, 1 (a bad file: FILE:LINE: messages on
 * stderr) or 2 (bad usage). */
int topo_cmd(const char *prog, int argc, char **argv);

#endif
