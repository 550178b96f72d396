#!/bin/sh
# TPM runs the *.tmux files at a plugin repository's root: this is jig's,
# with `set -g @plugin 'OWNER/jig'`. scripts/tmux/jig.tmux does the work.
exec "$(dirname "$0")/scripts/tmux/jig.tmux"
