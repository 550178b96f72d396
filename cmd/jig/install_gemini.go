package main

import (
	"github.com/urfave/cli/v2"

	"jig/gemini"
	"jig/install"
)

// installGeminiCommand merges jig's hook groups into Gemini CLI's
// settings.json.
func installGeminiCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "gemini",
		Usage: "merge jig's hooks into Gemini CLI's settings.json",
		UsageText: "jig install gemini [--uninstall]\n\n" +
			"The hooks run `jig gemini hook` (by jig's absolute path) on every event of a session but\n" +
			"AfterModel, in $GEMINI_CLI_HOME/.gemini/settings.json (else ~/.gemini). Everything else in the\n" +
			"file stays as it is, comments too.\n\n" +
			"example: jig install gemini",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "uninstall", Usage: "remove exactly jig's entries instead"}},
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			path, err := gemini.SettingsPath(e.getenv)
			if err != nil {
				return err
			}
			change := gemini.Uninstall
			if !c.Bool("uninstall") {
				bin, err := install.JigPath(e.getenv)
				if err != nil {
					return err
				}
				change = func(old []byte) ([]byte, bool, error) { return gemini.Install(old, bin) }
			}
			f, err := install.EditFile(path, change)
			if err != nil {
				return err // a settings file jig refuses to edit is bad input
			}
			sayLines(e.stdout, f.Line())
			return nil
		},
	}
}
