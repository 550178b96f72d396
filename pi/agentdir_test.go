package pi

import "testing"

func TestAgentDirAsPiFindsIt(t *testing.T) {
	for _, c := range []struct{ home, env, want string }{
		{"/home/ana", "", "/home/ana/.pi/agent"},
		{"/home/ana", "/opt/agent", "/opt/agent"},
		{"/home/ana", "~/agents/pi", "/home/ana/agents/pi"},
		{"/home/ana", "~", "/home/ana"},
	} {
		got, err := AgentDir(func(k string) string { return map[string]string{"HOME": c.home, "PI_CODING_AGENT_DIR": c.env}[k] })
		if err != nil || got != c.want {
			t.Errorf("HOME=%s PI_CODING_AGENT_DIR=%s: %q, %v; want %s", c.home, c.env, got, err, c.want)
		}
	}
	for _, env := range []string{"", "~/x"} {
		if _, err := AgentDir(func(k string) string { return map[string]string{"PI_CODING_AGENT_DIR": env}[k] }); err == nil {
			t.Errorf("PI_CODING_AGENT_DIR=%q without HOME: no error", env)
		}
	}
}
