package main

import (
	"cmp"

	"github.com/urfave/cli/v2"

	"jig/opencode"
	ocbridge "jig/opencode/bridge"
	"jig/status"
)

// opencodeCommand: OpenCode's sessions, read through its own command line ($OPENCODE_BIN, else PATH).
func opencodeCommand(e *env) *cli.Command {
	oc := func() opencode.CLI { return opencode.CLI{Bin: cmp.Or(e.Getenv("OPENCODE_BIN"), "opencode")} }
	return &cli.Command{
		Name:      "opencode",
		Usage:     "read OpenCode's sessions; run the bridge of jig's OpenCode plugin",
		UsageText: "jig opencode COMMAND [options] [arguments]\n\nexample: jig opencode sessions --cwd .",
		Subcommands: []*cli.Command{
			sessionsCommand(e, "opencode", "OpenCode's", "as opencode session list says", oc().List), {
				Name:      "show",
				Usage:     "show what OpenCode keeps of a session (opencode export): model, effort, usage, context, outputs, recent calls",
				UsageText: "jig opencode show ID [--json]\n\nexample: jig opencode show ses_2334300e3001wrY0Rx4DNNPNdE",
				Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON"}},
				Action: func(c *cli.Context) error {
					if c.NArg() != 1 {
						return usageError(c, "takes one session ID")
					}
					exported, err := oc().Export(c.Args().First())
					if err != nil {
						return err
					}
					return printShown(c, e.Stdout, exported.Derived(), func() { exported.Print(e.Stdout) })
				},
			}, bridgeCommand(e, "keep the status files of an opencode process's sessions (started by jig's plugin; JSON lines on stdin)",
				"jig opencode bridge [--poll D] < events.jsonl\n\nexample: jig opencode bridge --poll 2s   # as jig's plugin starts it",
				func(dir *status.Dir, host string) bridgeRunner { return ocbridge.New(dir, e.Now, e.Getenv, host) }),
		},
	}
}
