package board

import "testing"

// AskForSlimWith makes the board ask hosts for their slim listing with
// flag for the rest of the test.
func AskForSlimWith(t *testing.T, flag string) {
	was := slimFlag
	slimFlag = flag
	t.Cleanup(func() { slimFlag = was })
}
