// Command hello is the yardstick of bench/for-terminal.sh: the cheapest Go
// process, against which jig's reader is measured.
package main

import "fmt"

func main() { fmt.Println("hello, world") }
