/* The cuzk CLI's SnapDeals commands (snap_cmds.c): each takes the command's argc/argv (argv[0] the
 * command name) and returns the process exit code (0 ok, 1 invalid proof, 2 usage, 3 bad input,
 * 4 out of resources). */
#ifndef CUZK_CLI_SNAP_CMDS_H
#define CUZK_CLI_SNAP_CMDS_H

int cli_cmd_make_update(int argc, char **argv);
int cli_cmd_prove_update(int argc, char **argv);
int cli_cmd_verify_update(int argc, char **argv);

#endif
