package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"jig/pi"
	"jig/status"
)

// installPiCommand puts jig's Pi extension (embedded in this binary) where
// Pi discovers extensions: $PI_CODING_AGENT_DIR/extensions, else
// ~/.pi/agent/extensions.
func installPiCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "pi",
		Usage:     "install jig's Pi extension (jig-session) where Pi loads extensions",
		UsageText: "jig install pi [--uninstall]\n\nexample: PI_CODING_AGENT_DIR=~/.pi/agent jig install pi",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "uninstall", Usage: "remove the extension instead"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError(c, "takes no arguments, got %q", c.Args().First())
			}
			dir, err := piExtensionsDir(e)
			if err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			path := filepath.Join(dir, pi.ExtensionName)
			if c.Bool("uninstall") {
				err := os.Remove(path)
				switch {
				case errors.Is(err, fs.ErrNotExist):
					fmt.Fprintf(e.stdout, "no extension at %s\n", path)
				case err != nil:
					return errorf(c, exitFailed, "%v", err)
				default:
					fmt.Fprintf(e.stdout, "removed %s\n", path)
				}
				return nil
			}
			if old, err := status.ReadFileNoFollow(path); err == nil && bytes.Equal(old, pi.Extension) {
				fmt.Fprintf(e.stdout, "%s (up to date)\n", path)
				return nil
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			if err := writeFileMode(path, pi.Extension, 0o644); err != nil {
				return errorf(c, exitFailed, "%v", err)
			}
			fmt.Fprintln(e.stdout, path)
			return nil
		},
	}
}

// piExtensionsDir is where Pi looks for extensions: its agent dir's
// extensions folder.
func piExtensionsDir(e *env) (string, error) {
	agent, err := pi.AgentDir(e.getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(agent, "extensions"), nil
}

// writeFileMode writes in one step (temp file, rename) with a fixed mode,
// never through a symlink planted at path.
func writeFileMode(path string, data []byte, mode os.FileMode) error {
	if err := status.WriteFileAtomic(path, data); err != nil {
		return err
	}
	return os.Chmod(path, mode)
}
