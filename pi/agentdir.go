package pi

import (
	"errors"
	"path/filepath"
	"strings"
)

// AgentDir is Pi's agent dir as Pi finds it: $PI_CODING_AGENT_DIR (a
// leading ~ expanded), else ~/.pi/agent.
func AgentDir(getenv func(string) string) (string, error) {
	home := getenv("HOME")
	agent := getenv("PI_CODING_AGENT_DIR")
	switch {
	case agent == "~" || strings.HasPrefix(agent, "~/"):
		if home == "" {
			return "", errors.New("PI_CODING_AGENT_DIR starts with ~ and HOME is not set")
		}
		return filepath.Join(home, agent[1:]), nil
	case agent != "":
		return agent, nil
	case home == "":
		return "", errors.New("no Pi agent dir: set PI_CODING_AGENT_DIR or HOME")
	}
	return filepath.Join(home, ".pi", "agent"), nil
}
