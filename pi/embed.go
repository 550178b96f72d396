// Package pi carries jig's Pi extension, embedded in the jig binary so
// `jig install pi` can put it in place without anything else on disk.
package pi

import _ "embed"

// ExtensionName is the file name the extension is installed under.
const ExtensionName = "jig-session.ts"

// Extension is the extension's source; Pi loads TypeScript as is.
//
//go:embed jig-session.ts
var Extension []byte
